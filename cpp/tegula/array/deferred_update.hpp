// Deferred in-place updates: `x += A @ y` as a pending node that writes into x's memory when it is computed.
//
// An in-place update normally writes at once. Where its right-hand side reads a pending library call (a matrix
// product over A, library_node.hpp) and x alone holds its memory, the write waits: x's array becomes a pending node
// of its new value whose home is x's memory, so the library call is still pending when the program's next statement
// builds another call over the same matrix, and both are one call (mvt's `x1 += A @ y_1; x2 += y_2 @ A` read A once).
//
// Why this keeps NumPy's semantics: nothing but x's own array can see the memory (no other array, view, pending
// expression or outside consumer shares it, and its address never left the engine: storage::address_shown), and every
// read of x goes through its pending node, which computes the value from the memory's old contents and then writes it
// there. Computing the node (evaluate, whoever asks: a read of x, a write into memory it reads, a plan that needs it)
// writes into home and nowhere else; copies of the node never carry the home (home_slot), so the update is applied once.
#pragma once
#include "tegula/array/expr.hpp"

namespace tegula::array {

// Whether `target op= operand` may wait: target a materialised array that alone holds its node and memory (no view,
// pending reader or other array shares it; its address never shown outside), and operand's pending graph reaching a
// pending library call within a few nodes (where waiting pays: the call may join another).
bool may_defer_update(const node_ptr& target, const node_ptr& operand);
// The pending update of target to `value` (target's dtype): a node computing value whose home is target's memory;
// the caller's array takes it in place of target.
node_ptr defer_update(const node_ptr& target, const node_ptr& value);

}  // namespace tegula::array
