// Tests of codegen for reductions: block reductions, axis reductions, argmax, custom reduce.
#include <gtest/gtest.h>

#include "codegen_test_kernels.hpp"
#include "tegula/codegen/cuda.hpp"

namespace tegula::codegen::test {
namespace {

TEST(CodegenReduce, PersistentSumWithScalarAtomicAdd) {
  TEGULA_REQUIRE_NVRTC();
  ir::function f = persistent_sum(2048);
  kernel_source ks = generate(f, dense(f));
  EXPECT_EQ(ks.block_threads, 128);
  EXPECT_TRUE(contains(ks.source, "__shfl_xor_sync"));
  EXPECT_TRUE(contains(ks.source, "atomicAdd(p_, val_)"));
  EXPECT_TRUE(contains(ks.source, "threadIdx.x == 0"));  // one atomic per block
  EXPECT_TRUE(contains(ks.source, "for (int it_"));
  expect_compiles(ks);
}

// sum, prod, max, min, argmax, argmin of a (6, 40) tile of dtype d along both axes, with and
// without keepdims, combined and stored.
ir::function all_reductions(dtype d) {
  kernel k(std::string("reductions_") + std::string(ir::name(d)));
  value_id x = k.array("x", d, 2), out64 = k.array("out64", dtype::i64, 2), outf = k.array("outf", dtype::f64, 2);
  value_id i = k.bid(), z = k.i32(0);
  value_id v = k.load(x, {i, z}, {6, 40});
  dtype sum_t = ir::is_float(d) ? d : ir::is_unsigned_int(d) ? dtype::u64 : dtype::i64;
  for (int axis : {0, 1}) {
    for (bool keep : {false, true}) {
      value_id s = k.reduce(op_kind::reduce_sum, v, axis, keep, sum_t);
      value_id p = k.reduce(op_kind::reduce_prod, v, axis, keep, sum_t);
      value_id mx = k.reduce(op_kind::reduce_max, v, axis, keep, d);
      value_id mn = k.reduce(op_kind::reduce_min, v, axis, keep, d);
      value_id am = k.reduce(op_kind::argmax, v, axis, keep, dtype::i32);
      value_id an = k.reduce(op_kind::argmin, v, axis, keep, dtype::i32);
      value_id acc = k.ew(op_kind::add, {s, p});
      acc = k.ew(op_kind::add, {acc, k.op1(op_kind::astype, {mx}, k.type_of(acc), {{"dtype", sum_t}})});
      acc = k.ew(op_kind::add, {acc, k.op1(op_kind::astype, {mn}, k.type_of(acc), {{"dtype", sum_t}})});
      value_id idx = k.ew(op_kind::add, {am, an});
      acc = k.ew(op_kind::add, {acc, k.op1(op_kind::astype, {idx}, k.type_of(acc), {{"dtype", sum_t}})});
      shape s2 = k.type_of(acc).shape;
      if (s2.size() == 1) acc = k.op1(op_kind::reshape, {acc}, tile(sum_t, {1, s2[0]}), {{"shape", shape{1, s2[0]}}});
      s2 = k.type_of(acc).shape;
      k.store(outf, {i, z}, k.op1(op_kind::astype, {acc}, tile(dtype::f64, s2), {{"dtype", dtype::f64}}));
      k.store(out64, {i, z}, k.op1(op_kind::astype, {acc}, tile(dtype::i64, s2), {{"dtype", dtype::i64}}));
    }
  }
  return k.finish();
}

TEST(CodegenReduce, EveryReductionKindAndDtype) {
  TEGULA_REQUIRE_NVRTC();
  for (dtype d : {dtype::b1, dtype::i8, dtype::i32, dtype::u16, dtype::i64, dtype::u64, dtype::f16, dtype::bf16,
                  dtype::f32, dtype::f64}) {
    SCOPED_TRACE(ir::name(d));
    ir::function f = all_reductions(d);
    kernel_source ks = generate(f, dense(f));
    EXPECT_TRUE(contains(ks.source, "tg_better_max"));
    expect_compiles(ks);
  }
}

TEST(CodegenReduce, FullReductionsOfSingleRowsAndColumns) {
  TEGULA_REQUIRE_NVRTC();
  kernel k("full");
  value_id x = k.array("x", dtype::f32, 2), out = k.array("out", dtype::i32, 1), outv = k.array("outv", dtype::f32, 2);
  value_id i = k.bid(), z = k.i32(0);
  value_id col = k.load(x, {z, i}, {300, 1});  // a column: reduced along axis 0
  value_id am = k.reduce(op_kind::argmax, col, 0, false, dtype::i32);  // (1,) -> replicated
  value_id one = k.op1(op_kind::reshape, {am}, tile(dtype::i32, {1}), {{"shape", shape{1}}});
  k.store(out, {i}, one);
  value_id mn = k.reduce(op_kind::reduce_min, col, 0, true, dtype::f32);  // (1, 1)
  k.store(outv, {z, i}, mn);
  const ir::function& f = k.finish();
  kernel_source ks = generate(f, dense(f));
  EXPECT_TRUE(contains(ks.source, "const int yi_ = __shfl_xor_sync(0xffffffffu, ai_, o_);"));
  expect_compiles(ks);
}

TEST(CodegenReduce, CustomReduceRegionBecomesALambda) {
  TEGULA_REQUIRE_NVRTC();
  kernel k("custom");
  value_id x = k.array("x", dtype::i32, 1), out = k.array("out", dtype::i32, 1);
  value_id i = k.bid();
  value_id v = k.load(x, {i}, {500});
  value_id id = k.i32(0);
  // acc | x: a bitwise-or reduction as a combine region, over all 500 elements and over (5, 100) axis 1.
  value_id r = k.combine_op(op_kind::reduce, v, id, tile(dtype::i32), {{"axis", std::int64_t(0)}, {"keepdims", std::int64_t(0)}},
                            [&](value_id a, value_id b) { return k.ew(op_kind::bit_or, {a, b}); });
  value_id v2 = k.op1(op_kind::reshape, {v}, tile(dtype::i32, {5, 100}), {{"shape", shape{5, 100}}});
  value_id r2 = k.combine_op(op_kind::reduce, v2, id, tile(dtype::i32, {5}), {{"axis", std::int64_t(1)}, {"keepdims", std::int64_t(0)}},
                             [&](value_id a, value_id b) { return k.ew(op_kind::maximum, {a, b}); });
  k.store(out, {i}, k.ew(op_kind::add, {r2, k.broadcast(r, {5})}));
  const ir::function& f = k.finish();
  kernel_source ks = generate(f, dense(f));
  EXPECT_TRUE(contains(ks.source, "auto combine_"));
  EXPECT_TRUE(contains(ks.source, "((int)threadIdx.x & o_) ?"));
  expect_compiles(ks);
}

}  // namespace
}  // namespace tegula::codegen::test
