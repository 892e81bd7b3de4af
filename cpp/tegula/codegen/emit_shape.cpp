// Emission of layout-changing shape ops: reshape, expand_dims, permute, broadcast_to.
// Where ownership is unchanged they are register copies; otherwise the input goes through shared
// memory in row-major order and each thread reads the elements it owns in the result.
#include "tegula/codegen/c_types.hpp"
#include "tegula/codegen/emitter.hpp"
#include "tegula/support/error.hpp"

namespace tegula::codegen {
namespace {

std::vector<std::int64_t> row_major_strides(const std::vector<std::int64_t>& shape) {
  std::vector<std::int64_t> s(shape.size(), 1);
  for (int d = int(shape.size()) - 2; d >= 0; --d) s[std::size_t(d)] = s[std::size_t(d + 1)] * shape[std::size_t(d + 1)];
  return s;
}

}  // namespace

void emitter::emit_reshape(const ir::op& o) {
  const ir::value_id in = o.operands.at(0), r = o.results.at(0);
  const tile_layout li = layout(in), lo = layout(r);
  if (li.numel != lo.numel) unsupported(o, "the element count changes");
  if (dtype_of(in) != dtype_of(r)) unsupported(o, "the dtype changes");
  if (lo.replicated) {
    line(str(reg_type(dtype_of(r)), " ", name(r), " = ", name(in), ";"));
    return;
  }
  declare(r, true);
  if (li.vec == lo.vec) {
    // Row-major order is kept and both layouts own the same flat indices: a register copy.
    line("// same ownership: register copy");
    line("#pragma unroll");
    line(str("for (int i_ = 0; i_ < ", lo.slots(), "; ++i_) ", name(r), "[i_] = ", name(in), "[i_];"));
    return;
  }
  const std::string R = reg_type(dtype_of(r));
  need_smem(o, lo.numel * reg_bytes(dtype_of(r)));
  open("");
  line(str(R, "* const sm_ = ", smem(R, 0), ";"));
  stage(in, "sm_", dtype_of(in));
  elements_loop(lo, [&] { line(str(name(r), "[s_] = sm_[f_];")); });
  close();
}

void emitter::emit_permute(const ir::op& o) {
  const ir::value_id in = o.operands.at(0), r = o.results.at(0);
  const ir::type& ti = type_of(in);
  const ir::type& to = type_of(r);
  const std::vector<std::int64_t>& perm = o.ints_attr("perm");
  if (perm.size() != ti.shape.size() || to.rank() != ti.rank()) unsupported(o, "perm does not match the tile's rank");
  for (std::size_t i = 0; i < perm.size(); ++i)
    if (perm[i] < 0 || perm[i] >= ti.rank() || to.shape[i] != ti.shape[std::size_t(perm[i])])
      unsupported(o, "the result shape is not the permuted input shape");
  const tile_layout lo = layout(r);
  if (lo.replicated) {
    line(str(reg_type(to.elem), " ", name(r), " = ", name(in), ";"));
    return;
  }
  const std::string R = reg_type(to.elem);
  const auto st = row_major_strides(ti.shape);
  need_smem(o, lo.numel * reg_bytes(to.elem));
  declare(r, true);
  open("");
  line(str(R, "* const sm_ = ", smem(R, 0), ";"));
  stage(in, "sm_", ti.elem);
  elements_loop(lo, [&] {
    flat_to_coords(to.shape, "f_", "c");
    std::string src = "0";
    for (std::size_t i = 0; i < perm.size(); ++i)
      if (to.shape[i] > 1) src += str(" + c", i, " * ", st[std::size_t(perm[i])]);
    line(str(name(r), "[s_] = sm_[", src, "];"));
  });
  close();
}

void emitter::emit_broadcast(const ir::op& o) {
  const ir::value_id in = o.operands.at(0), r = o.results.at(0);
  const ir::type& ti = type_of(in);
  const ir::type& to = type_of(r);
  const tile_layout li = layout(in), lo = layout(r);
  const int lead = to.rank() - ti.rank();
  if (lead < 0) unsupported(o, "the result has fewer axes than the input");
  for (int d = 0; d < ti.rank(); ++d) {
    std::int64_t a = ti.shape[std::size_t(d)], b = to.shape[std::size_t(d + lead)];
    if (a != 1 && a != b) unsupported(o, str("cannot broadcast ", to_string(ti), " to ", to_string(to)));
  }
  const std::string R = reg_type(to.elem);
  if (lo.replicated) {
    line(str(R, " ", name(r), " = ", name(in), ";"));
    return;
  }
  declare(r);
  if (li.replicated) {
    // A numel-1 tile is already in every thread: the broadcast is a register fill.
    line("// broadcast of a value every thread holds: register fill");
    line("#pragma unroll");
    line(str("for (int i_ = 0; i_ < ", lo.slots(), "; ++i_) ", name(r), "[i_] = ", name(in), ";"));
    return;
  }
  if (ti.shape == to.shape) {
    line("#pragma unroll");
    line(str("for (int i_ = 0; i_ < ", lo.slots(), "; ++i_) ", name(r), "[i_] = ", name(in), "[i_];"));
    return;
  }
  const auto st = row_major_strides(ti.shape);
  need_smem(o, li.numel * reg_bytes(to.elem));
  open("");
  line(str(R, "* const sm_ = ", smem(R, 0), ";"));
  stage(in, "sm_", ti.elem);
  if (lo.fragment && to.rank() == 2 && (li.numel == to.shape[1] || li.numel == to.shape[0])) {
    // A row (1, N) or column (M, 1) spread over the accumulator layout: each thread holds N/4
    // distinct columns (or 2*frag_mb distinct rows), read once; the slots repeat them, so the
    // registers are shared rather than multiplied.
    const bool row = li.numel == to.shape[1] && (ti.rank() == 1 || ti.shape[0] == 1);
    const int n = lo.frag_n, half = n / 2;
    const int distinct = row ? n / 4 : 2 * lo.frag_mb;
    line(str(R, " d_[", distinct, "];"));
    line("#pragma unroll");
    if (row) {
      line(str("for (int q_ = 0; q_ < ", distinct, "; ++q_) d_[q_] = sm_[(q_ >> 1) * 8 + (", tid_, " & 3) * 2 + (q_ & 1)];"));
      line("#pragma unroll");
      line(str("for (int s_ = 0; s_ < ", lo.slots(), "; ++s_) ", name(r), "[s_] = d_[((s_ % ", half, ") >> 2) * 2 + (s_ & 1)];"));
    } else {
      line(str("for (int q_ = 0; q_ < ", distinct, "; ++q_) d_[q_] = sm_[(", tid_, " >> 7) * ", 64 * lo.frag_mb,
               " + (q_ >> 1) * 64 + ((", tid_, " >> 5) & 3) * 16 + ((", tid_, " & 31) >> 2) + (q_ & 1) * 8];"));
      line("#pragma unroll");
      line(str("for (int s_ = 0; s_ < ", lo.slots(), "; ++s_) ", name(r), "[s_] = d_[(s_ / ", half, ") * 2 + ((s_ >> 1) & 1)];"));
    }
    close();
    return;
  }
  elements_loop(lo, [&] {
    flat_to_coords(to.shape, "f_", "c");
    std::string src = "0";
    for (int d = 0; d < ti.rank(); ++d)
      if (ti.shape[std::size_t(d)] != 1) src += str(" + c", d + lead, " * ", st[std::size_t(d)]);
    line(str(name(r), "[s_] = sm_[", src, "];"));
  });
  close();
}

}  // namespace tegula::codegen
