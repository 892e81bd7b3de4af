// Shape and type inference: the result types of an op from its operands and attributes.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
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
// argmax/argmin -> int32; every other kind keeps the input dtype.
dtype accumulation_dtype(op_kind k, dtype input);

// An axis attribute in [-rank, rank) as an index in [0, rank); nullopt when out of range.
std::optional<int> normalize_axis(std::int64_t axis, int rank);
// `shape` without axis `axis` (already normalized), or with it set to 1 when keepdims.
std::vector<std::int64_t> reduced_shape(const std::vector<std::int64_t>& shape, int axis, bool keepdims);
// "(2, 3)", "(4,)", "()": shapes as NumPy prints them, for messages.
std::string shape_string(const std::vector<std::int64_t>& shape);

}  // namespace tegula::ir
