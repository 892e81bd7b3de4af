// Bin counts of engine arrays (libs/bin_counts.hpp): bincount's and histogram's counting passes on a GPU.
#pragma once
#include "tegula/array/expr.hpp"

namespace tegula::libs {

// counts[k] = the sum of weights[i] (or 1) over the int64 bin indices idx (any shape, read in C order) with
// 0 <= idx[i] < bins; weights (null: none) int64 or float64 of idx's size; a new (bins,) int64 / float64 array.
array::node_ptr count_bins(const array::node_ptr& idx, std::int64_t bins, const array::node_ptr& weights);

// histogram's counts of the 1-D values x (float32, float64, int32 or int64) into the bins of the sorted 1-D edges
// (bins + 1 of them: float32 for float32 values, float64 otherwise), found and counted in one pass.
array::node_ptr count_bins_uniform(const array::node_ptr& x, const array::node_ptr& edges,
                                   const array::node_ptr& weights);

}  // namespace tegula::libs
