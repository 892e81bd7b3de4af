// The ABI packer and launcher (see launch.hpp; the ABI is codegen/cuda.hpp's).
#include "tegula/kernel/launch.hpp"

#include <cuda.h>

#include <algorithm>
#include <cstring>

#include "tegula/interp/interpreter.hpp"
#include "tegula/kernel/tensor_maps.hpp"
#include "tegula/runtime/module.hpp"
#include "tegula/runtime/profiler.hpp"
#include "tegula/runtime/stream.hpp"
#include "tegula/support/error.hpp"

namespace tegula::kernel {
namespace {

const char* kind_name(const argument& a) { return std::holds_alternative<array_arg>(a) ? "an array" : "a scalar"; }

std::vector<interp::argument> interp_arguments(const std::vector<argument>& args) {
  std::vector<interp::argument> in;
  in.reserve(args.size());
  for (const auto& a : args) {
    if (const auto* x = std::get_if<array_arg>(&a)) {
      in.emplace_back(interp::array_arg{reinterpret_cast<void*>(x->address), x->t,
                                        std::vector<std::int64_t>(x->shape, x->shape + x->rank),
                                        std::vector<std::int64_t>(x->strides, x->strides + x->rank)});
    } else {
      const auto& s = std::get<scalar_arg>(a);
      if (ir::is_float(s.t)) in.emplace_back(interp::scalar_arg{s.f});
      else if (ir::is_bool(s.t)) in.emplace_back(interp::scalar_arg{s.i != 0});
      else if (ir::is_unsigned_int(s.t)) in.emplace_back(interp::scalar_arg{static_cast<std::uint64_t>(s.i)});
      else in.emplace_back(interp::scalar_arg{s.i});
    }
  }
  return in;
}

}  // namespace

void check(const compiled& k, const std::vector<argument>& args, const grid3& grid) {
  static constexpr std::int64_t limits[3] = {2147483647, 65535, 65535};
  for (int d = 0; d < 3; ++d) {
    if (grid[d] < 1)
      fail(error_kind::invalid_argument, "kernel '", k.fn.name, "': grid extent ", d, " is ", grid[d],
           " (must be at least 1)");
    if (!k.source.persistent && grid[d] > limits[d])
      fail(error_kind::invalid_argument, "kernel '", k.fn.name, "': grid extent ", d, " is ", grid[d],
           " (at most ", limits[d], ")");
  }
  if (k.source.persistent && grid[0] * grid[1] * grid[2] > 2147483647)
    fail(error_kind::invalid_argument, "kernel '", k.fn.name, "': a grid of ", grid[0] * grid[1] * grid[2],
         " blocks is past the 2^31 - 1 a persistent kernel walks");
  // Arity and layouts always; on the GPU every array and scalar parameter's kind, dtype and rank too (the
  // interpreter checks those itself, naming the parameter).
  if (args.size() != k.fn.params.size())
    fail(error_kind::type_error, "kernel '", k.fn.name, "' takes ", k.fn.params.size(), " arguments but ",
         args.size(), " were given");
  std::size_t array = 0;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const ir::param& p = k.fn.params[i];
    const ir::type& t = k.fn.type_of(p.value);
    const auto* x = std::get_if<array_arg>(&args[i]);
    if (k.on_gpu) {
      if (t.is_array() != (x != nullptr))
        fail(error_kind::type_error, "kernel '", k.fn.name, "' parameter '", p.name, "' is ",
             t.is_array() ? "an array" : "a scalar", " but was given ", kind_name(args[i]));
      if (x && (x->t != t.elem || x->rank != t.rank()))
        fail(error_kind::type_error, "kernel '", k.fn.name, "' parameter '", p.name, "' is a ", t.rank(), "-d ",
             ir::name(t.elem), " array but was given a ", x->rank, "-d ", ir::name(x->t), " one");
      if (!x && std::get<scalar_arg>(args[i]).t != t.elem)
        fail(error_kind::type_error, "kernel '", k.fn.name, "' parameter '", p.name, "' is a ", ir::name(t.elem),
             " scalar but was given a ", ir::name(std::get<scalar_arg>(args[i]).t), " one");
    }
    if (!x) continue;
    // A kernel specialised for a contiguous or aligned array reads and writes it as one: given an array that is
    // not, it would touch the wrong elements (on the GPU; the interpreter follows the strides).
    if (array < k.arrays.size()) {
      const codegen::array_spec want = k.arrays[array], have = actual_layout(*x);
      if ((want.last_dim_contiguous && !have.last_dim_contiguous) || (want.aligned_16 && !have.aligned_16))
        fail(error_kind::internal, "kernel '", k.fn.name, "' array argument ", array, " was specialised as",
             want.last_dim_contiguous ? " contiguous" : "", want.aligned_16 ? " aligned" : "", " but is",
             have.last_dim_contiguous ? "" : " not contiguous", have.aligned_16 ? "" : " not aligned",
             " (a cache key misses a layout)");
    }
    ++array;
  }
}

rt::launch_config config(const compiled& k, const grid3& grid) {
  rt::launch_config c;
  const int cluster = std::max(1, k.source.cluster);
  if (k.source.persistent) {
    // Whole clusters, one block an SM at most: each block walks the user's grid in steps of the launched grid.
    const std::int64_t n = grid[0] * grid[1] * grid[2], cl = cluster;
    const std::int64_t most = std::int64_t(k.max_blocks) / cl * cl;
    c.grid = {unsigned(std::max(cl, std::min((n + cl - 1) / cl * cl, most))), 1, 1};
  } else {
    c.grid = {unsigned(grid[0]), unsigned(grid[1]), unsigned(grid[2])};
  }
  c.block = {unsigned(k.source.block_threads), 1, 1};
  c.shared_mem = unsigned(k.source.dynamic_shared_bytes);
  if (cluster > 1) c.cluster = {unsigned(cluster), 1, 1};
  return c;
}

std::uint64_t pack(const compiled& k, const std::vector<rt::param_info>& layout, const std::vector<argument>& args,
                   const grid3& grid, const rt::stream* s, rt::param_buffer& out,
                   std::vector<std::shared_ptr<void>>& keep) {
  std::size_t p = 0;
  auto put = [&](const void* bytes, std::size_t n) {
    if (p >= layout.size() || layout[p].size != n)
      fail(error_kind::internal, "kernel '", k.fn.name, "': parameter ", p, " is not ", n, " bytes (",
           p < layout.size() ? layout[p].size : 0, " in the image)");
    out.put(layout[p++].offset, bytes, n);
  };
  for_each_param(args, put);
  std::uint64_t repacked = 0;
  if (!k.source.tensor_maps.empty()) {
    std::vector<const array_arg*> arrays;
    for (const auto& a : args)
      if (const auto* x = std::get_if<array_arg>(&a)) arrays.push_back(x);
    for (const auto& m : k.source.tensor_maps) {
      if (m.array < 0 || std::size_t(m.array) >= arrays.size())
        fail(error_kind::internal, "kernel '", k.fn.name, "' has a tensor map of array ", m.array, " of ", arrays.size());
      if (!s) fail(error_kind::internal, "kernel '", k.fn.name, "': tensor maps are encoded for a stream");
      bool copied = false;
      const rt::tensor_map map = encode_operand(k.fn.name, m, *arrays[std::size_t(m.array)], *s, keep, copied);
      if (copied) repacked |= std::uint64_t(1) << (m.array & 63);
      put(map.data(), sizeof map);
    }
  }
  if (k.source.persistent) {
    for (auto e : grid) {
      const std::int32_t x = std::int32_t(e);
      put(&x, 4);
    }
  }
  if (p != layout.size())
    fail(error_kind::internal, "kernel '", k.fn.name, "' has ", layout.size(), " parameters, packed ", p);
  return repacked;
}

launch_report launch(const compiled& k, const std::vector<argument>& args, const grid3& grid, const rt::stream* s,
                     const std::function<bool()>& interrupted) {
  check(k, args, grid);
  launch_report report;
  if (!k.on_gpu) {
    rt::prof::host_scope timing(rt::prof::kind::interpret, k.fn.name, nullptr, bytes_touched(args));
    interp::run(k.fn, interp_arguments(args), grid, interrupted);
    return report;
  }
  if (!s) fail(error_kind::invalid_argument, "kernel '", k.fn.name, "' runs on the GPU and needs a stream");
  // The module is context-independent: another device's stream works, once it has the shared memory opt-in too.
  if (&s->dev() != k.device && k.source.dynamic_shared_bytes > 48 * 1024)
    k.gpu->set_attribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, k.source.dynamic_shared_bytes, s->dev());
  rt::param_buffer buf(k.gpu->params_bytes());
  std::vector<std::shared_ptr<void>> keep;
  report.repacked = pack(k, k.gpu->params(), args, grid, s, buf, keep);
  const rt::launch_config c = config(k, grid);
  if (rt::prof::active()) rt::prof::note_bytes(bytes_touched(args));
  rt::launch(*s, c, *k.gpu, buf);
  return report;  // `keep`'s buffers are freed ordered on s, after the kernel
}

}  // namespace tegula::kernel
