// Radix sort through CUB, compiled at run time by NVRTC (DESIGN.md: CUB JIT'd through NVRTC). CUB's own
// onesweep kernels (histogram of every digit, exclusive sums, one decoupled-look-back pass per 8-bit digit)
// are instantiated for unsigned keys and opaque values and driven from here as CUB's dispatch layer does,
// on the array engine's stream. Keys are unsigned integers whose order is the wanted order (the caller
// maps floats and signed integers to such keys), so NumPy's NaN-last order needs no CUB traits.
#pragma once
#include <cstdint>
#include <string>

namespace tegula::rt {
class device;
class stream;
}  // namespace tegula::rt

namespace tegula::libs {

struct radix_sort_problem {
  int key_bytes = 4;    // 4 or 8: unsigned int / unsigned long long keys
  int value_bytes = 0;  // 0 (keys only), 4 or 8: values carried opaquely
  std::uintptr_t keys[2] = {0, 0};    // keys[0]: the input; keys[1]: a second buffer of n keys
  std::uintptr_t values[2] = {0, 0};  // the same for values (when value_bytes > 0)
  std::int64_t n = 0;
  int end_bit = 32;  // sorts on bits [0, end_bit) of the keys
};

// Sorts stably, overwriting both buffers; returns which of keys[0] / keys[1] (and values[i]) holds the
// result. The kernels compile once per (key, value, offset) size triple and are cached on disk.
int radix_sort(rt::device& dev, const rt::stream& s, const radix_sort_problem& p);

// The CUDA source and the kernels' name expressions for one instantiation (tests compile it without a GPU).
struct cub_sort_program {
  std::string source;
  std::string histogram, exclusive_sum, onesweep;  // name expressions
};
cub_sort_program cub_sort_source(int key_bytes, int value_bytes, int offset_bytes);

}  // namespace tegula::libs
