// Recognising a tile kernel whose main loop is a matrix product that Hopper's tensor cores can run
// (wgmma fed by the bulk tensor copy engine), and the shape of the kernel that runs it.
#pragma once
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "tegula/codegen/cuda.hpp"
#include "tegula/ir/ir.hpp"

namespace tegula::codegen {

// One operand of the product as the copy engine brings it into shared memory: boxes of
// `box_rows` rows x 128 bytes (the swizzle span), 128-byte swizzled, `boxes` of them per stage.
struct mma_operand {
  ir::value_id array = -1;     // the kernel's array parameter
  const ir::op* load = nullptr;
  bool k_major = true;         // rows of shared memory run along K (A always; B loaded as (BN, BK))
  int box_cols = 0;            // elements per 128-byte row
  int box_rows = 0;
  int boxes = 0;
  std::int64_t bytes = 0;      // per stage
};

// The recognised kernel: the body is `pre-ops; acc = for (...) { scalar index ops; a = load(A);
// b = load(B) [or permute(load(B))]; yield mma(a, b, acc) }; post-ops`. A producer warpgroup runs
// the scalar slice that places the loads and issues them; `consumers` warpgroups run everything
// else, holding the (BM, BN) tiles in the wgmma accumulator layout.
struct matmul_plan {
  const ir::op* loop = nullptr;
  const ir::op* mma = nullptr;
  int bm = 0, bn = 0, bk = 0;
  ir::dtype in = ir::dtype::bf16;  // bf16, f16, float8 (e4m3, e5m2), or f32 read as TF32
  int kstep = 16;                  // K per wgmma instruction
  int consumers = 1;               // warpgroups holding the accumulator
  int mb = 1;                      // m64 blocks per consumer warpgroup
  int teams = 1;                   // 2: two sets of `consumers` warpgroups take alternate tiles (ping-pong),
                                   // one's epilogue overlapping the other's products
  mma_operand a, b;
  bool pair = false;               // launched in clusters of two blocks that share equal A or B tiles
  std::set<const ir::op*> producer_ops;  // the scalar slice (pre-ops and loop-body ops), in IR order when walked
  std::int64_t stage_bytes() const { return a.bytes + b.bytes; }
};

// The plan when `f` has that shape and `o` allows it (arch 90, TMA-able arrays, supported
// dtypes and tile sizes); otherwise nullopt and, when the function holds an mma, `why_not` says
// what kept it off the tensor cores.
std::optional<matmul_plan> plan_matmul(const ir::function& f, const options& o, std::string& why_not);

}  // namespace tegula::codegen
