// Emission of reductions: a register + warp-shuffle + shared-memory block reduction when the result
// is a single value (every thread gets it), otherwise a shared-memory reduction per output element.
#include <climits>
#include <variant>

#include "tegula/codegen/c_types.hpp"
#include "tegula/codegen/emitter.hpp"
#include "tegula/codegen/scalar_expr.hpp"
#include "tegula/support/error.hpp"

namespace tegula::codegen {
namespace {

using ir::op_kind;

bool is_arg(op_kind k) { return ir::traits_of(k).result == ir::result_dtype::index; }  // argmax, argmin

std::string shuffle(ir::dtype t, const std::string& x, const std::string& lane_mask) {
  std::string R = reg_type(t);
  if (R == "float" || R == "double" || R == "int" || R == "unsigned" || R == "long long" || R == "unsigned long long")
    return str("__shfl_xor_sync(0xffffffffu, ", x, ", ", lane_mask, ")");
  return str("(", R, ")__shfl_xor_sync(0xffffffffu, (int)", x, ", ", lane_mask, ")");
}

// Which axes of `in` the op reduces (attr axis: an int, a list, or absent for all axes).
std::vector<bool> reduced_axes(const ir::op& o, int rank) {
  std::vector<bool> red(std::size_t(rank), false);
  const ir::attribute* a = o.attr("axis");
  std::vector<std::int64_t> axes;
  if (!a) {
    red.assign(std::size_t(rank), true);
    return red;
  }
  if (auto* i = std::get_if<std::int64_t>(a)) axes.push_back(*i);
  else if (auto* l = std::get_if<std::vector<std::int64_t>>(a)) axes = *l;
  for (std::int64_t x : axes) {
    if (x < 0) x += rank;
    if (x < 0 || x >= rank) return {};
    red[std::size_t(x)] = true;
  }
  return red;
}

}  // namespace

ir::dtype accumulator(const ir::op& o, ir::dtype in, ir::dtype out) {
  ir::dtype t = ir::accumulates(o.kind) ? out : in;  // sum, prod, cumsum, cumprod: accumulation_dtype
  if (o.kind != op_kind::reduce && o.kind != op_kind::scan && (t == ir::dtype::f16 || t == ir::dtype::bf16 || ir::is_float8(t)))
    return ir::dtype::f32;
  return t;
}

std::string emitter::combine_expr(op_kind k, ir::dtype acc, const std::string& a, const std::string& b) {
  op_kind e = op_kind::add;
  switch (k) {
    case op_kind::reduce_sum: case op_kind::cumsum: e = op_kind::add; break;
    case op_kind::reduce_prod: case op_kind::cumprod: e = op_kind::mul; break;
    case op_kind::reduce_max: e = op_kind::maximum; break;
    case op_kind::reduce_min: e = op_kind::minimum; break;
    default: fail(error_kind::internal, "codegen: combine_expr of ", ir::info(k).text);
  }
  return scalar_expr(e, {acc, acc}, acc, {a, b}, needs_);
}

std::string emitter::identity_expr(const ir::op& o, ir::dtype acc) {
  switch (o.kind) {
    case op_kind::reduce_sum: case op_kind::cumsum: return literal(acc, std::int64_t(0));
    case op_kind::reduce_prod: case op_kind::cumprod: return literal(acc, std::int64_t(1));
    case op_kind::reduce_max: case op_kind::argmax: return lowest_literal(acc);
    case op_kind::reduce_min: case op_kind::argmin: return highest_literal(acc);
    case op_kind::reduce: case op_kind::scan: {
      ir::value_id id = o.operands.at(1);
      if (!layout(id).replicated) unsupported(o, "its identity must be a scalar");
      return cvt(dtype_of(id), acc, name(id));
    }
    default: fail(error_kind::internal, "codegen: identity_expr of ", ir::info(o.kind).text);
  }
}

void emitter::emit_reduction(const ir::op& o) {
  const ir::value_id in = o.operands.at(0), r = o.results.at(0);
  const ir::type& ti = type_of(in);
  const ir::type& to = type_of(r);
  if (o.kind == op_kind::reduce && o.operands.size() != 2) unsupported(o, "reduce takes a tile and an identity");
  std::vector<bool> red = reduced_axes(o, ti.rank());
  if (int(red.size()) != ti.rank()) unsupported(o, "its axis is out of range");
  // The result keeps the reduced axes as extent 1 (keepdims) or drops them.
  std::int64_t n_out = 1;
  for (int d = 0; d < ti.rank(); ++d)
    if (!red[std::size_t(d)]) n_out *= ti.shape[std::size_t(d)];
  if (to.numel() != n_out) unsupported(o, str("the result type ", to_string(to), " does not match the reduction of ",
                                              to_string(ti)));
  if (layout(r).replicated) emit_block_reduction(o, red);
  else emit_axis_reduction(o, red);
}

void emitter::emit_block_reduction(const ir::op& o, const std::vector<bool>&) {
  const ir::value_id in = o.operands.at(0), r = o.results.at(0);
  const ir::dtype tin = dtype_of(in), tout = dtype_of(r);
  const ir::dtype acc = accumulator(o, tin, tout);
  const std::string A = reg_type(acc);
  const bool arg = is_arg(o.kind);
  const std::string better = o.kind == op_kind::argmax ? "tg_better_max" : "tg_better_min";
  if (arg) needs_.arg_best = true;
  std::string cmb = o.kind == op_kind::reduce ? emit_combine_lambda(o, tin) : "";
  auto combine = [&](const std::string& a, const std::string& b) {
    return cmb.empty() ? combine_expr(o.kind, acc, a, b) : str(cmb, "(", a, ", ", b, ")");
  };
  // acc_ (and ai_) absorb candidate x (at index xi).
  auto absorb = [&](const std::string& x, const std::string& xi) {
    if (arg) line(str("if (", better, "(acc_, ai_, ", x, ", ", xi, ")) { acc_ = ", x, "; ai_ = ", xi, "; }"));
    else line(str("acc_ = ", combine("acc_", x), ";"));
  };
  declare(r);
  open("");
  line(str(A, " acc_ = ", identity_expr(o, acc), ";"));
  if (arg) line("int ai_ = 2147483647;");
  const tile_layout li = layout(in);
  if (li.replicated) {
    absorb(cvt(tin, acc, name(in)), "0");
  } else {
    line("// per-thread partial over the owned elements");
    elements_loop(li, [&] {
      line(str("const ", A, " x_ = ", cvt(tin, acc, at(in, "s_")), ";"));
      absorb("x_", "f_");
    });
    line("// warp: butterfly of shuffles, every lane ends with the warp's result");
    line("#pragma unroll");
    open("for (int o_ = 16; o_ > 0; o_ >>= 1)");
    line(str("const ", A, " y_ = ", shuffle(acc, "acc_", "o_"), ";"));
    if (arg) {
      line("const int yi_ = __shfl_xor_sync(0xffffffffu, ai_, o_);");
      absorb("y_", "yi_");
    } else if (!cmb.empty()) {
      // Lower lane on the left, so both partners compute the same value.
      line(str("acc_ = (", tid_, " & o_) ? ", combine("y_", "acc_"), " : ", combine("acc_", "y_"), ";"));
    } else {
      absorb("y_", "");
    }
    close();
    const int warps = lay_.threads / 32;
    if (warps > 1) {
      const std::int64_t idx_off = (std::int64_t(warps) * reg_bytes(acc) + 15) / 16 * 16;
      need_smem(o, idx_off + (arg ? warps * 4 : 0));
      line(str("// block: one partial per warp through shared memory, then every thread combines them"));
      line(str(A, "* const sw_ = ", smem(A, 0), ";"));
      if (arg) line(str("int* const si_ = ", smem("int", idx_off), ";"));
      barrier();
      open(str("if ((", tid_, " & 31) == 0)"));
      line(str("sw_[", tid_, " >> 5] = acc_;"));
      if (arg) line(str("si_[", tid_, " >> 5] = ai_;"));
      close();
      barrier();
      line("acc_ = sw_[0];");
      if (arg) line("ai_ = si_[0];");
      line("#pragma unroll");  // independent shared-memory reads, issued back to back
      open(str("for (int w_ = 1; w_ < ", warps, "; ++w_)"));
      absorb("sw_[w_]", arg ? "si_[w_]" : "");
      close();
    }
  }
  line(str(name(r), " = ", arg ? cvt(ir::dtype::i32, tout, "ai_") : cvt(acc, tout, "acc_"), ";"));
  close();
}

void emitter::emit_axis_reduction(const ir::op& o, const std::vector<bool>& red) {
  const ir::value_id in = o.operands.at(0), r = o.results.at(0);
  const ir::type& ti = type_of(in);
  const ir::type& to = type_of(r);
  const ir::dtype tin = ti.elem, tout = to.elem;
  const ir::dtype acc = accumulator(o, tin, tout);
  const std::string A = reg_type(acc), I = reg_type(tin);
  const bool arg = is_arg(o.kind);
  const std::string better = o.kind == op_kind::argmax ? "tg_better_max" : "tg_better_min";
  if (arg) needs_.arg_best = true;
  std::string cmb = o.kind == op_kind::reduce ? emit_combine_lambda(o, tin) : "";
  const int rank = ti.rank();
  const bool keepdims = to.rank() == rank;
  std::vector<std::int64_t> st(std::size_t(rank), 1);
  for (int d = rank - 2; d >= 0; --d) st[std::size_t(d)] = st[std::size_t(d + 1)] * ti.shape[std::size_t(d + 1)];
  std::vector<int> raxes;
  std::int64_t count = 1;
  for (int d = 0; d < rank; ++d)
    if (red[std::size_t(d)]) {
      raxes.push_back(d);
      count *= ti.shape[std::size_t(d)];
    }
  if (raxes.empty()) unsupported(o, "it reduces no axis");
  need_smem(o, layout(in).numel * reg_bytes(tin));
  declare(r, true);
  open("");
  line(str(I, "* const sm_ = ", smem(I, 0), ";"));
  stage(in, "sm_", tin);
  const tile_layout lo = layout(r);
  elements_loop(lo, [&] {
    flat_to_coords(to.shape, "f_", "c");
    // The input position of the result element, with every reduced axis at 0.
    std::string base = "0";
    int out_axis = 0;
    for (int d = 0; d < rank; ++d) {
      if (red[std::size_t(d)]) {
        if (keepdims) ++out_axis;
        continue;
      }
      if (ti.shape[std::size_t(d)] > 1) base += str(" + c", out_axis, " * ", st[std::size_t(d)]);
      ++out_axis;
    }
    line(str("const int base_ = ", base, ";"));
    line(str(A, " acc_ = ", identity_expr(o, acc), ";"));
    if (arg) line("int ai_ = 2147483647;");
    open(str("for (int j_ = 0; j_ < ", count, "; ++j_)"));
    // j_ runs over the reduced axes in row-major order.
    std::string off = str("j_ * ", st[std::size_t(raxes[0])]);
    if (raxes.size() > 1) {
      line("int rj_ = j_;");
      off = str(0);
      for (int i = int(raxes.size()) - 1; i >= 0; --i) {
        int d = raxes[std::size_t(i)];
        line(str("const int t", i, "_ = rj_ % ", ti.shape[std::size_t(d)], "; rj_ /= ", ti.shape[std::size_t(d)], ";"));
        off += str(" + t", i, "_ * ", st[std::size_t(d)]);
      }
    }
    line(str("const ", A, " x_ = ", cvt(tin, acc, str("sm_[base_ + ", off, "]")), ";"));
    if (arg) line(str("if (", better, "(acc_, ai_, x_, j_)) { acc_ = x_; ai_ = j_; }"));
    else line(str("acc_ = ", cmb.empty() ? combine_expr(o.kind, acc, "acc_", "x_") : cmb + "(acc_, x_)", ";"));
    close();
    line(str(name(r), "[s_] = ", arg ? cvt(ir::dtype::i32, tout, "ai_") : cvt(acc, tout, "acc_"), ";"));
  });
  close();
}

}  // namespace tegula::codegen
