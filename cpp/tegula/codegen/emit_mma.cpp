// Emission of mma (acc + a @ b) for tiles in the thread layout of layout.hpp: a and b are staged in
// shared memory as the accumulator type and each thread sums the products of the elements it owns.
// Correct for every dtype and shape; the tensor-core kernel (matmul_sm90.cpp) replaces whole
// matmul loops where it applies.
#include "tegula/codegen/c_types.hpp"
#include "tegula/codegen/emitter.hpp"
#include "tegula/support/error.hpp"

namespace tegula::codegen {

void emitter::emit_mma(const ir::op& o) {
  const ir::value_id a = o.operands.at(0), b = o.operands.at(1), c = o.operands.at(2), r = o.results.at(0);
  const ir::type& ta = type_of(a);
  const ir::type& tb = type_of(b);
  const std::int64_t M = ta.shape.at(0), K = ta.shape.at(1), N = tb.shape.at(1);
  const ir::dtype acc = dtype_of(r);
  const std::string R = reg_type(acc);
  const std::int64_t a_bytes = (M * K * reg_bytes(acc) + 15) / 16 * 16;
  need_smem(o, a_bytes + K * N * reg_bytes(acc));
  declare(r);
  const tile_layout lo = layout(r);
  open("");
  line(str(R, "* const sa_ = ", smem(R, 0), ";"));
  line(str(R, "* const sb_ = ", smem(R, a_bytes), ";"));
  // One staging barrier pair for both operands (stage() would add two each).
  barrier();
  for (auto [v, s] : {std::pair{a, "sa_"}, std::pair{b, "sb_"}}) {
    tile_layout l = layout(v);
    if (l.replicated) line(str("if (", tid_, " == 0) ", s, "[0] = ", cvt(dtype_of(v), acc, name(v)), ";"));
    else elements_loop(l, [&] { line(str(s, "[f_] = ", cvt(dtype_of(v), acc, at(v, "s_")), ";")); });
  }
  barrier();
  auto product = [&](const std::string& i, const std::string& j) {
    line(str(R, " s_acc = ", at(c, lo.replicated ? "0" : "s_"), ";"));
    line("#pragma unroll 8");
    line(str("for (int kk_ = 0; kk_ < ", K, "; ++kk_) s_acc += sa_[", i, " * ", K, " + kk_] * sb_[kk_ * ", N, " + ", j, "];"));
  };
  if (lo.replicated) {
    open("");
    product("0", "0");
    line(str(name(r), " = s_acc;"));
    close();
  } else {
    elements_loop(lo, [&] {
      line(str("const int mi_ = f_ / ", N, ", ni_ = f_ % ", N, ";"));
      product("mi_", "ni_");
      line(str(name(r), "[s_] = s_acc;"));
    });
  }
  close();
}

}  // namespace tegula::codegen
