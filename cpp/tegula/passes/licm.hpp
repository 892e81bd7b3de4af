// licm: loop-invariant code motion: pure, non-trapping ops directly in a for/while body whose
// operands are all defined outside the loop move to just before the loop (inner loops first, so an
// invariant can leave a whole nest). Loads stay (stores in the loop may change memory).
#pragma once
#include "tegula/ir/ir.hpp"

namespace tegula::passes {

ir::function licm(const ir::function& f);

}  // namespace tegula::passes
