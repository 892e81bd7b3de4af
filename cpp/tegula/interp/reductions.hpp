// Reductions and scans along one axis of a tile: the built-in ones and those with a region combiner.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "tegula/interp/tile_value.hpp"

namespace tegula::interp {

enum class reduce_fn : std::uint8_t { sum, prod, max, min, argmax, argmin };
enum class scan_fn : std::uint8_t { cumsum, cumprod };

// A tile seen as [outer, len, inner] around `axis` (row-major).
struct axis_split {
  std::int64_t outer = 1, len = 1, inner = 1;
};
axis_split split_axis(const std::vector<std::int64_t>& shape, int axis);
std::vector<std::int64_t> reduced_shape(const std::vector<std::int64_t>& shape, int axis, bool keepdims);

// `axis` is already normalized. sum/prod/cumsum/cumprod convert the input to `result` (the
// accumulation dtype) and accumulate exactly (floats in double, ints modulo 2^64) before one
// final rounding/wrap to `result`. max/min propagate NaN; argmax/argmin give the first index of
// the extreme (a NaN counts as the extreme), as NumPy.
tile_value apply_reduce(reduce_fn fn, const tile_value& x, int axis, bool keepdims, ir::dtype result);
tile_value apply_scan(scan_fn fn, const tile_value& x, int axis, bool reverse, ir::dtype result);

// A region combiner: (acc, x) scalar tiles -> combined scalar tile.
using combine_fn = std::function<tile_ptr(const tile_ptr& acc, const tile_ptr& x)>;

// Sequential folds along `axis` starting from `identity` (a scalar of the result dtype):
// reduce gives the final accumulator, scan each running accumulator (from the end if reverse).
tile_value custom_reduce(const tile_value& x, const tile_ptr& identity, int axis, bool keepdims, const combine_fn& f);
tile_value custom_scan(const tile_value& x, const tile_ptr& identity, int axis, bool reverse, const combine_fn& f);

}  // namespace tegula::interp
