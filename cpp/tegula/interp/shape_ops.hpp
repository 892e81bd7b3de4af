// Shape ops on tiles: reshape, permute, expand_dims, broadcast_to (all copy into row-major order).
#pragma once
#include <cstdint>
#include <vector>

#include "tegula/interp/tile_value.hpp"

namespace tegula::interp {

// An axis in [-rank, rank) as a non-negative index (op_failure otherwise).
int normalize_axis(std::int64_t axis, int rank);

tile_value reshape(const tile_value& x, const std::vector<std::int64_t>& shape);
tile_value permute(const tile_value& x, const std::vector<std::int64_t>& perm);
tile_value expand_dims(const tile_value& x, std::int64_t axis);  // axis in [-(rank+1), rank]
tile_value broadcast_to(const tile_value& x, const std::vector<std::int64_t>& shape);

// out[i...] = x[sum i_d * strides[d]] for the row-major multi-index i over `shape`
// (strides in elements of x, one per output axis, 0 to repeat).
tile_value strided_copy(const tile_value& x, const std::vector<std::int64_t>& shape,
                        const std::vector<std::int64_t>& strides);

// Row-major element strides of a shape.
std::vector<std::int64_t> row_major_strides(const std::vector<std::int64_t>& shape);

}  // namespace tegula::interp
