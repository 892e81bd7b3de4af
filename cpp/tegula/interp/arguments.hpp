// Checks run()'s arguments against the function's parameters and binds them to parameter values.
#pragma once
#include <vector>

#include "tegula/interp/interpreter.hpp"
#include "tegula/interp/tile_value.hpp"

namespace tegula::interp {

struct bound_param {
  ir::value_id value = -1;
  const array_arg* array = nullptr;  // array parameters (points into run()'s args)
  tile_ptr scalar;                   // scalar parameters: the value in the parameter's dtype
};

// One per parameter, in order. Throws invalid_argument for a wrong count, an inconsistent array
// (shape/strides length, negative extent, null data) or an integer that does not fit the
// parameter's dtype; type_error for the wrong kind (array vs scalar), dtype, rank, or a float
// given for an integer/bool parameter. Messages name the parameter and the kernel.
std::vector<bound_param> bind_arguments(const ir::function& f, const std::vector<argument>& args);

}  // namespace tegula::interp
