// Shape and type inference: the result types of an op from its operands and attributes.
#pragma once
#include <cstdint>
#include <vector>

#include "tegula/ir/ir.hpp"

namespace tegula::ir {

// Result types of a non-region op (everything except for_, if_, while_, reduce, scan, yield,
// whose results come from their regions). Throws tegula::error (type_error for dtype problems,
// invalid_argument for shapes and attributes) with a message that names the op but not the
// location (callers prefix it). `o` supplies the attributes; its operands are described by
// `operands` (so a builder can ask before the op exists).
std::vector<type> infer_results(const op& o, const std::vector<type>& operands);

// NumPy broadcasting of two shapes (align trailing dimensions; 1 stretches). Throws
// invalid_argument "shapes (2, 3) and (4,) cannot be broadcast together".
std::vector<std::int64_t> broadcast_shapes(const std::vector<std::int64_t>& a, const std::vector<std::int64_t>& b);

// The dtype a reduction or scan accumulates and returns for an input dtype (NumPy's rule for sum,
// prod, cumsum, cumprod: bool and signed ints -> int64, unsigned -> uint64, floats keep theirs).
dtype accumulation_dtype(op_kind k, dtype input);

}  // namespace tegula::ir
