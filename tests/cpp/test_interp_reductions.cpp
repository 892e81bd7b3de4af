// Interpreter: row softmax, reductions (keepdims, negative axis, accumulation dtype, NaN,
// argmax ties), cumsum/cumprod, and reduce/scan with a region combiner.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <limits>

#include "interp_test_util.hpp"

namespace tegula::interp::test {
namespace {

using shape_t = std::vector<std::int64_t>;

std::int64_t numel(const shape_t& s) {
  std::int64_t n = 1;
  for (auto d : s) n *= d;
  return n;
}

// Loads all of `in` as one tile, applies `body`, stores the result (of out_shape) into `out`.
template <class Out, class In>
std::vector<Out> on_tile(std::vector<In> in, shape_t in_shape, dtype in_type, shape_t out_shape, dtype out_type,
                         const std::function<value_id(kernel&, value_id)>& body) {
  kernel k;
  value_id pi = k.param("in", array(in_type, int(in_shape.size())));
  value_id po = k.param("out", array(out_type, int(out_shape.size())));
  std::vector<value_id> zeros_in{pi}, store{po};
  value_id z = k.i32(0);
  for (std::size_t d = 0; d < in_shape.size(); ++d) zeros_in.push_back(z);
  for (std::size_t d = 0; d < out_shape.size(); ++d) store.push_back(z);
  value_id t = k.op1(op_kind::load, zeros_in, tile(in_type, in_shape), {{"shape", in_shape}});
  store.push_back(body(k, t));
  k.op(op_kind::store, store);
  std::vector<Out> out(std::size_t(std::max<std::int64_t>(1, numel(out_shape))));
  run(k.finish(), {view(in, in_shape, {}, 0, in_type), view(out, out_shape, {}, 0, out_type)}, {1, 1, 1});
  return out;
}

TEST(InterpReductions, RowSoftmaxMatchesDoubleReference) {
  const std::int64_t rows = 7, C = 1000;
  std::vector<float> x(rows * C), out(rows * C);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = float(std::sin(double(i) * 0.013) * 8.0);
  kernel k;
  value_id px = k.param("x", array(dtype::f32, 2)), po = k.param("out", array(dtype::f32, 2));
  const auto T = tile(dtype::f32, {1, C}), S = tile(dtype::f32, {1, 1});
  value_id row = k.bid(), zero = k.i32(0);
  value_id v = k.op1(op_kind::load, {px, row, zero}, T, {{"shape", shape_t{1, C}}});
  const attrs red{{"axis", std::int64_t(1)}, {"keepdims", std::int64_t(1)}}, wide{{"shape", shape_t{1, C}}};
  value_id m = k.op1(op_kind::broadcast_to, {k.op1(op_kind::reduce_max, {v}, S, red)}, T, wide);
  value_id e = k.op1(op_kind::exp, {k.op1(op_kind::sub, {v, m}, T)}, T);
  value_id s = k.op1(op_kind::broadcast_to, {k.op1(op_kind::reduce_sum, {e}, S, red)}, T, wide);
  k.op(op_kind::store, {po, row, zero, k.op1(op_kind::div, {e, s}, T)});
  run(k.finish(), {view(x, {rows, C}), view(out, {rows, C})}, {rows, 1, 1});
  for (std::int64_t r = 0; r < rows; ++r) {
    double mx = -INFINITY, sum = 0;
    for (std::int64_t c = 0; c < C; ++c) mx = std::max(mx, double(x[r * C + c]));
    for (std::int64_t c = 0; c < C; ++c) sum += std::exp(double(x[r * C + c]) - mx);
    for (std::int64_t c = 0; c < C; ++c) {
      const double want = std::exp(double(x[r * C + c]) - mx) / sum;
      ASSERT_NEAR(out[r * C + c], want, 4e-7 * want + 1e-12) << r << ", " << c;
    }
  }
}

TEST(InterpReductions, SumKeepdimsNegativeAxisAccumulatesInInt64) {
  std::vector<std::int32_t> in(24);
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = std::int32_t(i) + (i == 5 ? INT32_MAX - 5 : 0);
  // sum over axis -2 of (2, 3, 4), kept as (2, 1, 4), in int64 (no int32 overflow).
  auto out = on_tile<std::int64_t>(in, {2, 3, 4}, dtype::i32, {2, 1, 4}, dtype::i64, [](kernel& k, value_id t) {
    return k.op1(op_kind::reduce_sum, {t}, tile(dtype::i64, {2, 1, 4}), {{"axis", std::int64_t(-2)}, {"keepdims", std::int64_t(1)}});
  });
  EXPECT_EQ(out, (std::vector<std::int64_t>{12, 15 + std::int64_t(INT32_MAX) - 5, 18, 21, 48, 51, 54, 57}));
  auto f = on_tile<float>(std::vector<float>{1, 2, 3, 4, 5, 6}, {2, 3}, dtype::f32, {3}, dtype::f32, [](kernel& k, value_id t) {
    return k.op1(op_kind::reduce_sum, {t}, tile(dtype::f32, {3}), {{"axis", std::int64_t(0)}});
  });
  EXPECT_EQ(f, (std::vector<float>{5, 7, 9}));
  auto p = on_tile<std::int64_t>(std::vector<std::int32_t>{2, 3, 4, 5}, {4}, dtype::i32, {}, dtype::i64, [](kernel& k, value_id t) {
    return k.op1(op_kind::reduce_prod, {t}, tile(dtype::i64), {{"axis", std::int64_t(-1)}});
  });
  EXPECT_EQ(p[0], 120);
}

TEST(InterpReductions, MaxMinPropagateNaN) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  auto mx = on_tile<float>(std::vector<float>{1, nan, 3, 4, 5, 6}, {2, 3}, dtype::f32, {2}, dtype::f32, [](kernel& k, value_id t) {
    return k.op1(op_kind::reduce_max, {t}, tile(dtype::f32, {2}), {{"axis", std::int64_t(1)}});
  });
  EXPECT_TRUE(std::isnan(mx[0]));
  EXPECT_EQ(mx[1], 6.0f);
  auto mn = on_tile<std::uint8_t>(std::vector<std::uint8_t>{9, 200, 3, 250}, {4}, dtype::u8, {}, dtype::u8, [](kernel& k, value_id t) {
    return k.op1(op_kind::reduce_min, {t}, tile(dtype::u8), {{"axis", std::int64_t(0)}});
  });
  EXPECT_EQ(mn[0], 3);
}

TEST(InterpReductions, ArgmaxArgminTakeTheFirstExtreme) {
  const auto arg = [](op_kind kind, std::vector<float> v) {
    const auto n = std::int64_t(v.size());
    return on_tile<std::int32_t>(v, {n}, dtype::f32, {}, dtype::i32, [kind](kernel& k, value_id t) {
      return k.op1(kind, {t}, tile(dtype::i32), {{"axis", std::int64_t(0)}});
    })[0];
  };
  const float nan = std::numeric_limits<float>::quiet_NaN();
  EXPECT_EQ(arg(op_kind::argmax, {3, 7, 7, 1, 7}), 1);
  EXPECT_EQ(arg(op_kind::argmin, {2, 1, 5, 1}), 1);
  EXPECT_EQ(arg(op_kind::argmax, {1, nan, 5, nan}), 1);  // NaN is the extreme, as NumPy
  EXPECT_EQ(arg(op_kind::argmin, {4, 2, nan}), 2);
  auto cols = on_tile<std::int32_t>(std::vector<std::int32_t>{1, 9, 4, 9, 2, 4}, {2, 3}, dtype::i32, {1, 3}, dtype::i32,
                                    [](kernel& k, value_id t) {
                                      return k.op1(op_kind::argmax, {t}, tile(dtype::i32, {1, 3}),
                                                   {{"axis", std::int64_t(0)}, {"keepdims", std::int64_t(1)}});
                                    });
  EXPECT_EQ(cols, (std::vector<std::int32_t>{1, 0, 0}));
}

TEST(InterpReductions, CumsumAndCumprodForwardAndReverse) {
  const auto scan = [](op_kind kind, bool reverse) {
    return on_tile<std::int64_t>(std::vector<std::int32_t>{1, 2, 3, 4, 5, 6}, {2, 3}, dtype::i32, {2, 3}, dtype::i64,
                                 [=](kernel& k, value_id t) {
                                   return k.op1(kind, {t}, tile(dtype::i64, {2, 3}),
                                                {{"axis", std::int64_t(-1)}, {"reverse", std::int64_t(reverse)}});
                                 });
  };
  EXPECT_EQ(scan(op_kind::cumsum, false), (std::vector<std::int64_t>{1, 3, 6, 4, 9, 15}));
  EXPECT_EQ(scan(op_kind::cumsum, true), (std::vector<std::int64_t>{6, 5, 3, 15, 11, 6}));
  EXPECT_EQ(scan(op_kind::cumprod, false), (std::vector<std::int64_t>{1, 2, 6, 4, 20, 120}));
  auto f = on_tile<float>(std::vector<float>{0.5f, 0.25f, 1.0f}, {3}, dtype::f32, {3}, dtype::f32, [](kernel& k, value_id t) {
    return k.op1(op_kind::cumsum, {t}, tile(dtype::f32, {3}), {{"axis", std::int64_t(0)}});
  });
  EXPECT_EQ(f, (std::vector<float>{0.5f, 0.75f, 1.75f}));
}

// combine(acc, x) = acc * 10 + x is not commutative, so the fold order shows.
value_id digits(kernel& k, op_kind kind, value_id t, const attrs& a, ir::type result) {
  const auto S = tile(dtype::i32);
  k.open();
  value_id acc = k.arg(S), x = k.arg(S);
  value_id y = k.op1(op_kind::add, {k.op1(op_kind::mul, {acc, k.i32(10)}, S), x}, S);
  ir::region body = k.close({y});
  return k.op(kind, {t, k.i32(0)}, {std::move(result)}, a, {std::move(body)})[0];
}

TEST(InterpReductions, CustomReduceAndScanFoldInOrder) {
  const std::vector<std::int32_t> in{1, 2, 3, 4, 5, 6};
  auto r = on_tile<std::int32_t>(in, {2, 3}, dtype::i32, {2}, dtype::i32, [](kernel& k, value_id t) {
    return digits(k, op_kind::reduce, t, {{"axis", std::int64_t(1)}}, tile(dtype::i32, {2}));
  });
  EXPECT_EQ(r, (std::vector<std::int32_t>{123, 456}));
  auto c = on_tile<std::int32_t>(in, {2, 3}, dtype::i32, {1, 3}, dtype::i32, [](kernel& k, value_id t) {
    return digits(k, op_kind::reduce, t, {{"axis", std::int64_t(-2)}, {"keepdims", std::int64_t(1)}}, tile(dtype::i32, {1, 3}));
  });
  EXPECT_EQ(c, (std::vector<std::int32_t>{14, 25, 36}));
  auto s = on_tile<std::int32_t>(in, {2, 3}, dtype::i32, {2, 3}, dtype::i32, [](kernel& k, value_id t) {
    return digits(k, op_kind::scan, t, {{"axis", std::int64_t(1)}}, tile(dtype::i32, {2, 3}));
  });
  EXPECT_EQ(s, (std::vector<std::int32_t>{1, 12, 123, 4, 45, 456}));
  auto rs = on_tile<std::int32_t>(in, {2, 3}, dtype::i32, {2, 3}, dtype::i32, [](kernel& k, value_id t) {
    return digits(k, op_kind::scan, t, {{"axis", std::int64_t(1)}, {"reverse", std::int64_t(1)}}, tile(dtype::i32, {2, 3}));
  });
  EXPECT_EQ(rs, (std::vector<std::int32_t>{321, 32, 3, 654, 65, 6}));
}

}  // namespace
}  // namespace tegula::interp::test
