// The C expression computing one element of an elementwise op (NumPy semantics per dtype).
#pragma once
#include <string>
#include <vector>

#include "tegula/codegen/preamble.hpp"
#include "tegula/ir/ir.hpp"
#include "tegula/ir/op_traits.hpp"

namespace tegula::codegen {

// scalar_expr handles exactly the elementwise ops (ops.def categories unary, binary, comparison, select).
using ir::is_elementwise;

// `args` are C expressions of register values of dtypes `operands`; the result is a register value
// of dtype `result`. Integer arithmetic wraps (computed unsigned); float16/bfloat16 results are
// computed in float and rounded once; minimum/maximum propagate NaN. Records needed helpers in
// `needs`. Throws internal error for a kind that is not elementwise.
std::string scalar_expr(ir::op_kind k, const std::vector<ir::dtype>& operands, ir::dtype result,
                        const std::vector<std::string>& args, preamble_needs& needs);

}  // namespace tegula::codegen
