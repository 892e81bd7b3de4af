// A program of the array VM (vm_source.hpp): the post-pass IR of an array kernel's per-element body (array/emit.hpp:
// emit_body) as VM instructions, and the parameter block both VM kernels take (its layout is the CUDA source's).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tegula/codegen/vm_source.hpp"
#include "tegula/ir/ir.hpp"

namespace tegula::codegen::vm {

enum class kind : std::uint8_t {
  op = 0,     // r[dst] = opcode(r[a], r[b], r[c])
  load = 1,   // r[dst] = leaves[a] at the element
  pool = 2,   // r[dst] = pool[a] (a scalar parameter or a constant, as register bits)
  col = 3,    // r[dst] = the element's column (int64; an iota's position)
  move = 4,   // r[dst] = r[a] (a reshape or broadcast of a one-element tile)
  store = 5,  // outs[a] at the element = r[b]
  yield = 6,  // the value the reduce kernel combines: r[a]
};

struct instr {
  std::uint16_t code = 0;  // kind op: the opcode (vm_opcodes.hpp)
  std::uint8_t k = 0;      // kind
  std::uint8_t dst = 0, a = 0, b = 0, c = 0, pad = 0;
};
static_assert(sizeof(instr) == 8);

// An array as the VM reads or writes it: element (b, r, c) at addr + (b * bs + r * rs + c * cs) * itemsize.
struct view {
  std::uint64_t addr = 0;
  std::int64_t rs = 0, cs = 0, bs = 0;
  std::int32_t dtype = 0;  // ir::dtype
  std::int32_t pad = 0;
};
static_assert(sizeof(view) == 40);

struct params {
  std::int64_t B = 1, R = 1, C = 1;  // the space: batches, rows, columns
  std::int64_t chunk = 0;            // reduce: columns per part of a row
  std::int32_t n_code = 0, parts = 1, combine = -1, store_code = -1;  // reduce: parts per row, combine code, acc->out
  std::uint64_t identity = 0;        // reduce: the accumulator's start (register bits)
  view leaves[max_leaves];
  view outs[max_outs];
  std::uint64_t pool[max_pool] = {};
  instr code[max_code];
};
static_assert(sizeof(params) == 8 * 4 + 4 * 4 + 8 + 40 * (max_leaves + max_outs) + 8 * max_pool + 8 * max_code);

// A compiled body: its instructions, constants (pool entries after the scalar parameters), and what it reads.
struct program {
  std::vector<instr> code;
  std::vector<std::uint64_t> constants;  // pool[n_scalars + i]
  int n_leaves = 0;                      // leaf parameters read (x0, x1, ...)
  int n_scalars = 0;                     // scalar parameters (s0, s1, ...)
  int n_outs = 0;                        // stores (map) ; 0 for a reduce body
  bool yields = false;                   // a reduce body: its value is yielded
  ir::dtype yield_t = ir::dtype::f32;
};

// The register bits of value v as dtype t holds it in a VM slot (float16/bfloat16 rounded, held as float; ints
// wrapped to their width; bool 0/1).
std::uint64_t register_bits(ir::dtype t, double v);
std::uint64_t register_bits(ir::dtype t, std::int64_t v);

// The program of a body function (post-pass IR: parameters x<i> arrays read at (0, 0), s<i> scalars, `col`, the
// outputs out...; elementwise ops on one-element tiles; stores), or nullopt with `why` set when an op has no VM form
// or a limit is passed. `reduce`: the body's one store (to its first output) is the value the reduce kernel combines.
std::optional<program> compile_program(const ir::function& body, bool reduce, std::string* why = nullptr);
// Whether `why` (compile_program's refusal) says only that the body is too large for one program: every op has a
// VM form, so the body's parts, each materialised on its own, are programs.
bool size_refusal(const std::string& why);

// The program as text, one instruction a line ("r2 = add float32 r0, r1"), for tegula.explain and tests.
std::string describe(const program& prog);

}  // namespace tegula::codegen::vm
