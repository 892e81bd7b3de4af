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
};

// The kernel ABI, in parameter order: for each IR param,
//   array of rank r: T* data, then r x int64 shape, then r x int64 strides (elements);
//   scalar of dtype d: one parameter of d's C type (bool as unsigned char).
struct kernel_source {
  std::string name;      // extern "C" kernel name
  std::string source;    // complete CUDA C++ translation unit (no includes needed unless fp16/bf16)
  int block_threads = 0; // blockDim.x the kernel must be launched with
  int dynamic_shared_bytes = 0;  // dynamic shared memory per block to request at launch
};

// Throws tegula::error(invalid_argument) with the op's location for IR it cannot lower.
kernel_source generate(const ir::function& f, const options& o);

}  // namespace tegula::codegen
