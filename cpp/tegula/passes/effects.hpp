// What each op may do besides computing its results: the facts CSE, DCE and LICM rely on.
#pragma once
#include "tegula/ir/ir.hpp"
#include "tegula/ir/op_traits.hpp"

namespace tegula::passes {

// ops.def's effect column (ir/op_traits.hpp):
//   pure          results depend only on operands, attributes and the launch (block id, array shapes)
//   reads_memory  load, gather: results also depend on array contents, which stores may change
//   writes        store, scatter, atomics, print, assert: must run exactly as written
//   regions       for, if, while, reduce, scan: effects are those of the ops inside
//   terminator    yield
using effect = ir::op_effect;
using ir::effect_of;

// True when `o` writes memory, prints or asserts, or (region ops) any op inside it does.
bool has_side_effects(const ir::op& o);

// True when `o` can fail at run time for some operand values (integer division by zero), so it
// may not be executed speculatively (hoisted out of a loop that might run zero times).
bool may_trap(const ir::function& f, const ir::op& o);

}  // namespace tegula::passes
