// The N-d strided copy kernel (see copy.hpp): each element's offsets from its flat index.
#include "tegula/array/copy.hpp"

#include <functional>
#include <string>

#include "tegula/array/kernels.hpp"
#include "tegula/array/vm.hpp"
#include "tegula/array/vm_audit.hpp"
#include "tegula/ir/builder.hpp"
#include "tegula/runtime/buffer.hpp"
#include "tegula/support/error.hpp"

namespace tegula::array {
namespace {

using ir::op_kind;
using ir::type;
using ir::value_id;

constexpr std::int64_t copy_tile = 1024;

ir::function copy_ir(ir::dtype src_t, ir::dtype dst_t, int nd) {
  ir::function f;
  f.name = "tegula_copy";
  ir::builder b(f);
  value_id src = b.add_param("src", type::array(src_t, 1));
  value_id dst = b.add_param("dst", type::array(dst_t, 1));
  auto i64 = type::tile(ir::dtype::i64);
  value_id n = b.add_param("n", i64), s0 = b.add_param("src0", i64), d0 = b.add_param("dst0", i64);
  std::vector<value_id> ext, ss, ds;
  for (int d = 0; d < nd; ++d) ext.push_back(b.add_param("e" + std::to_string(d), i64));
  for (int d = 0; d < nd; ++d) ss.push_back(b.add_param("ss" + std::to_string(d), i64));
  for (int d = 0; d < nd; ++d) ds.push_back(b.add_param("ds" + std::to_string(d), i64));
  value_id bid = b.cast(b.create1(op_kind::block_id, {}, {{"axis", std::int64_t(0)}}), ir::dtype::i64);
  value_id i = b.binary(op_kind::add, b.cast(b.create1(op_kind::arange, {}, {{"n", copy_tile}}), ir::dtype::i64),
                        b.binary(op_kind::mul, bid, b.constant(copy_tile, i64)));
  value_id mask = b.binary(op_kind::lt, i, n);
  value_id rem = i, so = b.broadcast(s0, {copy_tile}), dof = b.broadcast(d0, {copy_tile});
  for (int d = nd - 1; d >= 0; --d) {
    value_id idx = b.binary(op_kind::mod, rem, ext[d]);
    if (d > 0) rem = b.binary(op_kind::floordiv, rem, ext[d]);
    so = b.binary(op_kind::add, so, b.binary(op_kind::mul, idx, ss[d]));
    dof = b.binary(op_kind::add, dof, b.binary(op_kind::mul, idx, ds[d]));
  }
  value_id v = b.create1(op_kind::gather, {src, so, mask}, {{"padding", std::string("zero")}, {"has_mask", std::int64_t(1)}});
  b.create(op_kind::scatter, {dst, dof, b.cast(v, dst_t), mask}, {{"has_mask", std::int64_t(1)}});
  b.finish();
  return f;
}

bool overlaps(const storage& a, const layout& la, ir::dtype ta, const storage& b, const layout& lb, ir::dtype tb) {
  if (&a != &b) return false;
  auto [alo, ahi] = la.extent();
  auto [blo, bhi] = lb.extent();
  std::int64_t a0 = alo * size_bytes(ta), a1 = ahi * size_bytes(ta), b0 = blo * size_bytes(tb), b1 = bhi * size_bytes(tb);
  return a0 < b1 && b0 < a1;
}

// A complex layout as a float layout with a last axis of 2: (real, imaginary).
layout as_part_pairs(const layout& l) {
  layout r = l;
  for (auto& st : r.strides) st *= 2;
  r.shape.push_back(2);
  r.strides.push_back(1);
  r.offset *= 2;
  return r;
}

// The copy of coalesced layouts s (of src) to d (of dst) as the VM runs it.
vm::copy_job copy_job_of(const storage& src, const layout& s, ir::dtype src_t, const storage& dst, const layout& d,
                         ir::dtype dst_t) {
  vm::copy_job job;
  job.src = src.address() + static_cast<std::uintptr_t>(s.offset * size_bytes(src_t));
  job.dst = dst.address() + static_cast<std::uintptr_t>(d.offset * size_bytes(dst_t));
  job.shape = s.shape, job.src_strides = s.strides, job.dst_strides = d.strides;
  job.src_t = src_t, job.dst_t = dst_t;
  return job;
}

// On the GPU, a copy whose kernel is neither built nor in the disk cache runs on the array VM while the kernel
// compiles in the background (issue #26; materialize.cpp's run_first for expressions). False: run the kernel.
bool run_first(const std::string& key, const std::vector<kernel_arg>& args, rt::device& gpu,
               const std::function<ir::function()>& make_ir, std::int64_t grid, const std::function<vm::copy_job()>& job) {
  vm::last_run& last = vm::last();
  last = {};
  const vm::mode mode = vm::current_mode();
  if (mode == vm::mode::never) return false;
  if (mode == vm::mode::first) {
    if (const array_kernel* k = ready_kernel(full_key(key, args), &gpu, make_ir, args)) {
      run_kernel(*k, device_kind::cuda, &gpu, args, grid);
      return true;
    }
  }
  std::string why;
  if (!vm::available(gpu, &why)) {
    last.note = str("waited for its copy kernel's compile: ", why);
    return false;
  }
  const vm::copy_job j = job();
  if (!vm::run_copy(j, gpu)) {
    last.note = str("waited for its copy kernel's compile: the array VM does not run it (", j.shape.size(),
                    " axes: more launches than max_copy_launches, or a conversion with no opcode)");
    return false;
  }
  ++stats().launches;
  ++stats().vm_launches;
  last.on_vm = true;
  last.note = mode == vm::mode::always ? "a copy on the array VM (TEGULA_ARRAY_VM=always)"
                                       : "a copy on the array VM while its kernel compiles in the background";
  return true;
}

}  // namespace

void copy_strided(const std::shared_ptr<storage>& src, const layout& src_layout, ir::dtype src_t,
                  const std::shared_ptr<storage>& dst, const layout& dst_layout, ir::dtype dst_t) {
  if (src_layout.shape != dst_layout.shape)
    fail(error_kind::internal, "copy_strided: shapes differ");
  if (ir::is_complex(src_t) || ir::is_complex(dst_t)) {
    if (!ir::is_complex(src_t) || !ir::is_complex(dst_t))
      fail(error_kind::internal, "copy_strided: casts to or from complex run in the engine");
    copy_strided(src, as_part_pairs(src_layout), ir::component(src_t), dst, as_part_pairs(dst_layout),
                 ir::component(dst_t));
    return;
  }
  std::int64_t n = src_layout.size();
  if (n == 0) return;
  if (overlaps(*src, src_layout, src_t, *dst, dst_layout, dst_t)) {
    auto tmp = src->kind() == device_kind::cpu ? storage::allocate_cpu(static_cast<std::size_t>(n) * size_bytes(src_t))
                                               : storage::allocate_cuda(static_cast<std::size_t>(n) * size_bytes(src_t), *src->dev());
    layout t = contiguous(src_layout.shape);
    copy_strided(src, src_layout, src_t, tmp, t, src_t);
    copy_strided(tmp, t, src_t, dst, dst_layout, dst_t);
    return;
  }
  auto merged = coalesce({src_layout, dst_layout});
  const layout& s = merged[0];
  const layout& d = merged[1];
  // One dense run into another of the same dtype (x.copy(), y[:] = x, a computed result into its target): the
  // driver's device-to-device copy, at the copy engine's bandwidth (the gather kernel's index arithmetic per
  // element reaches about half of it).
  if (src_t == dst_t && src->kind() == device_kind::cuda && src->buffer() && dst->buffer() && s.ndim() <= 1 &&
      (s.ndim() == 0 || (s.strides[0] == 1 && d.strides[0] == 1))) {
    const std::size_t item = size_bytes(src_t);
    dst->buffer()->copy_from(*src->buffer(), static_cast<std::size_t>(n) * item,
                             static_cast<std::size_t>(d.offset) * item + (dst->address() - dst->buffer()->ptr()),
                             static_cast<std::size_t>(s.offset) * item + (src->address() - src->buffer()->ptr()),
                             array_stream(*src->dev()));
    return;
  }
  int nd = std::max(s.ndim(), 1);
  auto [slo, shi] = src_layout.extent();
  auto [dlo, dhi] = dst_layout.extent();
  std::vector<kernel_arg> args;
  args.push_back(kernel_array{src->address() + static_cast<std::uintptr_t>(slo * size_bytes(src_t)), src_t, 1,
                              {shi - slo, 0}, {1, 0}, true, false});
  args.push_back(kernel_array{dst->address() + static_cast<std::uintptr_t>(dlo * size_bytes(dst_t)), dst_t, 1,
                              {dhi - dlo, 0}, {1, 0}, true, false});
  auto i64 = [](std::int64_t v) { return kernel_scalar{ir::dtype::i64, 0, v}; };
  args.push_back(i64(n));
  args.push_back(i64(s.offset - slo));
  args.push_back(i64(d.offset - dlo));
  for (int k = 0; k < nd; ++k) args.push_back(i64(s.ndim() ? s.shape[k] : 1));
  for (int k = 0; k < nd; ++k) args.push_back(i64(s.ndim() ? s.strides[k] : 0));
  for (int k = 0; k < nd; ++k) args.push_back(i64(d.ndim() ? d.strides[k] : 0));
  std::string key = "copy";
  key += static_cast<char>(src->kind());
  key += static_cast<char>(src_t);
  key += static_cast<char>(dst_t);
  key += static_cast<char>(nd);
  rt::device* gpu = src->kind() == device_kind::cuda ? src->dev() : nullptr;
  const std::int64_t grid = (n + copy_tile - 1) / copy_tile;
  const auto make_ir = [&] { return copy_ir(src_t, dst_t, nd); };
  const auto job = [&] { return copy_job_of(*src, s, src_t, *dst, d, dst_t); };
  if (gpu && run_first(key, args, *gpu, make_ir, grid, job)) return;
  if (!gpu && vm::audit_on()) vm::audit_copy(key, job());
  const array_kernel& k = get_kernel(key, src->kind(), gpu, make_ir, args);
  run_kernel(k, src->kind(), gpu, args, grid);
}

}  // namespace tegula::array
