// Tile IR for a planned array kernel (plan.hpp): the graph's ops over 2-D tiles of the space.
#pragma once
#include "tegula/array/plan.hpp"
#include "tegula/ir/ir.hpp"

namespace tegula::array {

// Parameters, in order: one array<t, 2> per leaf, one scalar per scalar node, ncols (int64), out.
// Complex leaves, scalars and results take two parameters each (real parts, then imaginary parts).
ir::function emit_kernel(const plan& p);

}  // namespace tegula::array
