// Complex arithmetic for array kernels, lowered to tile IR on float parts: the tile IR has no
// complex values, so a complex tile is a pair of float tiles (real, imaginary) of the part dtype.
#pragma once
#include "tegula/ir/builder.hpp"

namespace tegula::array {

// A value of an array kernel: a real tile (im < 0) or a complex one (both parts).
struct cvalue {
  ir::value_id re = -1, im = -1;
  bool is_complex() const { return im >= 0; }
};

// Whether complex_ops lowers `op` for complex operands (unary or binary): the one list, kept beside the lowering;
// the engine refuses the others when the node is built (expr.cpp), with NumPy's error.
bool has_complex_loop(ir::op_kind op);

class complex_ops {
 public:
  // `part`: the float dtype both parts compute in (float32 for complex64, float64 for complex128).
  complex_ops(ir::builder& b, ir::dtype part) : b_(b), t_(part) {}

  // neg abs exp exp2 log log2 log10 sqrt sin cos tan sinh cosh tanh rint (has_complex_loop). abs returns
  // a real value; the others complex.
  cvalue unary(ir::op_kind op, cvalue z);
  // add sub mul div pow maximum minimum (complex results); eq ne lt le gt ge (bool: NumPy orders
  // complex numbers lexicographically, real part first).
  cvalue binary(ir::op_kind op, cvalue x, cvalue y);

 private:
  ir::value_id c(double v);
  ir::value_id un(ir::op_kind op, ir::value_id x);
  ir::value_id bin(ir::op_kind op, ir::value_id x, ir::value_id y);
  cvalue mul(cvalue x, cvalue y);
  cvalue mul_recovering(cvalue x, cvalue y);
  cvalue power(cvalue x, cvalue y);
  cvalue div(cvalue x, cvalue y);
  ir::value_id is_inf(ir::value_id x);
  ir::value_id is_finite(ir::value_id x);
  ir::value_id is_zero(ir::value_id x);
  ir::value_id both(ir::value_id p, ir::value_id q);
  ir::value_id is_big(cvalue z);
  double exp_limit() const;
  cvalue exp(cvalue z);
  ir::value_id hyperbolic_times(ir::op_kind f, ir::value_id x, ir::value_id c);
  cvalue sinh(cvalue z);
  cvalue cosh(cvalue z);
  cvalue log(cvalue z);
  cvalue sqrt(cvalue z);
  cvalue tanh(cvalue z);
  ir::value_id less(cvalue x, cvalue y, bool or_equal);

  ir::builder& b_;
  ir::dtype t_;
};

}  // namespace tegula::array
