// The CUDA C++ source of the array VM (vm_opcodes.hpp): two kernels, tg_vm_map (an elementwise body over a 2-D or
// batched space, its results stored per element) and tg_vm_reduce (a body's value combined along each row, or part
// of a row), that execute a program (vm_program.hpp) passed in their parameter block. Each opcode's case is the
// expression the code generator emits for that op (scalar_expr), so the VM computes what a fused kernel computes.
#pragma once
#include <string>

namespace tegula::codegen::vm {

// The limits of one program (the parameter block has room for this many of each).
constexpr int max_code = 200;    // instructions
constexpr int max_leaves = 24;   // arrays read (a complex array: two, its parts)
constexpr int max_outs = 4;      // arrays written (the root and sibling outputs; complex: two each)
constexpr int max_pool = 48;     // scalar parameters and constants
constexpr int max_regs = 48;     // value slots
constexpr int block_threads = 256;

// The whole translation unit for `arch` (NVRTC, no includes): preamble, types, both kernels, and the table hash as
// the global `tg_vm_table_hash`.
std::string source(int arch);

}  // namespace tegula::codegen::vm
