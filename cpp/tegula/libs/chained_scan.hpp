// tegula's own single-pass inclusive scan of one long contiguous float32 array (cumsum, cumprod), compiled by
// NVRTC without CUB. CUB's scan (cub_scan.hpp) reaches about 78% of the H200's copy bandwidth: a block loads its
// tile only once it starts, and it starts only when a block before it has finished its look-back. Here:
// - a persistent grid (as many blocks as fit at once) takes tiles by ticket, so every tile it waits on is owned by a
//   block already running;
// - a block asks for its next tile and issues that tile's loads before it scans the current one and waits on the
//   look-back, so memory stays busy while it waits;
// - loads and stores are float4 in the striped order (each warp instruction covers 512 contiguous bytes); a warp
//   scans its stripes with shuffles, with no shared-memory transpose;
// - the look-back reads a block's worth of predecessors at a time (every warp 32), each one 64-bit word holding a
//   flag and the value, so a single relaxed load sees both. The first measurement (one warp, 32 at a time) ran at
//   half of CUB's speed: with hundreds of tiles started together, the known prefixes moved forward only 32 tiles
//   per round trip to L2.
// The float sums group differently from NumPy's sequential cumsum, as CUB's and every parallel scan's do.
#pragma once
#include <cstdint>
#include <string>

#include "tegula/runtime/fwd.hpp"

namespace tegula::libs {

struct chained_scan_problem {
  bool multiply = false;           // cumprod instead of cumsum
  std::uintptr_t in = 0, out = 0;  // float32, contiguous, 16-byte aligned; may be the same buffer
  std::int64_t n = 0;
  int threads = 0, items = 0;  // the tile: threads per block (multiple of 32), items per thread (multiple of 4)
  int load = 0;                // 0: ld.global, 1: ld.global.nc (in and out must not overlap), 2: ld.global.cs
  int store = 0;               // 0: st.global, 1: st.global.cs (streaming)
  int blocks_per_sm = 0;       // 0: as many as fit; -1: one tile per block (no persistent grid, no prefetch)
};

// Whether the chained scan takes this problem: float32 pointers aligned to 16 bytes.
bool chained_scan_applies(std::uintptr_t in, std::uintptr_t out);

// The CUDA source of the kernel tg_chained_scan for one tile and load/store variant.
std::string chained_scan_source(bool multiply, int threads, int items, int load, int store);

// The tile used when threads/items are 0.
constexpr int chained_scan_threads = 256, chained_scan_items = 16;

// out = the inclusive scan of in, on `s`. Throws invalid_argument for a bad tile or unaligned pointers.
void chained_inclusive_scan(rt::device& dev, const rt::stream& s, const chained_scan_problem& p);

}  // namespace tegula::libs
