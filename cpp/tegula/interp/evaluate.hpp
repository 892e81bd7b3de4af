// One elementwise op on tiles, exactly as the executor runs it (also used for constant folding).
#pragma once
#include <optional>
#include <vector>

#include "tegula/interp/tile_value.hpp"
#include "tegula/ir/ir.hpp"

namespace tegula::interp {

// The value of elementwise op `o` (unary, binary, comparison, where, astype, bitcast) on
// `operands`, or nullopt when `o` is not elementwise. Throws op_failure where the op fails at run
// time (integer division by zero, a negative integer power, a bitwise op on floats).
std::optional<tile_value> evaluate_elementwise(const ir::op& o, const std::vector<const tile_value*>& operands);

}  // namespace tegula::interp
