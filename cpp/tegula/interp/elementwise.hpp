// Elementwise ops on tiles with NumPy's semantics for each dtype (results rounded/wrapped to it).
#pragma once
#include <cstdint>

#include "tegula/interp/tile_value.hpp"

namespace tegula::interp {

// The executor maps op kinds to these (only it switches over ir::op_kind).
enum class unary_fn : std::uint8_t {
  neg, logical_not, abs, exp, exp2, log, log2, sqrt, rsqrt, sin, cos, tanh, floor, ceil,
  tan, asin, acos, atan, sinh, cosh, asinh, acosh, atanh, log10, log1p, expm1, trunc, rint
};
enum class binary_fn : std::uint8_t {
  add, sub, mul, div, floordiv, mod, pow, atan2, hypot, copysign, minimum, maximum, bit_and, bit_or, bit_xor, shl, shr
};
enum class compare_fn : std::uint8_t { eq, ne, lt, le, gt, ge };

// Result has the operand's dtype and shape. Transcendental ops need a float operand; logical_not
// is `not` for bool and bitwise not for ints (op_failure otherwise).
tile_value apply_unary(unary_fn fn, const tile_value& x);
// Operands of one dtype and shape; the result has them too. Integer div/floordiv/mod by zero
// and integer pow with a negative exponent fail (op_failure), as do bitwise ops on floats.
tile_value apply_binary(binary_fn fn, const tile_value& a, const tile_value& b);
// Result is bool of the operands' shape.
tile_value apply_compare(compare_fn fn, const tile_value& a, const tile_value& b);
// cond is bool; a and b of one dtype; all of one shape.
tile_value apply_where(const tile_value& cond, const tile_value& a, const tile_value& b);

}  // namespace tegula::interp
