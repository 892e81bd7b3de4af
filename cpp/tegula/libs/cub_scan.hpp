// Inclusive scans (cumsum, cumprod) of one long contiguous array through CUB's single-pass decoupled look-back
// scan (AgentScan), compiled at run time by NVRTC: each element is read once and written once.
#pragma once
#include <cstdint>
#include <string>

#include "tegula/runtime/fwd.hpp"

namespace tegula::libs {

struct scan_problem {
  std::string in_type = "float32";   // bool, int8..int64, uint8..uint64, float32 or float64
  std::string out_type = "float32";  // the accumulator too: int64/uint64 for integers, as NumPy's cumsum
  bool multiply = false;             // cumprod instead of cumsum
  std::uintptr_t in = 0, out = 0;    // contiguous; may be the same buffer
  std::int64_t n = 0;
  int threads = 0, items = 0;  // the tile (threads per block, items per thread); 0: tegula's sm_90 choice
  // How a tile is read: 0 BLOCK_LOAD_WARP_TRANSPOSE (CUB's), 1 BLOCK_LOAD_VECTORIZE with LOAD_LDG, 2 warp transpose
  // with LOAD_LDG, 3 warp transpose with LOAD_CS (streaming: evict first).
  int load = 0;
  // How a tile waits on its predecessors' look-back: 0 CUB's sm_90 fixed delays for the type, 1 no delay,
  // 2 fixed_delay_constructor_t<350, 450>, 3 exponential back-off from 16 ns.
  int delay = 0;
};

void inclusive_scan(rt::device& dev, const rt::stream& s, const scan_problem& p);

// The CUDA source (extern "C" kernels tg_scan_init and tg_scan) and the tile size for one instantiation.
struct cub_scan_program {
  std::string source;
  int threads = 0, items = 0;
};
cub_scan_program cub_scan_source(const std::string& in_type, const std::string& out_type, bool multiply,
                                 int offset_bytes, int threads = 0, int items = 0, int load = 0,
                                 int delay = 0);

}  // namespace tegula::libs
