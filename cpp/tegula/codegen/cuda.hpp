// CUDA C++ code generation from post-pass tile IR: pure text, no CUDA calls (DESIGN.md rule 3).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "tegula/ir/ir.hpp"

namespace tegula::codegen {

// What the launcher knows about each array argument at specialization time (part of the cache key).
struct array_spec {
  bool last_dim_contiguous = true;  // stride of the last axis == 1
  bool aligned_16 = true;           // base pointer 16-byte aligned (allows 16-byte vector access)
};

struct options {
  int arch = 90;                       // compute capability major*10+minor
  std::vector<array_spec> arrays;      // one per array parameter, in parameter order
  int stages = 0;                      // tensor-core kernels: pipeline stages (0: as many as fit, up to 6)
  int cluster = 1;                     // tensor-core kernels: blocks per cluster, 1 or 2 (pairs share operand
                                       // tiles through multicast copies; matmul_sm90.cpp)
  bool long_bodies_fewer_groups = false;  // a long body gives each thread fewer vector groups (layout.cpp:
                                          // groups_per_thread); the array engine's kernels, not hand-tuned tiles
};

// A CUtensorMap the launcher encodes for a 2-D array parameter: 128-byte swizzled boxes of
// `box_rows` rows x `box_cols` elements, out-of-bounds elements read as zero.
struct tensor_map_spec {
  int array = 0;  // index among the kernel's array parameters
  ir::dtype elem = ir::dtype::bf16;
  int box_cols = 0, box_rows = 0;
};

// The kernel ABI, in parameter order: for each IR param,
//   array of rank r: T* data, then r x int64 shape, then r x int64 strides (elements);
//   scalar of dtype d: one parameter of d's C type (bool as unsigned char);
// then, for tensor-core kernels, one 128-byte CUtensorMap per entry of tensor_maps (by value) and
// the grid the user launched as three ints; such a kernel is persistent: launch it with
// min(total blocks, SMs) blocks in x and it walks the user's grid.
struct kernel_source {
  std::string name;      // extern "C" kernel name
  std::string source;    // complete CUDA C++ translation unit (no includes needed unless fp16/bf16)
  int block_threads = 0; // blockDim.x the kernel must be launched with
  int dynamic_shared_bytes = 0;  // dynamic shared memory per block to request at launch
  bool arch_specific = false;    // compile for sm_XXa (wgmma, setmaxnreg)
  bool persistent = false;       // the grid ABI above
  int stages = 0;                // pipeline stages of a tensor-core kernel
  int cluster = 1;               // blocks per cluster to launch with (the persistent grid a multiple of it)
  std::vector<tensor_map_spec> tensor_maps;
  std::string note;              // why an mma stayed off the tensor cores (empty when it did not)
};

// Throws tegula::error(invalid_argument) with the op's location for IR it cannot lower.
kernel_source generate(const ir::function& f, const options& o);

}  // namespace tegula::codegen
