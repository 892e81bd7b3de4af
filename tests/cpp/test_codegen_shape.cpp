// Tests of codegen for shape ops and scans: permute, broadcast, reshape, cumsum, cumprod, scan.
#include <gtest/gtest.h>

#include "codegen_test_kernels.hpp"
#include "tegula/codegen/cuda.hpp"

namespace tegula::codegen::test {
namespace {

TEST(CodegenShape, Permute64x48GoesThroughSharedMemory) {
  TEGULA_REQUIRE_NVRTC();
  ir::function f = transpose(64, 48);
  kernel_source ks = generate(f, dense(f));
  EXPECT_TRUE(contains(ks.source, "__syncthreads();"));
  EXPECT_TRUE(contains(ks.source, "unsigned char tg_smem[12288];"));  // 64*48 floats
  EXPECT_TRUE(contains(ks.source, "sm_[0 + c0 * 1 + c1 * 48]"));
  expect_compiles(ks);
}

TEST(CodegenShape, BroadcastReshapeExpandDims) {
  TEGULA_REQUIRE_NVRTC();
  kernel k("shapes");
  value_id x = k.array("x", dtype::f64, 2), out = k.array("out", dtype::f64, 3);
  value_id z = k.i32(0);
  value_id col = k.load(x, {z, z}, {7, 1});
  value_id b = k.broadcast(col, {3, 7, 5});  // general broadcast: shared memory
  value_id r = k.op1(op_kind::reshape, {k.load(x, {z, z}, {5, 21})}, tile(dtype::f64, {3, 7, 5}), {{"shape", shape{3, 7, 5}}});
  value_id e = k.op1(op_kind::expand_dims, {k.load(x, {z, z}, {7, 5})}, tile(dtype::f64, {1, 7, 5}), {{"axis", std::int64_t(0)}});
  value_id s = k.ew(op_kind::add, {k.ew(op_kind::add, {b, r}), k.broadcast(e, {3, 7, 5})});
  k.store(out, {z, z, z}, s);
  const ir::function& f = k.finish();
  kernel_source ks = generate(f, dense(f));
  expect_compiles(ks);
}

TEST(CodegenShape, Cumsum) {
  TEGULA_REQUIRE_NVRTC();
  kernel k("cumsum");
  value_id x = k.array("x", dtype::i32, 1), out = k.array("out", dtype::i64, 1);
  value_id y = k.array("y", dtype::f32, 2), yout = k.array("yout", dtype::f32, 2);
  value_id i = k.bid(), z = k.i32(0);
  value_id v = k.load(x, {i}, {4096});
  value_id c = k.op1(op_kind::cumsum, {v}, tile(dtype::i64, {4096}), {{"axis", std::int64_t(0)}, {"reverse", std::int64_t(0)}});
  k.store(out, {i}, c);
  value_id w = k.load(y, {i, z}, {8, 100});
  value_id cp = k.op1(op_kind::cumprod, {w}, tile(dtype::f32, {8, 100}), {{"axis", std::int64_t(1)}, {"reverse", std::int64_t(1)}});
  value_id cs = k.op1(op_kind::cumsum, {w}, tile(dtype::f32, {8, 100}), {{"axis", std::int64_t(0)}, {"reverse", std::int64_t(0)}});
  k.store(yout, {i, z}, k.ew(op_kind::add, {cp, cs}));
  const ir::function& f = k.finish();
  kernel_source ks = generate(f, dense(f));
  EXPECT_TRUE(contains(ks.source, "phase 1: 1 line(s) of 4096 in 64 chunk(s) of 64"));
  EXPECT_TRUE(contains(ks.source, "phase 2"));
  EXPECT_TRUE(contains(ks.source, "(99 - j_)"));  // reverse
  expect_compiles(ks);
}

TEST(CodegenShape, CustomScan) {
  TEGULA_REQUIRE_NVRTC();
  kernel k("running_max");
  value_id x = k.array("x", dtype::f16, 1), out = k.array("out", dtype::f16, 1);
  value_id i = k.bid();
  value_id v = k.load(x, {i}, {1000});
  value_id id = k.constant(-1.0 / 0.0, tile(dtype::f16));
  value_id r = k.combine_op(op_kind::scan, v, id, tile(dtype::f16, {1000}), {{"axis", std::int64_t(0)}, {"reverse", std::int64_t(0)}},
                            [&](value_id a, value_id b) { return k.ew(op_kind::maximum, {a, b}); });
  k.store(out, {i}, r);
  const ir::function& f = k.finish();
  kernel_source ks = generate(f, dense(f));
  EXPECT_TRUE(contains(ks.source, "auto combine_"));
  expect_compiles(ks);
}

}  // namespace
}  // namespace tegula::codegen::test
