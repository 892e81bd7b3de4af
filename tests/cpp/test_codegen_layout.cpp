// Tests of codegen/layout (threads per block, vector widths) and of codegen's error messages.
#include <gtest/gtest.h>

#include "codegen_test_util.hpp"
#include "tegula/codegen/cuda.hpp"
#include "tegula/codegen/layout.hpp"
#include "tegula/support/error.hpp"

namespace tegula::codegen::test {
namespace {

ir::function copy_kernel(dtype d, shape s) {
  kernel k("copy");
  value_id x = k.array("x", d, int(s.size())), y = k.array("y", d, int(s.size()));
  std::vector<value_id> idx;
  for (std::size_t i = 0; i < s.size(); ++i) idx.push_back(k.i32(0));
  k.store(y, idx, k.load(x, idx, s));
  return k.finish();
}

TEST(CodegenLayout, VectorWidthFromElementSizeAndLastExtent) {
  struct tcase {
    dtype d;
    shape s;
    int vec, threads, per_thread;
    bool full;
  };
  const tcase cases[] = {
      {dtype::f32, {4096}, 4, 256, 4, true},   {dtype::f32, {1, 1000}, 4, 64, 4, false},
      {dtype::f16, {8192}, 8, 256, 4, true},   {dtype::f64, {7, 6}, 2, 32, 1, false},
      {dtype::f32, {1001}, 1, 256, 4, false},  {dtype::u8, {64, 48}, 16, 64, 3, true},
      {dtype::f32, {65536}, 4, 1024, 16, true}, {dtype::f32, {3}, 1, 32, 1, false},
  };
  for (const tcase& c : cases) {
    ir::function f = copy_kernel(c.d, c.s);
    kernel_layout k = plan_layout(f);
    tile_layout l = k.of(tile(c.d, c.s));
    SCOPED_TRACE(ir::to_string(tile(c.d, c.s)));
    EXPECT_FALSE(l.replicated);
    EXPECT_EQ(l.vec, c.vec);
    EXPECT_EQ(k.threads, c.threads);
    EXPECT_EQ(l.per_thread, c.per_thread);
    EXPECT_EQ(l.full, c.full);
    EXPECT_EQ(l.groups * l.vec, l.numel);
  }
  kernel_layout k = plan_layout(copy_kernel(dtype::f32, {1, 1}));
  EXPECT_TRUE(k.of(tile(dtype::f32, {1, 1})).replicated);
  EXPECT_TRUE(k.of(tile(dtype::f32)).replicated);
}

// A chain of n element-wise ops on a 4096-element float32 tile.
ir::function chain_kernel(int n) {
  kernel k("chain");
  value_id x = k.array("x", dtype::f32, 1), y = k.array("y", dtype::f32, 1);
  value_id z = k.i32(0);
  value_id v = k.load(x, {z}, {4096});
  for (int i = 0; i < n; ++i) v = k.op1(op_kind::add, {v, v}, tile(dtype::f32, {4096}));
  k.store(y, {z}, v);
  return k.finish();
}

TEST(CodegenLayout, LongBodiesGiveThreadsFewerGroupsWhenAsked) {
  // Hand-tuned tile kernels keep four vector groups per thread whatever their length.
  EXPECT_EQ(plan_layout(chain_kernel(60)).threads, 256);
  EXPECT_EQ(plan_layout(chain_kernel(60), false).of(tile(dtype::f32, {4096})).per_thread, 4);
  // The array engine's: four up to 24 tile values, two up to 40, one past that.
  EXPECT_EQ(plan_layout(chain_kernel(10), true).threads, 256);
  EXPECT_EQ(plan_layout(chain_kernel(30), true).threads, 512);
  kernel_layout l = plan_layout(chain_kernel(60), true);
  EXPECT_EQ(l.threads, 1024);
  EXPECT_EQ(l.of(tile(dtype::f32, {4096})).per_thread, 1);
}

TEST(CodegenLayout, OneShapeOneLayoutAcrossDtypes) {
  kernel k("mixed");
  value_id x = k.array("x", dtype::f16, 1), y = k.array("y", dtype::f32, 1);
  value_id z = k.i32(0);
  value_id v = k.load(x, {z}, {512});
  k.store(y, {z}, k.op1(op_kind::astype, {v}, tile(dtype::f32, {512}), {{"dtype", dtype::f32}}));
  kernel_layout l = plan_layout(k.finish());
  EXPECT_EQ(l.of(tile(dtype::f16, {512})).vec, 8);
  EXPECT_EQ(l.of(tile(dtype::f32, {512})).vec, 8);  // stores of the f32 tile: 2 x 16 bytes per group
}

TEST(CodegenLayout, FloatTileWithWideGroupsStoresInTwoChunks) {
  TEGULA_REQUIRE_NVRTC();
  kernel k("widen");
  value_id x = k.array("x", dtype::f16, 1), y = k.array("y", dtype::f32, 1);
  value_id z = k.i32(0);
  value_id v = k.load(x, {z}, {512});
  k.store(y, {z}, k.op1(op_kind::astype, {v}, tile(dtype::f32, {512}), {{"dtype", dtype::f32}}));
  const ir::function& f = k.finish();
  kernel_source ks = generate(f, dense(f));
  EXPECT_TRUE(contains(ks.source, "2 x 16-byte vector store"));
  expect_compiles(ks);
}

TEST(CodegenErrors, UnsupportedConstructsNameTheOpAndLocation) {
  {
    kernel k("big");
    value_id x = k.array("x", dtype::f32, 1);
    value_id z = k.i32(0);
    value_id v = k.load(x, {z}, {1 << 22});
    k.store(x, {z}, v);
    const ir::function& f = k.finish();
    try {
      generate(f, dense(f));
      FAIL() << "expected an error";
    } catch (const tegula::error& e) {
      EXPECT_EQ(e.kind(), error_kind::invalid_argument);
      EXPECT_NE(std::string(e.what()).find("test.py:2:1"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("'load'"), std::string::npos) << e.what();
    }
  }
  {
    kernel k("tile_param");
    k.param("t", tile(dtype::f32, {4}));
    const ir::function& f = k.finish();
    EXPECT_THROW(generate(f, {}), tegula::error);
  }
  {
    kernel k("bad_options");
    k.array("x", dtype::f32, 1);
    const ir::function& f = k.finish();
    options o;
    o.arrays.resize(2);
    EXPECT_THROW(generate(f, o), tegula::error);
  }
  {
    // A permute whose shared-memory buffer would exceed what a block can have.
    kernel k("huge_permute");
    value_id x = k.array("x", dtype::f64, 2);
    value_id v = k.load(x, {k.i32(0), k.i32(0)}, {256, 256});
    k.store(x, {k.i32(0), k.i32(0)}, k.op1(op_kind::permute, {v}, tile(dtype::f64, {256, 256}), {{"perm", shape{1, 0}}}));
    const ir::function& f = k.finish();
    try {
      generate(f, dense(f));
      FAIL() << "expected an error";
    } catch (const tegula::error& e) {
      EXPECT_NE(std::string(e.what()).find("shared memory"), std::string::npos) << e.what();
    }
  }
}

TEST(CodegenLayout, LargeSharedMemoryIsDynamic) {
  TEGULA_REQUIRE_NVRTC();
  kernel k("big_transpose");
  value_id x = k.array("x", dtype::f32, 2);
  value_id v = k.load(x, {k.i32(0), k.i32(0)}, {128, 192});
  k.store(x, {k.i32(0), k.i32(0)}, k.op1(op_kind::permute, {v}, tile(dtype::f32, {192, 128}), {{"perm", shape{1, 0}}}));
  const ir::function& f = k.finish();
  kernel_source ks = generate(f, dense(f));
  EXPECT_EQ(ks.dynamic_shared_bytes, 128 * 192 * 4);
  EXPECT_TRUE(contains(ks.source, "extern __shared__ __align__(16) unsigned char tg_smem[];"));
  expect_compiles(ks);
}

}  // namespace
}  // namespace tegula::codegen::test
