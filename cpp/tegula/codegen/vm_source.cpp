// The array VM's CUDA source, generated from its opcode table and the code generator's expressions (see
// vm_source.hpp).
#include "tegula/codegen/vm_source.hpp"

#include "tegula/codegen/c_types.hpp"
#include "tegula/codegen/preamble.hpp"
#include "tegula/codegen/scalar_expr.hpp"
#include "tegula/codegen/vm_opcodes.hpp"
#include "tegula/codegen/vm_program.hpp"
#include "tegula/support/error.hpp"

namespace tegula::codegen::vm {
namespace {

using ir::dtype;
using ir::op_kind;

// The union member a register of dtype t is read and written through (reg_type's C type).
const char* member(dtype t) {
  switch (t) {
    case dtype::b1: return "b";
    case dtype::i8: return "i8";
    case dtype::i16: return "i16";
    case dtype::i32: return "i32";
    case dtype::i64: return "i64";
    case dtype::u8: return "u8";
    case dtype::u16: return "u16";
    case dtype::u32: return "u32";
    case dtype::u64: return "u64";
    case dtype::f16: case dtype::bf16: case dtype::f32: return "f";
    case dtype::f64: return "d";
    default: fail(error_kind::internal, "the array VM has no register for ", ir::name(t));
  }
}

const char* types_text = R"(typedef union { bool b; signed char i8; short i16; int i32; long long i64; unsigned char u8;
  unsigned short u16; unsigned u32; unsigned long long u64; float f; double d; } tg_slot;
struct tg_vm_instr { unsigned short code; unsigned char k, dst, a, b, c, pad; };
struct tg_vm_view { unsigned long long addr; long long rs, cs, bs; int dtype; int pad; };
)";

std::string params_text() {
  return str("struct tg_vm_params { long long B, R, C, chunk; int n_code, parts, combine, store_code;\n"
             "  unsigned long long identity; tg_vm_view leaves[", max_leaves, "]; tg_vm_view outs[", max_outs, "];\n"
             "  unsigned long long pool[", max_pool, "]; tg_vm_instr code[", max_code, "]; };\n",
             "static_assert(sizeof(tg_vm_instr) == ", sizeof(instr), " && sizeof(tg_vm_view) == ", sizeof(view),
             " && sizeof(tg_vm_params) == ", sizeof(params), ", \"the VM's parameter block differs from the host's\");\n");
}

std::string op_function() {
  std::string s = "__device__ __noinline__ void tg_vm_op(int code, tg_slot* r, const tg_vm_instr in) {\n"
                  "  const tg_slot x = r[in.a], y = r[in.b], z = r[in.c];\n  tg_slot o; o.u64 = 0ull;\n"
                  "  switch (code) {\n";
  const auto& codes = opcodes();
  const char* names[3] = {"x", "y", "z"};
  for (std::size_t i = 0; i < codes.size(); ++i) {
    const signature& sg = codes[i];
    std::vector<dtype> in(sg.in, sg.in + sg.arity);
    std::vector<std::string> args;
    for (int k = 0; k < sg.arity; ++k) args.push_back(str(names[k], ".", member(sg.in[k])));
    preamble_needs unused;
    s += str("    case ", i, ": o.", member(sg.out), " = ", scalar_expr(sg.op, in, sg.out, args, unused), "; break;\n");
  }
  s += "    default: break;\n  }\n  r[in.dst] = o;\n}\n";
  return s;
}

std::string combine_function() {
  std::string s = "__device__ __noinline__ tg_slot tg_vm_combine(int code, const tg_slot x, const tg_slot y) {\n"
                  "  tg_slot o; o.u64 = 0ull;\n  switch (code) {\n";
  const auto& regs = register_dtypes();
  for (op_kind r : {op_kind::reduce_sum, op_kind::reduce_prod, op_kind::reduce_max, op_kind::reduce_min})
    for (dtype t : regs) {
      const op_kind c = r == op_kind::reduce_sum ? op_kind::add : r == op_kind::reduce_prod ? op_kind::mul
                      : r == op_kind::reduce_max ? op_kind::maximum : op_kind::minimum;
      preamble_needs unused;
      const std::string m = member(t);
      s += str("    case ", combine_code_of(r, t), ": o.", m, " = ",
               scalar_expr(c, {t, t}, t, {"x." + m, "y." + m}, unused), "; break;\n");
    }
  s += "    default: break;\n  }\n  return o;\n}\n";
  return s;
}

std::string memory_functions() {
  std::string load = "__device__ __forceinline__ void tg_vm_load(const tg_vm_view& v, long long b, long long r, "
                     "long long c, tg_slot& s) {\n  const long long off = b * v.bs + r * v.rs + c * v.cs;\n"
                     "  switch (v.dtype) {\n";
  std::string store = "__device__ __forceinline__ void tg_vm_store(const tg_vm_view& v, long long b, long long r, "
                      "long long c, const tg_slot& s) {\n  const long long off = b * v.bs + r * v.rs + c * v.cs;\n"
                      "  switch (v.dtype) {\n";
  for (dtype t : register_dtypes()) {
    const std::string st = storage_type(t), m = member(t);
    load += str("    case ", int(t), ": s.", m, " = ", from_storage(t, str("((const ", st, "*)v.addr)[off]")),
                "; break;\n");
    store += str("    case ", int(t), ": ((", st, "*)v.addr)[off] = ", to_storage(t, "s." + m), "; break;\n");
  }
  load += "    default: break;\n  }\n}\n";
  store += "    default: break;\n  }\n}\n";
  return load + store;
}

const char* kernels_text = R"(__device__ __forceinline__ void tg_vm_run(const tg_vm_params& P, tg_slot* r, long long b, long long row,
                                          long long col, tg_slot* y) {
  for (int k = 0; k < P.n_code; ++k) {
    const tg_vm_instr in = P.code[k];
    switch (in.k) {
      case 0: tg_vm_op(in.code, r, in); break;
      case 1: tg_vm_load(P.leaves[in.a], b, row, col, r[in.dst]); break;
      case 2: r[in.dst].u64 = P.pool[in.a]; break;
      case 3: r[in.dst].i64 = col; break;
      case 4: r[in.dst] = r[in.a]; break;
      case 5: tg_vm_store(P.outs[in.a], b, row, col, r[in.b]); break;
      case 6: *y = r[in.a]; break;
      default: break;
    }
  }
}

// Each thread evaluates the program at the elements of a grid-stride walk over the space (B, R, C).
extern "C" __global__ void __launch_bounds__(TG_VM_THREADS) tg_vm_map(const __grid_constant__ tg_vm_params P) {
  const long long total = P.B * P.R * P.C;
  tg_slot r[TG_VM_REGS];
  const long long step = (long long)gridDim.x * blockDim.x;
  if (P.R == 1 && P.B == 1) {  // a flat space: the element is the column (no 64-bit divisions)
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += step)
      tg_vm_run(P, r, 0, 0, e, nullptr);
    return;
  }
  for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += step) {
    const long long col = e % P.C, t = e / P.C, row = t % P.R, b = t / P.R;
    tg_vm_run(P, r, b, row, col, nullptr);
  }
}

// One block per part of a row (P.parts parts of P.chunk columns): each thread combines the program's yielded values
// at its columns, the block combines the threads', and the result (converted by store_code) is stored at (b, row,
// part) of outs[0].
extern "C" __global__ void __launch_bounds__(TG_VM_THREADS) tg_vm_reduce(const __grid_constant__ tg_vm_params P) {
  const long long rowid = blockIdx.x / P.parts, part = blockIdx.x % P.parts;
  const long long row = rowid % P.R, b = rowid / P.R;
  const long long c0 = part * P.chunk;
  const long long c1 = c0 + P.chunk < P.C ? c0 + P.chunk : P.C;
  tg_slot r[TG_VM_REGS];
  tg_slot acc; acc.u64 = P.identity;
  for (long long col = c0 + threadIdx.x; col < c1; col += blockDim.x) {
    tg_slot y; y.u64 = 0ull;
    tg_vm_run(P, r, b, row, col, &y);
    acc = tg_vm_combine(P.combine, acc, y);
  }
  __shared__ tg_slot sh[TG_VM_THREADS];
  sh[threadIdx.x] = acc;
  __syncthreads();
  for (int s = TG_VM_THREADS / 2; s > 0; s >>= 1) {
    if (threadIdx.x < s) sh[threadIdx.x] = tg_vm_combine(P.combine, sh[threadIdx.x], sh[threadIdx.x + s]);
    __syncthreads();
  }
  if (threadIdx.x == 0) {
    tg_slot v[2];
    v[0] = sh[0];
    if (P.store_code >= 0) {
      tg_vm_instr in; in.code = 0; in.k = 0; in.dst = 1; in.a = 0; in.b = 0; in.c = 0; in.pad = 0;
      tg_vm_op(P.store_code, v, in);
      v[0] = v[1];
    }
    tg_vm_store(P.outs[0], b, row, part, v[0]);
  }
}
)";

}  // namespace

std::string source(int arch) {
  preamble_needs all;
  all.f16 = all.bf16 = all.narrow_from_double = all.int_arith = all.float_arith = true;
  std::string s = preamble(all, arch);
  s += str("#define TG_VM_THREADS ", block_threads, "\n#define TG_VM_REGS ", max_regs, "\n");
  s += types_text;
  s += params_text();
  s += str("extern \"C\" __device__ const unsigned long long tg_vm_table_hash = ", table_hash(), "ull;\n");
  s += memory_functions();
  s += op_function();
  s += combine_function();
  s += kernels_text;
  return s;
}

}  // namespace tegula::codegen::vm
