// The array VM's instruction set: every elementwise op of ops.def at every dtype signature it takes, numbered in
// one order that the VM's CUDA source (vm_source.hpp) and its programs (vm_program.hpp) share.
//
// The VM is one precompiled kernel that evaluates the post-pass IR of an array kernel's per-element body, so the
// first run of an expression needs no NVRTC compile (issue #26): its fused kernel compiles in the background.
#pragma once
#include <cstdint>
#include <vector>

#include "tegula/ir/ir.hpp"

namespace tegula::codegen::vm {

// op applied to operands of dtypes in[0..arity) giving dtype out.
struct signature {
  ir::op_kind op = ir::op_kind::add;
  std::uint8_t arity = 1;
  ir::dtype in[3] = {ir::dtype::b1, ir::dtype::b1, ir::dtype::b1};
  ir::dtype out = ir::dtype::b1;
};

// The dtypes VM registers hold: the array engine's real dtypes (complex arrays reach the IR as their parts).
const std::vector<ir::dtype>& register_dtypes();

// Every signature, in opcode order (index = opcode). Built from ops.def's traits (category, operand dtypes,
// result), so a new elementwise op joins the VM by its line there.
const std::vector<signature>& opcodes();

// The opcode of op at these operand dtypes and result, or -1 when the VM has none.
int opcode_of(ir::op_kind op, const ir::dtype* in, int arity, ir::dtype out);

// The reductions a VM reduce kernel combines with: reduce_sum, reduce_prod, reduce_max, reduce_min, each at every
// register dtype; the combine code of (op, dtype), or -1.
int combine_code_of(ir::op_kind reduction, ir::dtype t);
int combine_code_count();

// A hash of the tables above (and of the VM's instruction and parameter layout version): a prebuilt VM image
// records it, and one built from another table is not used.
std::uint64_t table_hash();

}  // namespace tegula::codegen::vm
