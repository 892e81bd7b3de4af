// Matrix products of engine arrays with a fused epilogue, D = act(alpha * a @ b + beta * c + bias) (and the
// pre-activation as aux), in one cuBLASLt call: the problem checked before memory is touched, operands handed over
// where they lie (matmul_arrays.hpp), a plan kept for repeated runs; on the CPU the host reference (host_gemm.hpp).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tegula/array/expr.hpp"
#include "tegula/libs/cublaslt.hpp"
#include "tegula/libs/matmul_arrays.hpp"

namespace tegula::libs {

// What follows the product, in cuBLASLt's order: scale, + beta * c, + bias, the activation. The array engine builds
// one from the elementwise consumers of a product it absorbs (a scale, an added array, relu, gelu); tegula.math from
// its arguments (epilogue_named).
struct gemm_epilogue {
  double alpha = 1.0, beta = 0.0;
  array::node_ptr c;     // optional: broadcasts to the result's shape; read only when beta != 0
  array::node_ptr bias;  // optional: shape (n,), added to every row
  activation act = activation::none;
  bool aux = false;  // also return the value before the activation (needs act relu or gelu)
};

// The epilogue that cuBLASLt's name ('none', 'relu_bias', 'gelu_aux', ...) describes, over `bias` (null: none).
// invalid_argument for an unknown name, and for a bias the name does not ask for or a missing one it does.
gemm_epilogue epilogue_named(const std::string& name, array::node_ptr bias);

struct gemm_options {
  bool tf32 = false;  // float32: cuBLASLt may use TF32 tensor cores
  int sm_count = 0;   // > 0: cuBLASLt plans for this many multiprocessors; 0: all
  // The result's dtype: float8 products give bfloat16 (the default), float16 or float32; the others give their
  // operands' dtype (an other one is a TypeError).
  std::optional<ir::dtype> out;
};

struct gemm_result {
  array::node_ptr d;    // batch + (m, n)
  array::node_ptr aux;  // the pre-activation (gemm_epilogue::aux), else null
};

// One product, checked once, for repeated runs on the operands' current values (bench loops, tegula.math.Matmul).
// a: batch_a + (m, k), b: batch_b + (k, n) of one dtype (float16, bfloat16, float32, float64), the batch broadcast;
// or float8 (e4m3fn, e5m2) matrices as cuBLASLt takes them: a row-major (m, k), b the transpose of a row-major (n, k)
// array, no c, no aux. c and bias of another real dtype are cast to the result's (as assigning them into it would).
// The constructor checks shapes, dtypes, devices, the bias and c and raises (invalid_argument, type_error) before
// any memory is touched; nothing is materialised until run().
class fused_gemm_plan {
 public:
  fused_gemm_plan(array::node_ptr a, array::node_ptr b, gemm_epilogue e, gemm_options o = {});

  // Materialises the inputs, hands them to cuBLASLt (the CPU: the host reference) and returns new result arrays.
  // Operands passed where they lie are remembered, so a repeat run only allocates the results and calls the
  // library; copies (a layout cuBLASLt cannot read, a cast c or bias) are made again on every run.
  gemm_result run();

  // Times cuBLASLt's candidate algorithms on these operands (cublaslt.hpp: autotune) and keeps the fastest for this
  // problem's shape, so later runs use it. The CPU: nothing to tune ({}). invalid_argument unless candidates,
  // repeats and max_configs are >= 1.
  std::vector<tuned_algo> autotune(int candidates, int repeats, tune_search search, int max_configs);

  const array::dims& batch() const { return batch_; }
  const array::dims& shape() const { return shape_; }  // batch + (m, n)
  ir::dtype result_dtype() const { return out_; }
  bool on_cuda() const;

 private:
  struct prepared {
    matmul_problem p;                   // the call, every address set
    gemm_result r;                      // d and aux as returned: (.., m, n) views of the padded results
    std::vector<array::node_ptr> keep;  // this run's copies, alive until the call is enqueued
  };
  prepared prepare();
  array::node_ptr new_result() const;

  array::node_ptr a_, b_;
  gemm_epilogue e_;
  gemm_options o_;
  ir::dtype in_ = ir::dtype::f32, out_ = ir::dtype::f32;
  bool float8_ = false;
  array::dims batch_, shape_;
  std::int64_t m_ = 0, n_ = 0, k_ = 0, count_ = 1, ldd_ = 0;
  matmul_problem base_;  // everything but the addresses and operand layouts
  // Operands found passable where they lie on the first run (their layouts do not change: a leaf stays a leaf).
  std::optional<gemm_operand> a_op_, b_op_, c_op_;
};

// fused_gemm_plan(a, b, e, o).run(): the entry the array engine calls for a product whose consumers it absorbed.
gemm_result fused_gemm(const array::node_ptr& a, const array::node_ptr& b, const gemm_epilogue& e,
                       const gemm_options& o = {});

}  // namespace tegula::libs
