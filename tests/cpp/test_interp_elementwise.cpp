// Interpreter: elementwise ops per dtype (rounding, wraparound, NumPy's sign rules, NaN), casts, speed.
#include <gtest/gtest.h>

#include <bit>
#include <chrono>
#include <cmath>
#include <limits>

#include "interp_test_util.hpp"
#include "tegula/support/error.hpp"

namespace tegula::interp::test {
namespace {

// out = a <op> b (or <op> a) elementwise over one tile holding all of a, in dtype In -> Out.
template <class Out, class In>
std::vector<Out> run_op(op_kind k, std::vector<In> a, std::vector<In> b = {}, attrs at = {},
                        dtype out_type = dtype_of<Out>(), dtype in_type = dtype_of<In>()) {
  const auto n = std::int64_t(a.size());
  kernel kb;
  value_id pa = kb.param("a", array(in_type, 1)), pb = kb.param("b", array(in_type, 1));
  value_id po = kb.param("out", array(out_type, 1));
  value_id zero = kb.i32(0);
  value_id ta = kb.op1(op_kind::load, {pa, zero}, tile(in_type, {n}), {{"shape", std::vector<std::int64_t>{n}}});
  std::vector<value_id> operands{ta};
  if (!b.empty())
    operands.push_back(kb.op1(op_kind::load, {pb, zero}, tile(in_type, {n}), {{"shape", std::vector<std::int64_t>{n}}}));
  value_id r = kb.op1(k, operands, tile(out_type, {n}), at);
  kb.op(op_kind::store, {po, zero, r});
  std::vector<Out> out(a.size());
  if (b.empty()) b.assign(a.size(), In{});
  run(kb.finish(), {view(a, {n}, {}, 0, in_type), view(b, {n}, {}, 0, in_type), view(out, {n}, {}, 0, out_type)},
      {1, 1, 1});
  return out;
}

TEST(InterpElementwise, Float32ChainMatchesPerOpRounding) {
  const std::int64_t n = 5000, t = 256;  // the last tile is partial
  std::vector<float> x(n), y(n), out(n, -1.0f);
  for (std::int64_t i = 0; i < n; ++i) {
    x[i] = float(std::sin(0.37 * double(i)) * 3.0);
    y[i] = float(std::cos(0.11 * double(i)) + 0.25);
  }
  kernel k;
  value_id px = k.param("x", array(dtype::f32, 1)), py = k.param("y", array(dtype::f32, 1));
  value_id po = k.param("out", array(dtype::f32, 1));
  const auto T = tile(dtype::f32, {t});
  const attrs shape{{"shape", std::vector<std::int64_t>{t}}};
  value_id b = k.bid();
  value_id vx = k.op1(op_kind::load, {px, b}, T, shape), vy = k.op1(op_kind::load, {py, b}, T, shape);
  value_id xx = k.op1(op_kind::mul, {vx, vx}, T);
  value_id e = k.op1(op_kind::exp, {k.op1(op_kind::neg, {xx}, T)}, T);
  value_id ey = k.op1(op_kind::mul, {e, vy}, T);
  value_id hx = k.op1(op_kind::mul, {k.constant(0.5, T), vx}, T);
  k.op(op_kind::store, {po, b, k.op1(op_kind::add, {ey, hx}, T)});
  run(k.finish(), {view(x, {n}), view(y, {n}), view(out, {n})}, {(n + t - 1) / t, 1, 1});
  for (std::int64_t i = 0; i < n; ++i) {
    // Each op rounded to float32 once, as the interpreter promises.
    const float sq = x[i] * x[i];
    const float ex = float(std::exp(double(-sq)));
    const float want = ex * y[i] + 0.5f * x[i];
    ASSERT_EQ(std::bit_cast<std::uint32_t>(out[i]), std::bit_cast<std::uint32_t>(want)) << "element " << i;
  }
}

TEST(InterpElementwise, IntegerWraparound) {
  using i8 = std::int8_t;
  using u8 = std::uint8_t;
  EXPECT_EQ(run_op<i8>(op_kind::add, std::vector<i8>{127, -128, 100}, std::vector<i8>{1, -1, 100}),
            (std::vector<i8>{-128, 127, -56}));
  EXPECT_EQ(run_op<i8>(op_kind::mul, std::vector<i8>{100, -128}, std::vector<i8>{3, -1}), (std::vector<i8>{44, -128}));
  EXPECT_EQ(run_op<i8>(op_kind::neg, std::vector<i8>{-128, 5}), (std::vector<i8>{-128, -5}));
  EXPECT_EQ(run_op<i8>(op_kind::abs, std::vector<i8>{-128, -5}), (std::vector<i8>{-128, 5}));
  EXPECT_EQ(run_op<u8>(op_kind::sub, std::vector<u8>{0, 200}, std::vector<u8>{1, 100}), (std::vector<u8>{255, 100}));
  EXPECT_EQ(run_op<u8>(op_kind::add, std::vector<u8>{200}, std::vector<u8>{100}), (std::vector<u8>{44}));
  EXPECT_EQ(run_op<std::int32_t>(op_kind::add, std::vector<std::int32_t>{INT32_MAX}, std::vector<std::int32_t>{1}),
            (std::vector<std::int32_t>{INT32_MIN}));
  EXPECT_EQ(run_op<std::int32_t>(op_kind::mul, std::vector<std::int32_t>{65536}, std::vector<std::int32_t>{65536}),
            (std::vector<std::int32_t>{0}));
  EXPECT_EQ(run_op<std::int64_t>(op_kind::add, std::vector<std::int64_t>{INT64_MAX}, std::vector<std::int64_t>{1}),
            (std::vector<std::int64_t>{INT64_MIN}));
  EXPECT_EQ(run_op<std::int32_t>(op_kind::pow, std::vector<std::int32_t>{3, 2, -2}, std::vector<std::int32_t>{4, 31, 3}),
            (std::vector<std::int32_t>{81, INT32_MIN, -8}));
  EXPECT_EQ(run_op<u8>(op_kind::logical_not, std::vector<u8>{0, 0xf0}), (std::vector<u8>{0xff, 0x0f}));
}

TEST(InterpElementwise, FloorDivAndModFollowPython) {
  using i32 = std::int32_t;
  const std::vector<i32> a{7, -7, 7, -7, 0, INT32_MIN, 6}, b{2, 2, -2, -2, -3, -1, 3};
  EXPECT_EQ(run_op<i32>(op_kind::floordiv, a, b), (std::vector<i32>{3, -4, -4, 3, 0, INT32_MIN, 2}));
  EXPECT_EQ(run_op<i32>(op_kind::mod, a, b), (std::vector<i32>{1, 1, -1, -1, 0, 0, 0}));
  EXPECT_EQ(run_op<i32>(op_kind::div, a, b), (std::vector<i32>{3, -3, -3, 3, 0, INT32_MIN, 2}));  // C truncation
  EXPECT_EQ(run_op<std::int64_t>(op_kind::floordiv, std::vector<std::int64_t>{INT64_MIN}, std::vector<std::int64_t>{-1}),
            (std::vector<std::int64_t>{INT64_MIN}));
  const std::vector<float> fa{7.0f, -7.0f, 7.5f, -1.0f, 1.0f}, fb{2.0f, 2.0f, -2.0f, 3.0f, 0.0f};
  const auto fd = run_op<float>(op_kind::floordiv, fa, fb);
  EXPECT_EQ(fd[0], 3.0f);
  EXPECT_EQ(fd[1], -4.0f);
  EXPECT_EQ(fd[2], -4.0f);
  EXPECT_EQ(fd[3], -1.0f);
  EXPECT_TRUE(std::isinf(fd[4]));
  const auto fm = run_op<float>(op_kind::mod, fa, fb);
  EXPECT_EQ(fm[0], 1.0f);
  EXPECT_EQ(fm[1], 1.0f);
  EXPECT_EQ(fm[2], -0.5f);
  EXPECT_EQ(fm[3], 2.0f);
  EXPECT_TRUE(std::isnan(fm[4]));
  const auto dv = run_op<double>(op_kind::div, std::vector<double>{1.0, -1.0}, std::vector<double>{0.0, 4.0});
  EXPECT_TRUE(std::isinf(dv[0]));
  EXPECT_EQ(dv[1], -0.25);
}

TEST(InterpElementwise, ShiftsBitwiseAndNaNAwareMinMax) {
  using i8 = std::int8_t;
  EXPECT_EQ(run_op<i8>(op_kind::shl, std::vector<i8>{1, 1, 3, 1}, std::vector<i8>{7, 8, 1, -1}),
            (std::vector<i8>{-128, 0, 6, 0}));
  EXPECT_EQ(run_op<i8>(op_kind::shr, std::vector<i8>{-8, -1, 64, 64}, std::vector<i8>{1, 100, 6, 7}),
            (std::vector<i8>{-4, -1, 1, 0}));
  EXPECT_EQ(run_op<std::uint8_t>(op_kind::shr, std::vector<std::uint8_t>{255, 255}, std::vector<std::uint8_t>{9, 4}),
            (std::vector<std::uint8_t>{0, 15}));
  EXPECT_EQ(run_op<std::int32_t>(op_kind::bit_xor, std::vector<std::int32_t>{0x0ff0}, std::vector<std::int32_t>{0x00ff}),
            (std::vector<std::int32_t>{0x0f0f}));
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const auto mx = run_op<float>(op_kind::maximum, std::vector<float>{nan, 1.0f, 2.0f}, std::vector<float>{1.0f, nan, -3.0f});
  EXPECT_TRUE(std::isnan(mx[0]));
  EXPECT_TRUE(std::isnan(mx[1]));
  EXPECT_EQ(mx[2], 2.0f);
  const auto mn = run_op<float>(op_kind::minimum, std::vector<float>{nan, 1.0f, 2.0f}, std::vector<float>{1.0f, nan, -3.0f});
  EXPECT_TRUE(std::isnan(mn[0]));
  EXPECT_TRUE(std::isnan(mn[1]));
  EXPECT_EQ(mn[2], -3.0f);
}

TEST(InterpElementwise, ComparisonsGiveBoolAndNaNIsUnordered) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> a{1.0f, 2.0f, nan}, b{2.0f, 2.0f, nan};
  EXPECT_EQ(run_op<std::uint8_t>(op_kind::lt, a, b, {}, dtype::b1), (std::vector<std::uint8_t>{1, 0, 0}));
  EXPECT_EQ(run_op<std::uint8_t>(op_kind::ge, a, b, {}, dtype::b1), (std::vector<std::uint8_t>{0, 1, 0}));
  EXPECT_EQ(run_op<std::uint8_t>(op_kind::ne, a, b, {}, dtype::b1), (std::vector<std::uint8_t>{1, 0, 1}));
  // Unsigned comparison is not signed comparison.
  EXPECT_EQ(run_op<std::uint8_t>(op_kind::gt, std::vector<std::uint32_t>{0xffffffffu}, std::vector<std::uint32_t>{1},
                                 {}, dtype::b1),
            (std::vector<std::uint8_t>{1}));
}

TEST(InterpElementwise, WhereSelects) {
  const std::int64_t n = 4;
  kernel k;
  value_id pa = k.param("a", array(dtype::f32, 1)), po = k.param("out", array(dtype::f32, 1));
  const auto T = tile(dtype::f32, {n});
  value_id z = k.i32(0);
  value_id a = k.op1(op_kind::load, {pa, z}, T, {{"shape", std::vector<std::int64_t>{n}}});
  value_id pos = k.op1(op_kind::gt, {a, k.constant(0.0, T)}, tile(dtype::b1, {n}));
  k.op(op_kind::store, {po, z, k.op1(op_kind::where, {pos, a, k.constant(-1.0, T)}, T)});
  std::vector<float> in{3.0f, -2.0f, 0.0f, 5.5f}, out(4);
  run(k.finish(), {view(in, {n}), view(out, {n})}, {1, 1, 1});
  EXPECT_EQ(out, (std::vector<float>{3.0f, -1.0f, -1.0f, 5.5f}));
}

TEST(InterpElementwise, AstypeTruncatesSaturatesAndRoundsOnce) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(run_op<std::int32_t>(op_kind::astype, std::vector<float>{2.7f, -2.7f, 3e9f, -3e9f, nan},
                                 {}, {{"dtype", dtype::i32}}),
            (std::vector<std::int32_t>{2, -2, INT32_MAX, INT32_MIN, 0}));
  EXPECT_EQ(run_op<std::uint8_t>(op_kind::astype, std::vector<float>{0.0f, -0.5f, nan, 2.0f}, {}, {{"dtype", dtype::b1}},
                                 dtype::b1),
            (std::vector<std::uint8_t>{0, 1, 1, 1}));
  EXPECT_EQ(run_op<std::int8_t>(op_kind::astype, std::vector<std::int32_t>{300, -129}, {}, {{"dtype", dtype::i8}}),
            (std::vector<std::int8_t>{44, 127}));
  // 2^62 + 2^38 + 1 -> float32: just above the halfway point, so it rounds up. Going through
  // double first would land exactly on the halfway point and round to even (down).
  const std::int64_t big = (std::int64_t(1) << 62) + (std::int64_t(1) << 38) + 1;
  const auto f = run_op<float>(op_kind::astype, std::vector<std::int64_t>{big, 16777217}, {}, {{"dtype", dtype::f32}});
  EXPECT_EQ(double(f[0]), std::ldexp(1.0, 62) + std::ldexp(1.0, 39));
  EXPECT_EQ(f[1], 16777216.0f);
  EXPECT_EQ(run_op<std::int32_t>(op_kind::bitcast, std::vector<float>{1.0f, -0.0f}, {}, {{"dtype", dtype::i32}}),
            (std::vector<std::int32_t>{0x3f800000, INT32_MIN}));
}

TEST(InterpElementwise, IntegerDivisionByZeroNamesLocationAndBlock) {
  kernel k;
  value_id pa = k.param("a", array(dtype::i32, 1));
  const auto T = tile(dtype::i32, {4});
  k.loc = {"k.py", 3, 7};
  value_id a = k.op1(op_kind::load, {pa, k.bid()}, T, {{"shape", std::vector<std::int64_t>{4}}});
  value_id q = k.op1(op_kind::floordiv, {k.iconst(10, T), a}, T);
  k.op(op_kind::store, {pa, k.bid(), q});
  std::vector<std::int32_t> data{1, 2, 3, 4, 5, 0, 7, 8};
  try {
    run(k.finish(), {view(data, {8})}, {2, 1, 1});
    FAIL() << "expected a division-by-zero error";
  } catch (const error& e) {
    EXPECT_EQ(e.kind(), error_kind::invalid_argument);
    EXPECT_EQ(std::string(e.what()), "k.py:3:7: floordiv: integer division by zero in block (1, 0, 0)");
  }
  EXPECT_EQ(data[0], 10);  // block 0 ran to completion first
}

TEST(InterpElementwise, MillionElementsRunQuickly) {
  const std::int64_t n = 1 << 20, t = 1024;
  std::vector<float> x(n, 0.5f), y(n, 2.0f), out(n);
  kernel k;
  value_id px = k.param("x", array(dtype::f32, 1)), py = k.param("y", array(dtype::f32, 1));
  value_id po = k.param("out", array(dtype::f32, 1));
  const auto T = tile(dtype::f32, {t});
  const attrs shape{{"shape", std::vector<std::int64_t>{t}}};
  value_id b = k.bid();
  value_id vx = k.op1(op_kind::load, {px, b}, T, shape), vy = k.op1(op_kind::load, {py, b}, T, shape);
  value_id e = k.op1(op_kind::exp, {k.op1(op_kind::neg, {k.op1(op_kind::mul, {vx, vx}, T)}, T)}, T);
  value_id r = k.op1(op_kind::add, {k.op1(op_kind::mul, {e, vy}, T), k.op1(op_kind::mul, {k.constant(0.5, T), vx}, T)}, T);
  k.op(op_kind::store, {po, b, r});
  const auto& f = k.finish();
  const auto start = std::chrono::steady_clock::now();
  run(f, {view(x, {n}), view(y, {n}), view(out, {n})}, {n / t, 1, 1});
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_FLOAT_EQ(out[n - 1], float(std::exp(-0.25) * 2.0 + 0.25));
  EXPECT_LT(seconds, 1.0);
  std::printf("1M-element elementwise kernel: %.1f ms\n", seconds * 1e3);
}

}  // namespace
}  // namespace tegula::interp::test
