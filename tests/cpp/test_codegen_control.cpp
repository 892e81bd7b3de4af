// Tests of codegen for control flow (for, if, while), print and assert.
#include <gtest/gtest.h>

#include "codegen_test_util.hpp"
#include "tegula/codegen/cuda.hpp"

namespace tegula::codegen::test {
namespace {

TEST(CodegenControl, IfAndWhileCarryTiles) {
  TEGULA_REQUIRE_NVRTC();
  kernel k("control");
  value_id x = k.array("x", dtype::f32, 1), out = k.array("out", dtype::f32, 1), n = k.scalar("n", dtype::i32);
  value_id i = k.bid();
  const shape s{300};
  value_id v = k.load(x, {i}, s);
  // while j < n: v = v * 0.5; j += 1
  auto w = k.while_({k.i32(0), v},
                    [&](std::vector<value_id> a) {
                      return std::vector<value_id>{k.ew(op_kind::lt, {a[0], n}), a[0], a[1]};
                    },
                    [&](std::vector<value_id> a) {
                      value_id half = k.constant(0.5, tile(dtype::f32, s));
                      return std::vector<value_id>{k.ew(op_kind::add, {a[0], k.i32(1)}), k.ew(op_kind::mul, {a[1], half})};
                    });
  // if bid is even: store -v else store sum(v) broadcast (a reduction inside a branch)
  value_id even = k.ew(op_kind::eq, {k.ew(op_kind::mod, {i, k.i32(2)}), k.i32(0)});
  auto r = k.if_(even, {tile(dtype::f32, s)},
                 [&] { return std::vector<value_id>{k.ew(op_kind::neg, {w[1]})}; },
                 [&] {
                   value_id t = k.op1(op_kind::reduce_sum, {w[1]}, tile(dtype::f32), {{"axis", std::int64_t(0)}, {"keepdims", std::int64_t(0)}});
                   return std::vector<value_id>{k.broadcast(t, s)};
                 });
  // A loop with a negative constant step and a while whose after-region swaps its carried values.
  auto back = k.for_(k.i32(10), k.i32(0), k.i32(-3), {r[0]}, [&](value_id t, std::vector<value_id> c) {
    value_id tf = k.broadcast(k.op1(op_kind::astype, {t}, tile(dtype::f32), {{"dtype", dtype::f32}}), s);
    return std::vector<value_id>{k.ew(op_kind::add, {c[0], tf})};
  });
  auto sw = k.while_({k.i32(0), back[0], v},
                     [&](std::vector<value_id> a) {
                       return std::vector<value_id>{k.ew(op_kind::lt, {a[0], k.i32(3)}), a[0], a[1], a[2]};
                     },
                     [&](std::vector<value_id> a) {
                       return std::vector<value_id>{k.ew(op_kind::add, {a[0], k.i32(1)}), a[2], a[1]};
                     });
  k.store(out, {i}, sw[1]);
  const ir::function& f = k.finish();
  kernel_source ks = generate(f, dense(f));
  EXPECT_TRUE(contains(ks.source, "while (true)"));
  EXPECT_TRUE(contains(ks.source, "break;"));
  EXPECT_TRUE(contains(ks.source, "; it_0 > v"));  // constant negative step: `it > ub`
  expect_compiles(ks);
}

TEST(CodegenControl, PrintAndAssert) {
  TEGULA_REQUIRE_NVRTC();
  kernel k("debug");
  value_id x = k.array("x", dtype::f32, 2);
  value_id i = k.bid(), z = k.i32(0);
  value_id v = k.load(x, {i, z}, {2, 64});
  value_id m = k.op1(op_kind::reduce_max, {v}, tile(dtype::f32, {2}), {{"axis", std::int64_t(1)}, {"keepdims", std::int64_t(0)}});
  k.op(op_kind::print, {i, m}, {}, {{"format", std::string("row {} max {} (100%)")}});
  k.op(op_kind::print, {i}, {}, {{"format", std::string("block {} says \"hi\" {{}}")}});
  value_id ok = k.ew(op_kind::ge, {v, k.constant(0.0, tile(dtype::f32, {2, 64}))});
  k.op(op_kind::assert_, {ok}, {}, {{"message", std::string("x must be non-negative")}});
  k.op(op_kind::assert_, {k.ew(op_kind::lt, {i, k.i32(1000)})}, {}, {{"message", std::string("too many blocks")}});
  const ir::function& f = k.finish();
  kernel_source ks = generate(f, dense(f));
  EXPECT_TRUE(contains(ks.source, "printf(\"[block (%d, %d, %d) index (%d)] row %d max %g (100%%)\\n\""));
  EXPECT_TRUE(contains(ks.source, "says \\\"hi\\\" {}"));
  EXPECT_TRUE(contains(ks.source, "test.py:"));
  EXPECT_TRUE(contains(ks.source, "assertion failed: x must be non-negative"));
  EXPECT_TRUE(contains(ks.source, "__trap();"));
  expect_compiles(ks);
}

}  // namespace
}  // namespace tegula::codegen::test
