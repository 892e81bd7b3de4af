// The mma op on the interpreter: acc + a @ b over 2-D tiles, the reference the GPU is compared with.
#pragma once
#include "tegula/interp/tile_value.hpp"

namespace tegula::interp {

// a (M, K) and b (K, N) of one dtype, acc (M, N) of the accumulator dtype (infer.cpp checks the
// pairing). Floats: each output's products are summed in double and rounded once to acc's dtype,
// so the result is at least as accurate as any GPU order of summation. tf32: float32 inputs are
// first truncated to TF32 (10 mantissa bits), as the tensor cores read them. Ints: the sum wraps to
// acc's width.
tile_value apply_mma(const tile_value& a, const tile_value& b, const tile_value& acc, bool tf32);

}  // namespace tegula::interp
