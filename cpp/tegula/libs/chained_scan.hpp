// tegula's own single-pass inclusive scan of one long contiguous float32 array (cumsum, cumprod), compiled by
// NVRTC without CUB. CUB's scan (cub_scan.hpp) reaches about 78% of the H200's copy bandwidth: a block loads its
// tile only once it starts, and it starts only when a block before it has finished its look-back. Here:
// - a persistent grid (as many blocks as fit at once) takes tiles by ticket, so every tile it waits on is owned by a
//   block already running;
// - a block asks for its next tile and issues that tile's loads before it scans the current one and waits on the
//   look-back, so memory stays busy while it waits;
// - loads and stores are float4 in the striped order (each warp instruction covers 512 contiguous bytes); a warp
//   scans its stripes with shuffles, with no shared-memory transpose;
// - the look-back reads up to a block's worth of predecessors at a time (32 per reading warp), each one 64-bit word
//   holding a flag and the value, so a single relaxed load sees both; polls can pause (`delay`).
// Measured on the H200 (session 8, kernel alone, 2^28 float32; CUB 3315-3375 GB/s in the same runs): the persistent
// grid ran at 1323-2057 GB/s, and slower with the whole block polling than with one warp; one tile per block by
// ticket reached 2400-2435. The likely reasons, to test with the sweep in bench/workloads/libs.py: in a persistent
// grid every block waits in its look-back at the same moment, and their polls crowd L2 (hence `delay` and
// `lookback_warps`); one tile per block by ticket waits an L2 round trip for the ticket before its first load (hence
// blocks_per_sm = -2, the block index, as CUB).
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
  int blocks_per_sm = 0;       // 0: as many as fit; -1 / -2: one tile per block (no persistent grid, no prefetch),
                               // taken by ticket / by block index; -3: a persistent grid with static tiles and a
                               // bulk-copy (cp.async.bulk) pipeline of `stages` tiles per block
  int stages = 0;              // the -3 pipeline's depth (0: chained_scan_stages)
  int delay = 0;               // ns between look-back polls (0: none)
  int lookback_warps = 0;      // warps reading predecessors in the look-back (0: all of the block's)
};

// Whether the chained scan takes this problem: float32 pointers aligned to 16 bytes.
bool chained_scan_applies(std::uintptr_t in, std::uintptr_t out);

// The CUDA source of the kernel tg_chained_scan for one tile and load/store variant; grid 0: persistent, 1 / 2:
// one tile per block by ticket / by block index, 3: persistent with a bulk-copy pipeline of `stages` tiles.
std::string chained_scan_source(bool multiply, int threads, int items, int load, int store, int delay = 0,
                                int lookback_warps = 0, int grid = 0, int stages = 0);

// The tile used when threads/items are 0.
constexpr int chained_scan_threads = 256, chained_scan_items = 16, chained_scan_stages = 4;

// out = the inclusive scan of in, on `s`. Throws invalid_argument for a bad tile or unaligned pointers.
void chained_inclusive_scan(rt::device& dev, const rt::stream& s, const chained_scan_problem& p);

}  // namespace tegula::libs
