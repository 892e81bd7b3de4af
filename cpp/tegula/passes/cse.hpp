// cse: common subexpression elimination of pure ops (effects.hpp): a later op with the same kind,
// operands, attributes and result types as one that dominates it (same region or an enclosing one)
// is dropped and its uses read the earlier results. Loads, memory writes, print, assert and control
// flow are never merged.
#pragma once
#include "tegula/ir/ir.hpp"

namespace tegula::passes {

ir::function cse(const ir::function& f);

}  // namespace tegula::passes
