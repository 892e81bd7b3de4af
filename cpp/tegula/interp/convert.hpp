// Value conversion (astype) and bit reinterpretation (bitcast) of tiles between dtypes.
#pragma once
#include "tegula/interp/tile_value.hpp"

namespace tegula::interp {

// NumPy's astype, with one rounding to the target: float -> int truncates toward zero and
// saturates to the target's range (NaN -> 0, as CUDA's conversions do); anything -> bool is != 0;
// int -> int wraps (two's complement); int -> float rounds to nearest even once.
tile_value convert(const tile_value& in, ir::dtype to);

// Reinterprets each element's bits as `to` (same size in bytes, else op_failure).
tile_value bitcast(const tile_value& in, ir::dtype to);

// A single number converted to `to` as by convert (for constants and scalar arguments).
tile_value scalar_of_int(std::int64_t v, ir::dtype to, std::vector<std::int64_t> shape = {});
tile_value scalar_of_uint(std::uint64_t v, ir::dtype to, std::vector<std::int64_t> shape = {});
tile_value scalar_of_double(double v, ir::dtype to, std::vector<std::int64_t> shape = {});

}  // namespace tegula::interp
