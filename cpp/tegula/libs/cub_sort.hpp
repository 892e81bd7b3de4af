// Radix sort through CUB, compiled at run time by NVRTC (DESIGN.md: CUB JIT'd through NVRTC). CUB's own
// onesweep kernels (histogram of every digit, exclusive sums, one decoupled-look-back pass per 8-bit digit)
// are instantiated for unsigned keys and opaque values and driven from here as CUB's dispatch layer does,
// on the array engine's stream. Keys are unsigned integers whose order is the wanted order (the caller
// maps them), or NumPy's own int32/int64/uint32/uint64/float32/float64 sorted ascending as they are: floats
// through tegula's CUB traits (NaN of either sign last, as NumPy; -0.0 just before +0.0, each keeping its sign),
// so a sort of one row needs no key-mapping passes.
#pragma once
#include <cstdint>
#include <string>

#include "tegula/runtime/fwd.hpp"

namespace tegula::libs {

struct radix_sort_problem {
  std::string key_type = "uint32";  // uint32, uint64, int32, int64, float32 or float64
  int value_bytes = 0;              // 0 (keys only), 4 or 8: values carried opaquely
  std::uintptr_t keys[2] = {0, 0};    // keys[0]: the input (unless input_keys); keys[1]: a second buffer of n keys
  std::uintptr_t values[2] = {0, 0};  // the same for values (when value_bytes > 0)
  // When set, the first pass reads the keys (and values) from here, which are left unchanged; keys[0] and keys[1]
  // are then both scratch (the result still lands in the one radix_sort returns).
  std::uintptr_t input_keys = 0, input_values = 0;
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
cub_sort_program cub_sort_source(const std::string& key_type, int value_bytes, int offset_bytes);

// The size in bytes of a key type radix_sort takes (throws invalid_argument naming the types otherwise).
int sort_key_bytes(const std::string& key_type);

}  // namespace tegula::libs
