// Counting into bins on the GPU (histogram, bincount): each block counts its share of the elements in shared
// memory and adds its totals to the result with one atomic per bin, the classic privatised histogram (NVRTC).
// Per-element atomics on a few global addresses are what made 100 bins 50x slower than torch; the tile language's
// one-hot counting was slower still, because each block reduced a (256, 32) tile per 32 bins.
#pragma once
#include <cstdint>
#include <string>

#include "tegula/runtime/fwd.hpp"

namespace tegula::libs {

enum class bin_weights { none, int64, float64 };

// counts[k] = the sum of weights[i] (or 1) over every i < n with 0 <= idx[i] < bins; idx: n int64 bin indices.
// counts holds `bins` int64 (none, int64 weights) or float64 (float64 weights) and is zeroed first. Bins that fit
// in shared memory (up to 6144) are counted there first; more go straight to global atomics. On `s`.
void count_bins(rt::device& dev, const rt::stream& s, std::uintptr_t idx, std::int64_t n, std::int64_t bins,
                bin_weights w, std::uintptr_t weights, std::uintptr_t counts);

// The same counts (zeroed first) for values rather than bin indices: histogram's equal bins, found in the same
// pass. Each value x (x_type float32, float64, int32 or int64; compared as the edges' type, float32 for float32
// data and float64 otherwise, as NumPy's searchsorted does) gets the bin its offset from edges[0] suggests, moved until
// edges[k] <= x < edges[k + 1] (the last bin closed); values outside [edges[0], edges[bins]] and NaN are skipped.
// The result is the binary search's for any sorted edges; equal bins make the first guess right or one off. Up to
// 48 KB of counters and edges (about 6000 float32 bins) count in shared memory, more with global atomics.
void count_bins_uniform(rt::device& dev, const rt::stream& s, std::uintptr_t x, const std::string& x_type,
                        std::int64_t n, std::uintptr_t edges, std::int64_t bins, bin_weights w, std::uintptr_t weights,
                        std::uintptr_t counts);

// The CUDA source of the counting kernels (tg_count_<weights>_<shared|global>).
std::string bin_counts_source();
// The CUDA source of tg_count_uniform_<shared|global> for one value type and weight kind.
std::string bin_counts_uniform_source(const std::string& x_type, bin_weights w);

}  // namespace tegula::libs
