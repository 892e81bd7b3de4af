// The tile IR verifier: the invariants every pass may assume and must preserve.
#pragma once
#include "tegula/ir/ir.hpp"

namespace tegula::ir {

// Checks `f` and throws tegula::error(invalid_argument) on the first violation, with the op's
// location, the problem and the op's text:
//   "k.py:7:3: add: operand types tile<float32, 4> and tile<float16, 4> differ\n  in: %2 = add %0, %1 : ..."
// Invariants:
// - SSA: every value is defined once (parameter, region argument or op result); a use follows
//   its definition and lies in its scope (values defined in a region never escape it); ids are in range;
// - parameters are arrays or scalar tiles; tile extents are positive;
// - operand, result and region counts match ops.def; results of non-region ops have exactly the
//   types infer_results gives;
// - every region ends with its only yield; the function body yields nothing;
// - for: int scalar bounds of one dtype, region (iv, carried...) with yield and results of the
//   carried types; if: bool scalar condition, argument-less regions whose yields and results agree;
//   while: before (init types) yields (bool scalar, forwarded...), after (forwarded types) yields
//   init types, results forwarded types; reduce/scan: (tile, identity scalar of its dtype), attrs
//   axis and keepdims/reverse, region (acc, x) scalars of the dtype yielding one such scalar.
void verify(const function& f);

}  // namespace tegula::ir
