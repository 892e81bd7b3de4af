// tegula's own single-pass inclusive scan of one long contiguous float32 array (cumsum, cumprod), compiled by
// NVRTC without CUB (CUB's scan, cub_scan.hpp, reaches about 78% of the H200's copy bandwidth). The grids:
// - 0: a persistent grid (as many blocks as fit at once) takes tiles by ticket and issues the next tile's loads
//   before it scans the current one and waits on the look-back;
// - -1 / -2: one tile per block, by ticket or by block index (as CUB), one tile held in registers, so more blocks fit.
// In all: loads and stores are float4 in the striped order (each warp instruction covers 512 contiguous bytes); a warp
// scans its stripes with shuffles, with no shared-memory transpose; the look-back reads up to 32 predecessors per
// reading warp at a time, each a 64-bit word holding the call's epoch, a flag and the value, so one relaxed load sees
// all three. The epoch lets calls on the default stream reuse one scratch buffer with no clearing between them.
// Measured on the H200 (2^28 float32, kernel alone): session 8's persistent grid 1323-2057 GB/s and one tile per
// block by ticket 2400-2435 (96 registers a thread); session 9's one tile per block by block index, one tile in
// registers: 3225, then 3434 with a pause before each look-back poll (CUB's idea; CUB's own scan ran at 3295-3379 in
// the same runs), then 3801-3858 with each tile's status word on its own 128-byte line (status_stride 16): packed,
// the polls of all the blocks looking back at once met in the same L2 lines. tnp.cumsum runs that tile by default
// (tegula/numpy/_scan.py): 3726-3769 GB/s for the whole call. A persistent grid of static tiles with a cp.async.bulk
// pipeline of N tiles per block into shared memory ran at 2400-2960 (a round's tiles arrive together, so a look-back
// finds no prefix near it) and was removed; git history has it (blocks_per_sm=-3).
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
                               // taken by ticket / by block index
  int delay = 0;               // ns before each look-back poll (0: none); grids of under 500 tiles never pause
  int lookback_warps = 0;      // warps reading predecessors in the look-back (0: all of the block's)
  int status_stride = 0;       // 8-byte words between tiles' status words (0: chained_scan_status_stride, 16: one
                               // 128-byte line each, so the polls of blocks looking back at once meet in fewer L2
                               // lines; 1, packed, ran 11% slower on the H200)
  int min_blocks = 0;          // blocks per SM the kernel's registers must allow (0: the compiler's choice)
};

// Whether the chained scan takes this problem: float32 pointers aligned to 16 bytes.
bool chained_scan_applies(std::uintptr_t in, std::uintptr_t out);

// The source chained_inclusive_scan compiles for p over `tiles` tiles (its look-back delay only from a grid this
// large: chained_scan_delays), so the prebuilt library (prebuilt_library.hpp) lists the very programs it asks for.
std::string chained_scan_source_for(const chained_scan_problem& p, std::int64_t tiles);
bool chained_scan_delays(std::int64_t tiles);

// The tile used when threads/items are 0, and the status stride when status_stride is 0.
constexpr int chained_scan_threads = 256, chained_scan_items = 16, chained_scan_status_stride = 16;

// The CUDA source of the kernel tg_chained_scan for one tile and load/store variant; grid 0: persistent, 1 / 2:
// one tile per block by ticket / by block index. Throws invalid_argument for a variant out of bounds.
std::string chained_scan_source(bool multiply, int threads, int items, int load, int store, int delay = 0,
                                int lookback_warps = 0, int grid = 0, int stride = chained_scan_status_stride,
                                int min_blocks = 0);

// out = the inclusive scan of in, on `s`. Throws invalid_argument for a bad tile or unaligned pointers.
void chained_inclusive_scan(rt::device& dev, const rt::stream& s, const chained_scan_problem& p);

}  // namespace tegula::libs
