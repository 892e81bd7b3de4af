// Tests of codegen for gather, scatter and atomics (masks, bounds, compare-and-swap loops).
#include <gtest/gtest.h>

#include "codegen_test_kernels.hpp"
#include "tegula/codegen/cuda.hpp"

namespace tegula::codegen::test {
namespace {

TEST(CodegenIndexed, GatherScatterWithMask) {
  TEGULA_REQUIRE_NVRTC();
  ir::function f = gather_scatter();
  kernel_source ks = generate(f, dense(f));
  EXPECT_TRUE(contains(ks.source, "(unsigned long long)q0_ < (unsigned long long)a0_x_shape0"));
  EXPECT_TRUE(contains(ks.source, "__uint_as_float(0x7fc00000u)"));
  expect_compiles(ks);
}

TEST(CodegenIndexed, TwoDimensionalGatherAndScalarGather) {
  TEGULA_REQUIRE_NVRTC();
  kernel k("gather2d");
  value_id x = k.array("x", dtype::bf16, 2), out = k.array("out", dtype::bf16, 1);
  const shape s{100};
  value_id r = k.op1(op_kind::arange, {}, tile(dtype::i32, s), {{"n", std::int64_t(100)}});
  value_id c = k.ew(op_kind::floordiv, {r, k.iconst(3, tile(dtype::i32, s))});
  value_id g = k.op1(op_kind::gather, {x, r, c}, tile(dtype::bf16, s), {{"padding", std::string("zero")}, {"has_mask", std::int64_t(0)}});
  value_id one = k.op1(op_kind::gather, {x, k.i32(1), k.i32(2)}, tile(dtype::bf16), {{"padding", std::string("zero")}, {"has_mask", std::int64_t(0)}});
  k.store(out, {k.bid()}, k.ew(op_kind::add, {g, k.broadcast(one, s)}));
  const ir::function& f = k.finish();
  kernel_source ks = generate(f, dense(f));
  expect_compiles(ks);
}

TEST(CodegenIndexed, AtomicsOfEveryKindAndDtype) {
  TEGULA_REQUIRE_NVRTC();
  const dtype types[] = {dtype::i8, dtype::u16, dtype::i32, dtype::u32, dtype::i64, dtype::u64, dtype::f16, dtype::bf16,
                         dtype::f32, dtype::f64, dtype::b1};
  kernel k("atomics");
  const shape s{64};
  std::vector<value_id> arrays;
  for (dtype d : types) arrays.push_back(k.array(std::string(ir::name(d)), d, 1));
  value_id idx = k.op1(op_kind::arange, {}, tile(dtype::i32, s), {{"n", std::int64_t(64)}});
  value_id mask = k.ew(op_kind::gt, {idx, k.iconst(3, tile(dtype::i32, s))});
  for (std::size_t n = 0; n < arrays.size(); ++n) {
    dtype d = types[n];
    value_id v = k.iconst(1, tile(d, s));
    value_id old = k.op(op_kind::atomic_add, {arrays[n], idx, v, mask}, {tile(d, s)}, {{"has_mask", std::int64_t(1)}})[0];
    old = k.op(op_kind::atomic_max, {arrays[n], idx, old}, {tile(d, s)}, {{"has_mask", std::int64_t(0)}})[0];
    old = k.op(op_kind::atomic_min, {arrays[n], idx, old}, {tile(d, s)}, {{"has_mask", std::int64_t(0)}})[0];
    old = k.op(op_kind::atomic_cas, {arrays[n], idx, old, v}, {tile(d, s)}, {{"has_mask", std::int64_t(0)}})[0];
    // A scalar atomic whose old value is used: thread 0 updates, shared memory broadcasts.
    value_id s0 = k.op(op_kind::atomic_max, {arrays[n], k.i32(0), k.iconst(1, tile(d))}, {tile(d)}, {{"has_mask", std::int64_t(0)}})[0];
    k.store(arrays[n], {k.i32(0)}, k.ew(op_kind::maximum, {old, k.broadcast(s0, s)}));
  }
  const ir::function& f = k.finish();
  kernel_source ks = generate(f, dense(f));
  EXPECT_TRUE(contains(ks.source, "tg_atomic_update(p_"));
  EXPECT_TRUE(contains(ks.source, "atomicMax(p_, val_)"));
  EXPECT_TRUE(contains(ks.source, "atomicAdd(reinterpret_cast<unsigned long long*>(p_)"));
  EXPECT_TRUE(contains(ks.source, "atomicCAS(p_, cmp_, val_)"));
  expect_compiles(ks);
}

}  // namespace
}  // namespace tegula::codegen::test
