// Constant folding of elementwise ops on scalar values, with the interpreter's semantics.
#pragma once
#include <optional>
#include <vector>

#include "tegula/ir/ir.hpp"

namespace tegula::passes {

// A constant's `value` attribute read at dtype t, in canonical form: floats rounded to t (held as
// a double), integers as int64 (signed sign-extended, unsigned zero-extended, uint64 as its bit
// pattern), bool 0/1. nullopt when the attribute is not a number of a kind t accepts.
std::optional<ir::attribute> read_constant(const ir::attribute& value, ir::dtype t);

// The `value` of elementwise op o (unary, binary or astype) applied to canonical constant operands
// of dtypes `in`, as a canonical constant of dtype `out`. nullopt when o is not folded here: the
// op could fail at run time (integer division by zero, negative integer powers), or its result is
// not exactly reproducible on every target (exp, sin, pow of floats, ...).
std::optional<ir::attribute> fold(const ir::op& o, const std::vector<ir::dtype>& in,
                                  const std::vector<ir::attribute>& values, ir::dtype out);

// v rounded to float dtype t (nearest, ties to even; overflow gives infinity).
double round_float(double v, ir::dtype t);

}  // namespace tegula::passes
