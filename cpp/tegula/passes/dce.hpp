// dce: dead code elimination: removes ops whose results are unused and that have no side effects
// (pure ops, loads, and region ops with nothing but such ops inside), recursively inside regions.
// Stores, scatters, atomics, print and assert are kept, and so is every op they depend on. As in
// MLIR, an unused while loop without side effects is removed even if it would not terminate.
#pragma once
#include "tegula/ir/ir.hpp"

namespace tegula::passes {

ir::function dce(const ir::function& f);

}  // namespace tegula::passes
