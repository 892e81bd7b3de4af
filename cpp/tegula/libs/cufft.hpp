// Fast Fourier transforms through cuFFT (dlopen'd at first use): batched transforms over the last
// `rank` axes of contiguous arrays, plans cached per shape and device.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "tegula/runtime/fwd.hpp"

namespace tegula::libs {

enum class fft_kind { c2c, r2c, c2r };

// `batch` transforms of extents `shape` (the logical sizes; for r2c/c2r the real side's), input and
// output contiguous and packed (c2r/r2c complex side: last extent n/2 + 1). double_precision picks
// Z2Z/D2Z/Z2D. inverse (c2c only) runs the backward transform (unnormalised, as cuFFT does).
struct fft_problem {
  fft_kind kind = fft_kind::c2c;
  bool double_precision = false;
  bool inverse = false;
  std::vector<std::int64_t> shape;
  std::int64_t batch = 1;
  std::uintptr_t in = 0, out = 0;
};

void fft(rt::device& dev, const rt::stream& s, const fft_problem& p);
std::string cufft_info();

}  // namespace tegula::libs
