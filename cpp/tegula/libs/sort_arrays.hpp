// Radix sorts of engine arrays through CUB (libs/cub_sort.hpp); on the CPU the same contract runs on a host
// reference (tests check the callers' key mappings there).
#pragma once
#include <utility>

#include "tegula/array/expr.hpp"

namespace tegula::libs {

// The stable sort of 1-D keys (uint32/uint64 on bits [0, end_bit); int32/int64/float32/float64 ascending in NumPy's
// order, NaNs last and returned positive, -0.0 just before +0.0) carrying 1-D `values` of 4 or 8 bytes (null: none).
// Returns (keys, values) sorted, C-contiguous. With `overwrite_inputs` the inputs' memory is the sort's scratch (one
// of them may be returned); otherwise they are read and left alone.
std::pair<array::node_ptr, array::node_ptr> radix_sort(const array::node_ptr& keys, const array::node_ptr& values,
                                                       int end_bit, bool overwrite_inputs);

}  // namespace tegula::libs
