// Matrix products through cuBLASLt (dlopen'd at first use): row-major operands, batches, fused
// epilogues (bias, relu, gelu and their auxiliary-output forms), plans cached per problem shape.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tegula/ir/dtype.hpp"
#include "tegula/runtime/fwd.hpp"

namespace tegula::libs {

enum class epilogue { none, relu, bias, relu_bias, gelu, gelu_bias, relu_aux, relu_aux_bias, gelu_aux, gelu_aux_bias };
std::string epilogue_name(epilogue e);
epilogue epilogue_from_name(const std::string& s);  // invalid_argument listing the names

// An epilogue's parts: the activation applied last, whether it adds a bias (n values of the output's dtype) and
// whether it also writes the value before the activation (aux, for the backward pass).
enum class activation { none, relu, gelu };
activation epilogue_activation(epilogue e);
bool epilogue_has_bias(epilogue e);
bool epilogue_has_aux(epilogue e);
// The epilogue of these parts; invalid_argument for aux without an activation (cuBLASLt has no such epilogue).
epilogue epilogue_of(activation act, bool bias, bool aux);

// D (m, n) = alpha * op(A) @ op(B) + beta * C, every matrix row-major with a row stride (elements)
// and, for batches, a batch stride (elements; 0 repeats the matrix). trans_a: A's buffer holds the
// (k, m) matrix whose transpose is the operand (a transposed NumPy view); likewise trans_b.
struct matmul_problem {
  ir::dtype in = ir::dtype::bf16;   // A and B
  ir::dtype out = ir::dtype::bf16;  // C and D
  bool tf32 = false;                // float32: may use TF32 tensor cores
  std::int64_t m = 0, n = 0, k = 0, batch = 1;
  bool trans_a = false, trans_b = false;
  std::int64_t lda = 0, ldb = 0, ldc = 0, ldd = 0;
  std::int64_t stride_a = 0, stride_b = 0, stride_c = 0, stride_d = 0;
  epilogue ep = epilogue::none;
  double alpha = 1.0, beta = 0.0;
  std::uintptr_t a = 0, b = 0, c = 0, d = 0;  // c may be 0 when beta == 0
  std::uintptr_t bias = 0;                    // n values of `out`'s dtype (bias epilogues)
  std::uintptr_t aux = 0;                     // aux epilogues: (m, n) of `out`'s dtype, row stride ldd
  int sm_count = 0;  // > 0: cuBLASLt plans for this many multiprocessors (the rest left to other work); 0: all
};

// Runs the product on `s` (plans and a workspace are cached per device). Throws invalid_argument for
// shapes or dtypes cuBLASLt does not take, driver_missing when cuBLASLt cannot be loaded.
void matmul(rt::device& dev, const rt::stream& s, const matmul_problem& p);

// How autotune finds its candidates. heuristic: the heuristic's first `candidates` algorithms. wide: every
// configuration cuBLASLt accepts of the algorithms the heuristic proposes (each tile, stage count, cluster shape,
// CTA swizzling and custom option; at most max_configs), each timed once, the fastest `candidates` of them then
// timed as the heuristic's are.
enum class tune_search { heuristic, wide };
tune_search tune_search_from_name(const std::string& s);  // invalid_argument unless 'heuristic' or 'wide'

struct tuned_algo {
  int rank = 0;            // its place in the search (0: the heuristic's first choice)
  double ms = -1;          // median ms per run in the round robin (or the screen's best of two); -1: not timed
  double ratio = -1;       // ms against the heuristic's first timed alongside it (-1: not timed)
  std::string config;      // cuBLASLt's algorithm id and config attributes
  bool kept = false;       // the one later calls of this shape use
  bool round_robin = false;  // timed in the round robin (every heuristic candidate; wide: the finalists)
};

// Times candidates on p's own operands (D is overwritten), `repeats` rounds in which each runs once on its own,
// and keeps the fastest for p's shape: later matmul calls of that shape use it. The heuristic's first choice stays
// unless another is at least 3% faster.
std::vector<tuned_algo> autotune(rt::device& dev, const rt::stream& s, const matmul_problem& p, int candidates = 8,
                                 int repeats = 5, tune_search search = tune_search::heuristic, int max_configs = 1000);

// The loaded library and its version ("" until first use).
std::string cublaslt_info();

}  // namespace tegula::libs
