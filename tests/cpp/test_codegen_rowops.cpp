// Tests of codegen for one-pass row ops (softmax, layernorm): rows in registers, block reductions.
#include <gtest/gtest.h>

#include "codegen_test_kernels.hpp"
#include "tegula/codegen/cuda.hpp"

namespace tegula::codegen::test {
namespace {

TEST(CodegenRowOps, SoftmaxNonPowerOfTwoRowUsesShufflesAndFreeBroadcasts) {
  TEGULA_REQUIRE_NVRTC();
  ir::function f = softmax(1000);
  kernel_source k = generate(f, dense(f));
  EXPECT_EQ(k.block_threads, 64);  // 1000 / 4 = 250 groups, ~4 per thread
  EXPECT_TRUE(contains(k.source, "__shfl_xor_sync(0xffffffffu, acc_, o_)"));
  EXPECT_TRUE(contains(k.source, "register fill"));  // broadcast of the (1, 1) max/sum
  EXPECT_TRUE(contains(k.source, "__uint_as_float(0xff800000u)"));  // -inf padding and max identity
  EXPECT_TRUE(contains(k.source, "if (g_ < 250)"));  // 250 groups over 64 threads x 4: a guard
  EXPECT_TRUE(contains(k.source, "x 16-byte vector load"));
  // Only the two cross-warp reductions touch shared memory: 2 warps x 4 bytes.
  EXPECT_TRUE(contains(k.source, "__shared__ __align__(16) unsigned char tg_smem[16];"));
  expect_compiles(k);
}

TEST(CodegenRowOps, SoftmaxWideRowsAndOddRows) {
  TEGULA_REQUIRE_NVRTC();
  for (std::int64_t c : {4096, 1, 3, 33, 32768}) {
    ir::function f = softmax(c);
    kernel_source k = generate(f, dense(f));
    SCOPED_TRACE(c);
    EXPECT_LE(k.block_threads, 1024);
    expect_compiles(k);
  }
}

TEST(CodegenRowOps, LayerNormRow) {
  TEGULA_REQUIRE_NVRTC();
  ir::function f = layernorm(768);
  kernel_source ks = generate(f, dense(f));
  EXPECT_EQ(ks.block_threads, 64);
  EXPECT_TRUE(contains(ks.source, "rsqrtf("));
  EXPECT_TRUE(contains(ks.source, "same ownership: register copy"));  // (768,) -> (1, 768)
  EXPECT_TRUE(contains(ks.source, "__shfl_xor_sync"));
  expect_compiles(ks);
}

TEST(CodegenRowOps, MultiRowTileReducesThroughSharedMemory) {
  TEGULA_REQUIRE_NVRTC();
  // (4, 100) rows per block: max along axis 1 gives (4, 1), broadcast back: the general path.
  kernel k("softmax4");
  value_id x = k.array("x", dtype::f32, 2), out = k.array("out", dtype::f32, 2);
  value_id row = k.bid(), zero = k.i32(0);
  value_id v = k.load(x, {row, zero}, {4, 100}, "neg_inf");
  value_id m = k.reduce(op_kind::reduce_max, v, 1, true, dtype::f32);
  value_id e = k.ew(op_kind::exp, {k.ew(op_kind::sub, {v, k.broadcast(m, {4, 100})})});
  value_id s = k.reduce(op_kind::reduce_sum, e, 1, false, dtype::f32);
  value_id s2 = k.op1(op_kind::expand_dims, {s}, tile(dtype::f32, {4, 1}), {{"axis", std::int64_t(1)}});
  k.store(out, {row, zero}, k.ew(op_kind::div, {e, k.broadcast(s2, {4, 100})}));
  const ir::function& f = k.finish();
  kernel_source ks = generate(f, dense(f));
  EXPECT_TRUE(contains(ks.source, "__syncthreads();"));
  EXPECT_TRUE(contains(ks.source, "for (int j_ = 0; j_ < 100; ++j_)"));
  expect_compiles(ks);
}

}  // namespace
}  // namespace tegula::codegen::test
