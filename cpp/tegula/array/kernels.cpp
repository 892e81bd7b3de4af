// The array kernel cache and launcher (see kernels.hpp).
#include "tegula/array/kernels.hpp"

#include <cstring>
#include <mutex>
#include <unordered_map>

#include "tegula/array/storage.hpp"
#include "tegula/codegen/cuda.hpp"
#include "tegula/interp/interpreter.hpp"
#include "tegula/interp/small_float.hpp"
#include "tegula/jit/compiler.hpp"
#include "tegula/passes/pipeline.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/runtime/launch.hpp"
#include "tegula/runtime/module.hpp"
#include "tegula/runtime/object_code.hpp"
#include "tegula/runtime/profiler.hpp"
#include "tegula/support/error.hpp"

namespace tegula::array {
namespace {

struct cache {
  std::mutex m;
  std::unordered_map<std::string, std::unique_ptr<array_kernel>> kernels;
  const array_kernel* last = nullptr;
};
cache& the_cache() {
  static auto* c = new cache();  // leaked: kernels must outlive every array at exit
  return *c;
}

// What the code is specialised for (kernel_array's flags), as array_kernel::layouts keeps it.
unsigned char declared_layout(const kernel_array& x) {
  return static_cast<unsigned char>((x.contiguous ? 1 : 0) | (x.aligned ? 2 : 0));
}

// What the array really is: its last axis contiguous (or of one element), its address and every pitch of an
// axis with more than one element 16-byte aligned.
unsigned char actual_layout(const kernel_array& x) {
  const int last = x.rank - 1;
  bool contiguous = x.rank == 0 || x.shape[last] <= 1 || x.strides[last] == 1;
  bool aligned = x.address % 16 == 0;
  for (int d = 0; d < last; ++d)
    aligned = aligned && (x.shape[d] <= 1 || (x.strides[d] * ir::size_bytes(x.t)) % 16 == 0);
  return static_cast<unsigned char>((contiguous ? 1 : 0) | (aligned ? 2 : 0));
}

// A kernel specialised for a contiguous or aligned array reads and writes it as one: given an array that is not,
// it would touch the wrong elements (on the GPU; the interpreter follows the strides). Every launch checks.
void check_layouts(const array_kernel& k, const std::vector<kernel_arg>& args) {
  std::size_t i = 0;
  for (const auto& a : args) {
    const auto* x = std::get_if<kernel_array>(&a);
    if (!x) continue;
    if (i >= k.layouts.size())
      fail(error_kind::internal, "array kernel '", k.fn.name, "' was built for ", k.layouts.size(), " arrays, given more");
    const unsigned char want = k.layouts[i], have = actual_layout(*x);
    if ((want & have) != want)
      fail(error_kind::internal, "array kernel '", k.fn.name, "' array argument ", i, " was specialised as",
           want & 1 ? " contiguous" : "", want & 2 ? " aligned" : "", " but is", have & 1 ? "" : " not contiguous",
           have & 2 ? "" : " not aligned", " (a cache key misses a layout)");
    ++i;
  }
}

std::unique_ptr<array_kernel> build(device_kind device, rt::device* gpu, const std::function<ir::function()>& make_ir,
                                    const std::vector<kernel_arg>& args) {
  auto k = std::make_unique<array_kernel>();
  k->fn = passes::run_pipeline(make_ir());
  for (const auto& a : args)
    if (auto* x = std::get_if<kernel_array>(&a)) k->layouts.push_back(declared_layout(*x));
  if (device == device_kind::cpu) return k;
  codegen::options o;
  o.arch = gpu->arch();
  o.long_bodies_fewer_groups = true;  // long fused graphs keep their values in registers
  for (const auto& a : args)
    if (auto* x = std::get_if<kernel_array>(&a)) o.arrays.push_back({x->contiguous, x->aligned});
  codegen::kernel_source src = codegen::generate(k->fn, o);
  jit::compile_request r;
  r.source = src.source;
  r.name = "tegula_array.cu";
  r.arch = o.arch;
  auto compiled = jit::compile(r);
  rt::prof::record_compile(src.name, compiled->seconds, jit::outcome_name(compiled->outcome));
  auto code = std::make_shared<rt::object_code>(compiled->result->code, rt::object_code::kind::cubin,
                                                compiled->result->lowered_names);
  k->gpu = code->get_kernel(src.name);
  k->threads = static_cast<unsigned>(src.block_threads);
  k->shared = static_cast<unsigned>(src.dynamic_shared_bytes);
  if (k->shared > 48 * 1024)
    k->gpu->set_attribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, static_cast<int>(k->shared), *gpu);
  k->source = std::move(src.source);
  return k;
}

void put_scalar(rt::param_buffer& buf, const rt::param_info& at, const kernel_scalar& s) {
  unsigned char bytes[8] = {};
  std::size_t n = static_cast<std::size_t>(size_bytes(s.t));
  switch (s.t) {
    case ir::dtype::b1: bytes[0] = s.i != 0; break;
    case ir::dtype::f32: { float f = static_cast<float>(s.f); std::memcpy(bytes, &f, 4); break; }
    case ir::dtype::f64: std::memcpy(bytes, &s.f, 8); break;
    case ir::dtype::f16: { auto h = interp::float16_from_double(s.f); std::memcpy(bytes, &h, 2); break; }
    case ir::dtype::bf16: { auto h = interp::bfloat16_from_double(s.f); std::memcpy(bytes, &h, 2); break; }
    default: std::memcpy(bytes, &s.i, n); break;  // little-endian: the low bytes
  }
  if (at.size != n) fail(error_kind::internal, "array kernel scalar parameter has ", at.size, " bytes, packed ", n);
  buf.put(at.offset, bytes, n);
}

// Bytes of every array argument, counting a broadcast (stride 0) axis once: what the kernel reads and writes.
std::uint64_t bytes_touched(const std::vector<kernel_arg>& args) {
  std::uint64_t total = 0;
  for (const auto& a : args) {
    if (auto* x = std::get_if<kernel_array>(&a)) {
      std::uint64_t n = 1;
      for (int d = 0; d < x->rank; ++d)
        if (x->strides[d] != 0) n *= static_cast<std::uint64_t>(x->shape[d]);
      total += n * static_cast<std::uint64_t>(ir::size_bytes(x->t));
    }
  }
  return total;
}

}  // namespace

kernel_stats& stats() {
  static kernel_stats s;
  return s;
}

const array_kernel* last_kernel() { return the_cache().last; }

const array_kernel& get_kernel(const std::string& key, device_kind device, rt::device* gpu,
                               const std::function<ir::function()>& make_ir, const std::vector<kernel_arg>& args) {
  // The key plus every array's layout flags: the code differs with them (a complex result's part views are
  // contiguous only when it has one column, which the plan's key does not say, say).
  phase_timer lookup(stats().lookup_ns);
  thread_local std::string full;
  full.assign(key);
  for (const auto& a : args)
    if (auto* x = std::get_if<kernel_array>(&a)) full += static_cast<char>('0' + declared_layout(*x));
  cache& c = the_cache();
  std::lock_guard<std::mutex> lock(c.m);
  auto it = c.kernels.find(full);
  if (it != c.kernels.end()) {
    ++stats().hits;
    c.last = it->second.get();
    return *it->second;
  }
  ++stats().builds;
  lookup.stop();
  phase_timer building(stats().build_ns);
  auto k = build(device, gpu, make_ir, args);
  c.last = k.get();
  return *c.kernels.emplace(full, std::move(k)).first->second;
}

void run_kernel(const array_kernel& k, device_kind device, rt::device* gpu, const std::vector<kernel_arg>& args,
                std::int64_t grid) {
  ++stats().launches;
  if (grid <= 0) return;
  phase_timer launching(stats().launch_ns);
  check_layouts(k, args);
  if (device == device_kind::cpu) {
    std::vector<interp::argument> in;
    for (const auto& a : args) {
      if (auto* x = std::get_if<kernel_array>(&a)) {
        in.emplace_back(interp::array_arg{reinterpret_cast<void*>(x->address), x->t,
                                          std::vector<std::int64_t>(x->shape, x->shape + x->rank),
                                          std::vector<std::int64_t>(x->strides, x->strides + x->rank)});
      } else {
        const auto& s = std::get<kernel_scalar>(a);
        if (ir::is_float(s.t)) in.emplace_back(interp::scalar_arg{s.f});
        else if (ir::is_bool(s.t)) in.emplace_back(interp::scalar_arg{s.i != 0});
        else if (ir::is_unsigned_int(s.t)) in.emplace_back(interp::scalar_arg{static_cast<std::uint64_t>(s.i)});
        else in.emplace_back(interp::scalar_arg{s.i});
      }
    }
    launching.stop();  // the interpreter's run of the kernel is the kernel's time, not the launch's
    rt::prof::host_scope timing(rt::prof::kind::interpret, k.fn.name, nullptr, bytes_touched(args));
    interp::run(k.fn, in, {grid, 1, 1});
    return;
  }
  const auto& layout = k.gpu->params();
  rt::param_buffer buf(k.gpu->params_bytes());
  std::size_t p = 0;
  auto next = [&]() -> const rt::param_info& {
    if (p >= layout.size()) fail(error_kind::internal, "array kernel packs more parameters than it has");
    return layout[p++];
  };
  for (const auto& a : args) {
    if (auto* x = std::get_if<kernel_array>(&a)) {
      std::uint64_t ptr = x->address;
      buf.put(next().offset, &ptr, 8);
      for (int d = 0; d < x->rank; ++d) buf.put(next().offset, &x->shape[d], 8);
      for (int d = 0; d < x->rank; ++d) buf.put(next().offset, &x->strides[d], 8);
    } else {
      put_scalar(buf, next(), std::get<kernel_scalar>(a));
    }
  }
  if (p != layout.size()) fail(error_kind::internal, "array kernel has ", layout.size(), " parameters, packed ", p);
  if (grid > 2147483647) fail(error_kind::invalid_argument, "array too large for one kernel launch (", grid, " blocks)");
  rt::launch_config c;
  c.grid = {static_cast<unsigned>(grid), 1, 1};
  c.block = {k.threads, 1, 1};
  c.shared_mem = k.shared;
  if (rt::prof::active()) rt::prof::note_bytes(bytes_touched(args));
  rt::launch(array_stream(*gpu), c, *k.gpu, buf);
}

}  // namespace tegula::array
