// Tile IR for a planned array kernel (plan.hpp): the graph's ops over 2-D tiles of the space.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <variant>

#include "tegula/array/plan.hpp"
#include "tegula/ir/ir.hpp"

namespace tegula::array {

// Parameters, in order: one array<t, 2> per leaf, one scalar per scalar node, ncols (int64), out.
// Complex leaves, scalars and results take two parameters each (real parts, then imaginary parts).
ir::function emit_kernel(const plan& p);

// The start value of a reduction in dtype t -- sum 0, prod 1, max (argmax) the lowest value, min (argmin) the
// highest -- as an int64 (bool and integers; unsigned maxima as their bits) or a double (floats): what the fused
// kernel's and the array VM's accumulators start from.
std::variant<std::int64_t, double> reduction_identity(ir::op_kind op, dtype t);

// The kernel's per-element body for the array VM (codegen/vm_program.hpp): the same parameters (plus `col`, the
// element's column, after ncols), every leaf loaded as one element at (0, 0), the graph's values stored as one
// element to the outputs; a reduction root stores its input (what the VM combines). nullopt (with `why`) for a plan
// the VM does not run: scans, reductions inside the expression, argmax/argmin, 0-d expressions of full reductions.
std::optional<ir::function> emit_body(const plan& p, std::string* why = nullptr);

}  // namespace tegula::array
