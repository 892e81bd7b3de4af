// canonicalize: folds constant arithmetic on scalar/splat constants (as the interpreter computes it),
// removes no-op astype/broadcast_to/reshape/permute, selects where/if on constant conditions and
// drops for loops that run zero times. Result ids and types are unchanged; dead constants are left for dce.
#pragma once
#include "tegula/ir/ir.hpp"

namespace tegula::passes {

ir::function canonicalize(const ir::function& f);

}  // namespace tegula::passes
