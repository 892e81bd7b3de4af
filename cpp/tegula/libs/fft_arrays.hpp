// FFTs of engine arrays through cuFFT (libs/cufft.hpp): one call over the last axis, the result a new array.
#pragma once
#include <cstdint>

#include "tegula/array/expr.hpp"
#include "tegula/libs/cufft.hpp"

namespace tegula::libs {

// The n-point transforms of x's last axis (a CUDA array, or on the CPU a direct O(n^2) reference for tests; C-contiguous, or copied so): c2c (x complex64/128, its
// last extent n; inverse: unnormalised backward), r2c (x float32/64, last extent n; result last extent n/2 + 1), c2r
// (x complex, last extent n/2 + 1; result n reals). A new C-contiguous array of the result dtype. cuFFT overwrites
// a c2r input: x is copied first unless `overwrite_input` (the caller's own copy).
array::node_ptr fft_last_axis(const array::node_ptr& x, fft_kind kind, std::int64_t n, bool inverse,
                              bool overwrite_input = false);

}  // namespace tegula::libs
