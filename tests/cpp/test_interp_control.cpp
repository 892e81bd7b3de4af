// Interpreter: for (carried tiles, negative step), if, while, nested regions, assert and print.
#include <gtest/gtest.h>

#include "interp_test_util.hpp"
#include "tegula/support/error.hpp"

namespace tegula::interp::test {
namespace {

using shape_t = std::vector<std::int64_t>;

// out[row] = sum of row `row` of x, accumulated tile by tile over num_tiles(x, axis 1).
TEST(InterpControl, ForLoopCarriesATileAcrossColumnTiles) {
  const std::int64_t rows = 3, cols = 1000, t = 128;
  std::vector<float> x(rows * cols), out(rows, -1.0f);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = float(int(i % 17) - 8);
  kernel k;
  value_id px = k.param("x", array(dtype::f32, 2)), po = k.param("out", array(dtype::f32, 1));
  const auto T = tile(dtype::f32, {1, t}), I = tile(dtype::i32);
  value_id row = k.bid();
  value_id n = k.op1(op_kind::num_tiles, {px}, I, {{"axis", std::int64_t(1)}, {"tile", t}});
  k.open();
  value_id j = k.arg(I), acc = k.arg(T);
  value_id v = k.op1(op_kind::load, {px, row, j}, T, {{"shape", shape_t{1, t}}, {"padding", "zero"}});
  ir::region body = k.close({k.op1(op_kind::add, {acc, v}, T)});
  value_id total = k.op(op_kind::for_, {k.i32(0), n, k.i32(1), k.constant(0.0, T)}, {T}, {}, {std::move(body)})[0];
  value_id s = k.op1(op_kind::reduce_sum, {total}, tile(dtype::f32, {1}), {{"axis", std::int64_t(1)}});
  k.op(op_kind::store, {po, row, s});
  run(k.finish(), {view(x, {rows, cols}), view(out, {rows})}, {rows, 1, 1});
  for (std::int64_t r = 0; r < rows; ++r) {
    double want = 0;
    for (std::int64_t c = 0; c < cols; ++c) want += x[std::size_t(r * cols + c)];
    EXPECT_EQ(out[std::size_t(r)], float(want)) << r;
  }
}

// A scalar loop: s = init + sum of range(lb, ub, step), stored to out[0].
std::int64_t range_sum(std::int64_t lb, std::int64_t ub, std::int64_t step, std::int64_t init) {
  kernel k;
  value_id po = k.param("out", array(dtype::i64, 1));
  const auto I = tile(dtype::i32), L = tile(dtype::i64);
  k.open();
  value_id iv = k.arg(I), s = k.arg(L);
  ir::region body = k.close({k.op1(op_kind::add, {s, k.op1(op_kind::astype, {iv}, L, {{"dtype", dtype::i64}})}, L)});
  k.loc = {"loop.py", 4, 9};
  value_id r = k.op(op_kind::for_, {k.i32(lb), k.i32(ub), k.i32(step), k.iconst(init, L)}, {L}, {}, {std::move(body)})[0];
  k.op(op_kind::store, {po, k.i32(0), k.op1(op_kind::reshape, {r}, tile(dtype::i64, {1}), {{"shape", shape_t{1}}})});
  std::vector<std::int64_t> out(1, -1);
  run(k.finish(), {view(out, {1})}, {1, 1, 1});
  return out[0];
}

TEST(InterpControl, ForLoopStepsAndBounds) {
  EXPECT_EQ(range_sum(0, 5, 1, 0), 10);
  EXPECT_EQ(range_sum(10, 0, -3, 0), 22);  // 10 + 7 + 4 + 1
  EXPECT_EQ(range_sum(5, 5, 1, 42), 42);   // no iterations: the init
  EXPECT_EQ(range_sum(0, 7, 3, 0), 9);     // 0 + 3 + 6
  EXPECT_EQ(range_sum(3, 0, 1, 7), 7);
  try {
    range_sum(0, 5, 0, 0);
    FAIL() << "expected a zero-step error";
  } catch (const error& e) {
    EXPECT_EQ(e.kind(), error_kind::invalid_argument);
    EXPECT_EQ(std::string(e.what()), "loop.py:4:9: for: step is zero in block (0, 0, 0)");
  }
}

TEST(InterpControl, IfChoosesARegionPerBlock) {
  kernel k;
  value_id po = k.param("out", array(dtype::i32, 1));
  const auto I = tile(dtype::i32);
  value_id b = k.bid();
  value_id even = k.op1(op_kind::eq, {k.op1(op_kind::mod, {b, k.i32(2)}, I), k.i32(0)}, tile(dtype::b1));
  k.open();
  ir::region then_r = k.close({k.op1(op_kind::mul, {b, k.i32(10)}, I)});
  k.open();
  ir::region else_r = k.close({k.op1(op_kind::neg, {b}, I)});
  value_id v = k.op(op_kind::if_, {even}, {I}, {}, {std::move(then_r), std::move(else_r)})[0];
  k.op(op_kind::store, {po, b, k.op1(op_kind::reshape, {v}, tile(dtype::i32, {1}), {{"shape", shape_t{1}}})});
  std::vector<std::int32_t> out(5, 99);
  run(k.finish(), {view(out, {5})}, {5, 1, 1});
  EXPECT_EQ(out, (std::vector<std::int32_t>{0, -1, 20, -3, 40}));
}

// Collatz steps of n: while n != 1 { n = n even ? n / 2 : 3n + 1; steps += 1 }.
TEST(InterpControl, WhileLoopForwardsAndCarries) {
  kernel k;
  value_id pn = k.param("n", tile(dtype::i64)), po = k.param("out", array(dtype::i64, 1));
  const auto L = tile(dtype::i64), B = tile(dtype::b1);
  k.open();
  value_id n0 = k.arg(L), s0 = k.arg(L);
  ir::region before = k.close({k.op1(op_kind::ne, {n0, k.iconst(1, L)}, B), n0, s0});
  k.open();
  value_id n1 = k.arg(L), s1 = k.arg(L);
  value_id odd = k.op1(op_kind::eq, {k.op1(op_kind::bit_and, {n1, k.iconst(1, L)}, L), k.iconst(1, L)}, B);
  value_id up = k.op1(op_kind::add, {k.op1(op_kind::mul, {n1, k.iconst(3, L)}, L), k.iconst(1, L)}, L);
  value_id down = k.op1(op_kind::shr, {n1, k.iconst(1, L)}, L);
  ir::region after = k.close({k.op1(op_kind::where, {odd, up, down}, L), k.op1(op_kind::add, {s1, k.iconst(1, L)}, L)});
  auto r = k.op(op_kind::while_, {pn, k.iconst(0, L)}, {L, L}, {}, {std::move(before), std::move(after)});
  k.op(op_kind::store, {po, k.i32(0), k.op1(op_kind::reshape, {r[1]}, tile(dtype::i64, {1}), {{"shape", shape_t{1}}})});
  const auto& f = k.finish();
  std::vector<std::int64_t> out(1);
  run(f, {scalar_arg{std::int64_t(27)}, view(out, {1})}, {1, 1, 1});
  EXPECT_EQ(out[0], 111);
  run(f, {scalar_arg{std::int64_t(1)}, view(out, {1})}, {1, 1, 1});
  EXPECT_EQ(out[0], 0);
}

// for i in range(6): acc = acc + i if i is even else acc - 1  (an if inside a loop body).
TEST(InterpControl, NestedRegions) {
  kernel k;
  value_id po = k.param("out", array(dtype::i32, 1));
  const auto I = tile(dtype::i32);
  k.open();
  value_id i = k.arg(I), acc = k.arg(I);
  value_id even = k.op1(op_kind::eq, {k.op1(op_kind::mod, {i, k.i32(2)}, I), k.i32(0)}, tile(dtype::b1));
  k.open();
  ir::region then_r = k.close({k.op1(op_kind::add, {acc, i}, I)});
  k.open();
  ir::region else_r = k.close({k.op1(op_kind::sub, {acc, k.i32(1)}, I)});
  value_id next = k.op(op_kind::if_, {even}, {I}, {}, {std::move(then_r), std::move(else_r)})[0];
  ir::region body = k.close({next});
  value_id r = k.op(op_kind::for_, {k.i32(0), k.i32(6), k.i32(1), k.i32(100)}, {I}, {}, {std::move(body)})[0];
  k.op(op_kind::store, {po, k.i32(0), k.op1(op_kind::reshape, {r}, tile(dtype::i32, {1}), {{"shape", shape_t{1}}})});
  std::vector<std::int32_t> out(1);
  run(k.finish(), {view(out, {1})}, {1, 1, 1});
  EXPECT_EQ(out[0], 100 + 0 + 2 + 4 - 3);
}

TEST(InterpControl, AssertFailureNamesLocationBlockAndMessage) {
  kernel k;
  value_id px = k.param("rows", array(dtype::i32, 1));
  value_id v = k.op1(op_kind::load, {px, k.bid()}, tile(dtype::i32, {1}), {{"shape", shape_t{1}}});
  value_id ok = k.op1(op_kind::gt, {v, k.iconst(0, tile(dtype::i32, {1}))}, tile(dtype::b1, {1}));
  k.loc = {"k.py", 9, 5};
  k.op(op_kind::assert_, {ok}, {}, {{"message", "rows must be positive"}});
  std::vector<std::int32_t> rows{4, 2, 7, -1, 3};
  try {
    run(k.finish(), {view(rows, {5})}, {5, 1, 1});
    FAIL() << "expected the assert to fail";
  } catch (const error& e) {
    EXPECT_EQ(e.kind(), error_kind::invalid_argument);
    EXPECT_EQ(std::string(e.what()), "k.py:9:5: assert failed in block (3, 0, 0): rows must be positive");
  }
}

TEST(InterpControl, PrintFormatsTilesWithTheBlockIndex) {
  kernel k;
  const auto F = tile(dtype::f32, {2}), B = tile(dtype::b1);
  value_id x = k.op1(op_kind::astype, {k.op1(op_kind::arange, {}, tile(dtype::i32, {2}))}, F, {{"dtype", dtype::f32}});
  value_id tenth = k.op1(op_kind::div, {x, k.constant(10.0, F)}, F);
  value_id flag = k.op1(op_kind::eq, {k.bid(1), k.i32(1)}, B);
  k.op(op_kind::print, {tenth, flag, k.bid(1)}, {}, {{"format", "x={} {{flag}}={} y={}"}});
  testing::internal::CaptureStdout();
  run(k.finish(), {}, {1, 2, 1});
  EXPECT_EQ(testing::internal::GetCapturedStdout(),
            "[block (0, 0, 0)] x=[0.0, 0.1] {flag}=False y=0\n"
            "[block (0, 1, 0)] x=[0.0, 0.1] {flag}=True y=1\n");
}

TEST(InterpControl, GridSourcesAndArrayExtents) {
  kernel k;
  value_id px = k.param("x", array(dtype::f32, 2)), po = k.param("out", array(dtype::i64, 1));
  const auto L = tile(dtype::i64);
  value_id d1 = k.op1(op_kind::dim, {px}, L, {{"axis", std::int64_t(-1)}});
  value_id nb = k.op1(op_kind::astype, {k.op1(op_kind::num_blocks, {}, tile(dtype::i32), {{"axis", std::int64_t(2)}})}, L,
                      {{"dtype", dtype::i64}});
  value_id z = k.op1(op_kind::astype, {k.bid(2)}, L, {{"dtype", dtype::i64}});
  value_id v = k.op1(op_kind::add, {k.op1(op_kind::mul, {d1, k.iconst(100, L)}, L), k.op1(op_kind::add, {nb, z}, L)}, L);
  k.op(op_kind::store, {po, k.bid(2), k.op1(op_kind::reshape, {v}, tile(dtype::i64, {1}), {{"shape", shape_t{1}}})});
  std::vector<float> x(3 * 7);
  std::vector<std::int64_t> out(2);
  run(k.finish(), {view(x, {3, 7}), view(out, {2})}, {1, 1, 2});
  EXPECT_EQ(out, (std::vector<std::int64_t>{702, 703}));
}

TEST(InterpControl, ErrorsInsideLoopsAreLocatedOnce) {
  kernel k;
  const auto I = tile(dtype::i32), B = tile(dtype::b1);
  k.open();
  value_id i = k.arg(I), acc = k.arg(I);
  k.loc = {"body.py", 2, 1};
  k.op(op_kind::assert_, {k.op1(op_kind::lt, {i, k.i32(3)}, B)}, {}, {{"message", "i < 3"}});
  ir::region body = k.close({k.op1(op_kind::add, {acc, i}, I)});
  k.loc = {"body.py", 1, 1};
  k.op(op_kind::for_, {k.i32(0), k.i32(5), k.i32(1), k.i32(0)}, {I}, {}, {std::move(body)});
  try {
    run(k.finish(), {}, {1, 1, 1});
    FAIL() << "expected the assert to fail";
  } catch (const error& e) {
    EXPECT_EQ(std::string(e.what()), "body.py:2:1: assert failed in block (0, 0, 0): i < 3");
  }
}

TEST(InterpControl, MalformedOpsReportTheirLocation) {
  kernel k;
  value_id px = k.param("x", array(dtype::f32, 1));
  k.loc = {"bad.py", 7, 2};
  k.op1(op_kind::load, {px, k.i32(0)}, tile(dtype::f32, {4}));  // no shape attribute
  std::vector<float> x(4);
  try {
    run(k.finish(), {view(x, {4})}, {1, 1, 1});
    FAIL() << "expected an error";
  } catch (const error& e) {
    EXPECT_EQ(e.kind(), error_kind::internal);
    EXPECT_EQ(std::string(e.what()).rfind("bad.py:7:2: load: ", 0), 0u) << e.what();
  }
}

}  // namespace
}  // namespace tegula::interp::test
