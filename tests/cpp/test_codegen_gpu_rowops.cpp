// GPU tests of generated kernels against the interpreter: elementwise, row ops, persistent sum.
#include <gtest/gtest.h>

#include "codegen_gpu_util.hpp"
#include "codegen_test_kernels.hpp"

namespace tegula::codegen::test {
namespace {

TEST(CodegenGpu, VectorAddPartialTilesViewsAndStrides) {
  TEGULA_REQUIRE_GPU();
  std::mt19937 rng(1);
  ir::function f = vector_add(256);
  for (int variant = 0; variant < 3; ++variant) {
    SCOPED_TRACE(variant);
    // 0: dense; 1: x starts one element into its allocation (not 16-byte aligned); 2: y has stride 3.
    host_array x = random_array(dtype::f32, {1000}, rng, -5, 5, {}, variant == 1 ? 1 : 0);
    host_array y = random_array(dtype::f32, {1000}, rng, -5, 5, variant == 2 ? shape{3} : shape{});
    host_array out = random_array(dtype::f32, {1000}, rng, -5, 5);
    options o = dense(f);
    if (variant == 1) o.arrays[0].aligned_16 = false;
    if (variant == 2) o.arrays[1].last_dim_contiguous = false;
    expect_gpu_matches_interpreter(f, {&x, &y, &out}, {4, 1, 1}, o);
  }
}

TEST(CodegenGpu, ChainF32AndF16) {
  TEGULA_REQUIRE_GPU();
  std::mt19937 rng(2);
  for (dtype d : {dtype::f32, dtype::f16, dtype::bf16, dtype::f64}) {
    SCOPED_TRACE(ir::name(d));
    ir::function f = chain(4096, d);
    const std::int64_t n = 4096 * 3 + 100;
    host_array x = random_array(d, {n}, rng, -3, 3), y = random_array(d, {n}, rng, -3, 3);
    host_array out = random_array(d, {n}, rng, 0, 1);
    tolerance t;
    if (d == dtype::f32) t = {1e-5, 1e-6};
    expect_gpu_matches_interpreter(f, {&x, &y, &out}, {4, 1, 1}, dense(f), t);
  }
}

TEST(CodegenGpu, SoftmaxRows) {
  TEGULA_REQUIRE_GPU();
  std::mt19937 rng(3);
  struct tcase {
    std::int64_t tile_c, array_c, rows;
  };
  for (tcase c : {tcase{1000, 1000, 37}, tcase{1000, 997, 5}, tcase{4096, 4096, 9}, tcase{3, 3, 4}, tcase{1, 1, 3},
                  tcase{8192, 5000, 2}}) {
    SCOPED_TRACE(c.tile_c);
    ir::function f = softmax(c.tile_c);
    host_array x = random_array(dtype::f32, {c.rows, c.array_c}, rng, -10, 10);
    host_array out = random_array(dtype::f32, {c.rows, c.array_c}, rng, 0, 1);
    expect_gpu_matches_interpreter(f, {&x, &out}, {c.rows, 1, 1}, dense(f), {1e-5, 1e-7});
  }
}

TEST(CodegenGpu, LayerNormRows) {
  TEGULA_REQUIRE_GPU();
  std::mt19937 rng(4);
  ir::function f = layernorm(768);
  host_array x = random_array(dtype::f32, {20, 768}, rng, -4, 4), w = random_array(dtype::f32, {768}, rng, -2, 2);
  host_array b = random_array(dtype::f32, {768}, rng, -1, 1), out = random_array(dtype::f32, {20, 768}, rng, 0, 1);
  expect_gpu_matches_interpreter(f, {&x, &w, &b, &out, interp::scalar_arg{1e-5}}, {20, 1, 1}, dense(f), {1e-4, 1e-5});
}

TEST(CodegenGpu, PersistentSum) {
  TEGULA_REQUIRE_GPU();
  std::mt19937 rng(5);
  ir::function f = persistent_sum(2048);
  host_array x = random_array(dtype::f32, {100003}, rng, -1, 1);
  host_array out = random_array(dtype::f32, {1}, rng, 0, 0);
  expect_gpu_matches_interpreter(f, {&x, &out}, {7, 1, 1}, dense(f), {1e-4, 1e-3});
}

TEST(CodegenGpu, TransposeTiles) {
  TEGULA_REQUIRE_GPU();
  std::mt19937 rng(6);
  for (dtype d : {dtype::f32, dtype::u8, dtype::f64}) {
    ir::function f = transpose(64, 48, d);
    host_array x = random_array(d, {130, 100}, rng, 0, 100), out = random_array(d, {100, 130}, rng, 0, 100);
    expect_gpu_matches_interpreter(f, {&x, &out}, {3, 3, 1}, dense(f));
  }
}

TEST(CodegenGpu, GatherScatterMasked) {
  TEGULA_REQUIRE_GPU();
  std::mt19937 rng(7);
  ir::function f = gather_scatter();
  host_array x = random_array(dtype::f32, {1500}, rng, -1, 1), y = random_array(dtype::f32, {1500}, rng, -1, 1);
  expect_gpu_matches_interpreter(f, {&x, &y, interp::scalar_arg{std::int64_t(1400)}}, {3, 1, 1}, dense(f));
}

}  // namespace
}  // namespace tegula::codegen::test
