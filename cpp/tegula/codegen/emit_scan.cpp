// Emission of scans (cumsum, cumprod, custom scan) along one axis: a blocked scan in shared memory.
// Each line (all elements along the axis at fixed other coordinates) is cut into P chunks; phase 1
// scans every chunk in place (one thread per chunk) and records its total; phase 2 combines the
// totals of the earlier chunks into a prefix and applies it. Only associativity is assumed.
#include <algorithm>
#include <cmath>

#include "tegula/codegen/c_types.hpp"
#include "tegula/codegen/emitter.hpp"
#include "tegula/support/error.hpp"

namespace tegula::codegen {

void emitter::emit_scan(const ir::op& o) {
  const ir::value_id in = o.operands.at(0), r = o.results.at(0);
  const ir::type& ti = type_of(in);
  const ir::type& to = type_of(r);
  if (o.kind == ir::op_kind::scan && o.operands.size() != 2) unsupported(o, "scan takes a tile and an identity");
  if (ti.numel() != to.numel()) unsupported(o, "the result's element count differs from the input's");
  const ir::dtype tin = ti.elem, tout = to.elem;
  const ir::dtype acc = accumulator(o, tin, tout);
  const std::string A = reg_type(acc);
  const bool reverse = o.attr("reverse") && o.int_attr("reverse") != 0;
  std::string cmb = o.kind == ir::op_kind::scan ? emit_combine_lambda(o, tin) : "";
  auto combine = [&](const std::string& a, const std::string& b) {
    return cmb.empty() ? combine_expr(o.kind, acc, a, b) : str(cmb, "(", a, ", ", b, ")");
  };

  // The scanned axis: extent L, distance `inner` between its consecutive elements (row-major);
  // without an axis the flattened tile is one line.
  const std::int64_t n = ti.numel();
  std::int64_t extent = n, inner = 1;
  if (o.attr("axis") && ti.rank() > 0) {
    std::int64_t axis = o.int_attr("axis");
    if (axis < 0) axis += ti.rank();
    if (axis < 0 || axis >= ti.rank()) unsupported(o, "its axis is out of range");
    extent = ti.shape[std::size_t(axis)];
    for (int d = int(axis) + 1; d < ti.rank(); ++d) inner *= ti.shape[std::size_t(d)];
  }
  const tile_layout lo = layout(r);
  if (lo.replicated) {
    line(str(reg_type(tout), " ", name(r), " = ", cvt(acc, tout, cvt(tin, acc, name(in))), ";"));
    return;
  }
  const std::int64_t lines = n / extent;
  const std::int64_t T = lay_.threads;
  std::int64_t chunks = std::max<std::int64_t>(1, std::min<std::int64_t>(T / lines, std::int64_t(std::ceil(std::sqrt(double(extent))))));
  chunks = std::min(chunks, extent);
  const std::int64_t len = (extent + chunks - 1) / chunks;
  const std::int64_t work = lines * chunks;
  const std::int64_t tot_off = (n * reg_bytes(acc) + 15) / 16 * 16;
  need_smem(o, tot_off + work * reg_bytes(acc));

  auto position = [&](const std::string& j) {
    return str("lb_ + ", reverse ? str("(", extent - 1, " - ", j, ")") : j, " * ", inner);
  };
  auto work_head = [&] {
    open(str("for (int w_ = ", tid_, "; w_ < ", work, "; w_ += ", T, ")"));
    line(str("const int l_ = w_ / ", chunks, ", p_ = w_ % ", chunks, ";"));
    line(str("const int lb_ = (l_ / ", inner, ") * ", extent * inner, " + (l_ % ", inner, ");"));
    line(str("const int j0_ = p_ * ", len, ", j1_ = min(j0_ + ", len, ", ", extent, ");"));
  };

  declare(r, true);
  open("");
  line(str(A, "* const sm_ = ", smem(A, 0), ";"));
  line(str(A, "* const tot_ = ", smem(A, tot_off), ";"));
  stage(in, "sm_", acc);
  line(str("// phase 1: ", lines, " line(s) of ", extent, " in ", chunks, " chunk(s) of ", len,
           "; each chunk scanned in place by one thread"));
  work_head();
  line(str(A, " acc_ = ", identity_expr(o, acc), ";"));
  open("if (j0_ < j1_)");
  line(str("acc_ = sm_[", position("j0_"), "];"));
  open("for (int j_ = j0_ + 1; j_ < j1_; ++j_)");
  line(str("const int i_ = ", position("j_"), ";"));
  line(str("acc_ = ", combine("acc_", "sm_[i_]"), ";"));
  line("sm_[i_] = acc_;");
  close();
  close();
  line("tot_[w_] = acc_;");
  close();
  barrier();
  if (chunks > 1) {
    line("// phase 2: prefix of the earlier chunks' totals, applied to this chunk");
    work_head();
    open("if (p_ > 0)");
    line(str(A, " pre_ = tot_[l_ * ", chunks, "];"));
    line(str("for (int q_ = 1; q_ < p_; ++q_) pre_ = ", combine("pre_", str("tot_[l_ * ", chunks, " + q_]")), ";"));
    open("for (int j_ = j0_; j_ < j1_; ++j_)");
    line(str("const int i_ = ", position("j_"), ";"));
    line(str("sm_[i_] = ", combine("pre_", "sm_[i_]"), ";"));
    close();
    close();
    close();
    barrier();
  }
  elements_loop(lo, [&] { line(str(name(r), "[s_] = ", cvt(acc, tout, "sm_[f_]"), ";")); });
  close();
}

}  // namespace tegula::codegen
