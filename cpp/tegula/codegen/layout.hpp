// Thread mapping of tile values: threads per block, vector width and per-thread register arrays.
#pragma once
#include <cstdint>
#include <map>
#include <vector>

#include "tegula/ir/ir.hpp"

namespace tegula::codegen {

// How one tile value lives in registers. Invariants:
// - replicated (numel == 1, any rank): one plain scalar, the same value in every thread;
// - distributed: the flat row-major index f = (k*T + t)*vec + j (k < per_thread, j < vec) is held by
//   thread t in slot k*vec + j of a register array of slots() entries; vec divides the last extent,
//   so a group of vec elements never crosses a row, and groups = numel / vec exactly. A group g is
//   owned (holds real elements) iff g < groups; slots of unowned groups hold unspecified values.
// Tiles of one shape share one layout, so elementwise ops are loops over equal slot indices.
struct tile_layout {
  bool replicated = true;
  std::int64_t numel = 1;
  int vec = 1;         // V
  int groups = 1;      // numel / V
  int per_thread = 1;  // K = ceil(groups / T)
  bool full = true;    // groups % T == 0: every group of every thread is owned (no guard needed)
  // The wgmma accumulator layout instead of the flat one (matmul kernels, matmul_sm90.hpp): a
  // (W*64*frag_mb, frag_n) tile over W warpgroups, group k (vec 2) of thread t holding row
  // (t/128)*64*frag_mb + (k/(n/4))*64 + (t%128/32)*16 + (t%32)/4 + 8*(k%2), columns
  // ((k%(n/4))/2)*8 + (t%4)*2 + {0, 1}. Every group is owned.
  bool fragment = false;
  int frag_mb = 0, frag_n = 0;
  int slots() const { return per_thread * vec; }
};

struct kernel_layout {
  int threads = 32;                                   // T = blockDim.x (the tile threads)
  std::map<std::vector<std::int64_t>, int> vec_of;    // V of each distributed shape (by layout_key)
  std::vector<std::int64_t> fragment_shape;           // the shape held in the wgmma layout, if any
  int frag_mb = 0;                                    // m64 blocks per warpgroup of that shape
  tile_layout of(const ir::type& t) const;            // t must be a tile type
};

// A shape without its leading unit axes: shapes with one key share one layout (the same row-major order).
std::vector<std::int64_t> layout_key(const std::vector<std::int64_t>& shape);

// The largest number of elements a distributed tile may have (register slots per thread * 1024).
constexpr std::int64_t max_slots = 256;

// Chooses V per shape (from the element sizes of the loads and stores of that shape: 16 bytes per
// group, halved until it divides the last extent) and T from the largest tile:
// T = clamp(round_up(ceil(numel / (4 V)), 32), 32, 1024), i.e. about four groups per thread.
// long_bodies_fewer_groups: see options (cuda.hpp); else every thread owns four vector groups of each tile.
kernel_layout plan_layout(const ir::function& f, bool long_bodies_fewer_groups = false);

}  // namespace tegula::codegen
