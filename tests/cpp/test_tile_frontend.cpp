// Tests of the C++ tile front end (cpp/tegula/tile) on the CPU interpreter: results of kernels using each kind of
// operation, static folding, weak scalars, loops with carried values, and the errors a kernel author gets.
#include <gtest/gtest.h>

#include <cmath>
#include <numeric>
#include <vector>

#include "tegula/support/error.hpp"
#include "tegula/tile.hpp"

namespace tt = tegula::tile;

namespace tegula::tile {
namespace {

template <class F>
void expect_error(F f, error_kind kind, const std::string& part) {
  try {
    f();
    ADD_FAILURE() << "no error; expected: " << part;
  } catch (const error& e) {
    EXPECT_EQ(int(e.kind()), int(kind)) << e.what();
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(TileFrontend, ElementwiseWithScalarsAndWhere) {
  const tt::kernel k("axpb", {"x", "out", "a", "T"}, [](tt::array x, tt::array out, tt::scalar a, std::int64_t T) {
    auto b = tt::let("b", tt::bid(0));
    auto v = tt::let("v", tt::load(x, {b}, {T}));
    tt::store(out, {b}, tt::where(v > 0.5, v * a + 1.0, -v));
  });
  std::vector<float> x(100), out(100, NAN);
  std::iota(x.begin(), x.end(), 0.0f);
  for (auto& v : x) v /= 100.0f;
  k.interpret({4}, {tt::view(x.data(), float32, {100}), tt::view(out.data(), float32, {100}),
                    tt::run_time_scalar(3.0, float32), 32});
  for (int i = 0; i < 100; ++i) EXPECT_FLOAT_EQ(out[std::size_t(i)], x[std::size_t(i)] > 0.5f ? x[std::size_t(i)] * 3 + 1 : -x[std::size_t(i)]);
  // The Python rules for a weak float scalar next to a float32 tile keep float32.
  EXPECT_NE(k.ir({tt::view(x.data(), float32, {100}), tt::view(out.data(), float32, {100}),
                  tt::run_time_scalar(3.0, float32), 32}).find("tile<float32, 32>"), std::string::npos);
}

TEST(TileFrontend, ReductionsScansAndIntegerTiles) {
  const tt::kernel k("rows", {"x", "sums", "cums", "C"}, [](tt::array x, tt::array sums, tt::array cums, std::int64_t C) {
    auto r = tt::let("r", tt::bid(0));
    auto t = tt::let("t", tt::load(x, {r, 0}, {1, C}));
    tt::store(sums, {r, 0}, tt::sum(t, 1, true));
    tt::store(cums, {r, 0}, tt::cumsum(t, 1));
  });
  std::vector<std::int32_t> x(3 * 5), sums(3, -1), cums(15, -1);
  std::iota(x.begin(), x.end(), 1);
  k.interpret({3}, {tt::view(x.data(), int32, {3, 5}), tt::view(sums.data(), int32, {3, 1}),
                    tt::view(cums.data(), int32, {3, 5}), 5});
  EXPECT_EQ(sums, (std::vector<std::int32_t>{15, 40, 65}));
  EXPECT_EQ(cums[4], 15);
  EXPECT_EQ(cums[14], 65);
}

TEST(TileFrontend, LoopCarriedAccumulatorAndMatmul) {
  const tt::kernel k("mm", {"a", "b", "c", "BM", "BN", "BK"},
                     [](tt::array a, tt::array b, tt::array c, std::int64_t BM, std::int64_t BN, std::int64_t BK) {
    auto pm = tt::let("pm", tt::bid(0));
    tt::var acc("acc", tt::zeros({BM, BN}, float32));
    tt::for_range(tt::num_tiles(a, 1, {BM, BK}), {&acc}, [&](const tt::expr& kk) {
      acc = acc + tt::matmul(tt::load(a, {pm, kk}, {BM, BK}), tt::load(b, {kk, 0}, {BK, BN}));
    });
    tt::store(c, {pm, 0}, acc);
  });
  const int m = 8, n = 4, kdim = 12;
  std::vector<float> a(m * kdim), b(kdim * n), c(m * n, NAN);
  for (int i = 0; i < m * kdim; ++i) a[std::size_t(i)] = float(i % 7) - 3;
  for (int i = 0; i < kdim * n; ++i) b[std::size_t(i)] = float(i % 5) - 2;
  k.interpret({2}, {tt::view(a.data(), float32, {m, kdim}), tt::view(b.data(), float32, {kdim, n}),
                    tt::view(c.data(), float32, {m, n}), 4, 4, 4});
  for (int i = 0; i < m; ++i)
    for (int j = 0; j < n; ++j) {
      float ref = 0;
      for (int p = 0; p < kdim; ++p) ref += a[std::size_t(i * kdim + p)] * b[std::size_t(p * n + j)];
      EXPECT_FLOAT_EQ(c[std::size_t(i * n + j)], ref);
    }
}

TEST(TileFrontend, StaticNumbersFoldAsInPython) {
  EXPECT_EQ((expr(7) / expr(2)).as_number().f, 3.5);
  EXPECT_EQ(floordiv(expr(-7), expr(2)).as_number().i, -4);
  EXPECT_EQ((expr(-7) % expr(3)).as_number().i, 2);
  EXPECT_TRUE((expr(2) * expr(3) == expr(6)).as_number().i);
  EXPECT_EQ((expr(2) + expr(0.5)).as_number().f, 2.5);
  expect_error([] { (void)floordiv(expr(1), expr(0)); }, error_kind::invalid_argument, "division or modulo by zero");
}

TEST(TileFrontend, ExpressionsUsedOnlyInsideALoopAreEmittedAgainAfterIt) {
  const tt::kernel k("reuse", {"x", "out"}, [](tt::array x, tt::array out) {
    tt::expr twice = tt::load(x, {0}, {4}) * 2.0;  // lazy: not emitted until used
    tt::var acc("acc", tt::zeros({4}, float32));
    tt::for_range(3, {&acc}, [&](const tt::expr&) { acc = acc + twice; });
    tt::store(out, {0}, acc + twice);  // first emitted inside the loop: emitted again here
  });
  std::vector<float> x = {1, 2, 3, 4}, out(4);
  k.interpret({1}, {tt::view(x.data(), float32, {4}), tt::view(out.data(), float32, {4})});
  EXPECT_EQ(out, (std::vector<float>{8, 16, 24, 32}));
}

TEST(TileFrontend, ErrorsNameTheProblem) {
  std::vector<float> x(8);
  const tt::argument xv = tt::view(x.data(), float32, {8});
  const tt::kernel bad_axis("bad_axis", {"x"}, [](tt::array a) { tt::store(a, {0}, tt::sum(tt::load(a, {0}, {8}), 3)); });
  expect_error([&] { bad_axis.ir({xv}); }, error_kind::axis_error, "axis 3 is out of bounds for a tile of rank 1");
  const tt::kernel bad_rank("bad_rank", {"x"}, [](tt::array a) { tt::store(a, {0}, tt::zeros({2, 4}, float32)); });
  expect_error([&] { bad_rank.ir({xv}); }, error_kind::invalid_argument, "rank-2 tile into a 1-d array");
  const tt::kernel bad_index("bad_index", {"x"}, [](tt::array a) { tt::store(a, {0, 0}, tt::zeros({8}, float32)); });
  expect_error([&] { bad_index.ir({xv}); }, error_kind::invalid_argument, "needs 1 tile indices");
  const tt::kernel bad_carry("bad_carry", {"x"}, [](tt::array a) {
    tt::var acc("acc", tt::zeros({8}, int32));
    tt::for_range(2, {&acc}, [&](const tt::expr&) { acc = tt::load(a, {0}, {4}); });
    tt::store(a, {0}, acc);
  });
  expect_error([&] { bad_carry.ir({xv}); }, error_kind::type_error, "loop-carried variable 'acc' changes");
  expect_error([&] { bad_axis.ir({xv, 1}); }, error_kind::type_error, "takes 1 arguments but 2 were given");
  expect_error([] { tt::store(tt::array{}, {}, expr(1)); }, error_kind::invalid_argument, "inside a kernel body");
}

}  // namespace
}  // namespace tegula::tile

namespace tegula::tile {
namespace {

TEST(TileFrontend, RunTimeIfAndWhile) {
  // out[i] = number of halvings (while > 1) of |x[i]| * 100, negated where x < 0 (if/else).
  const tt::kernel k("steps", {"x", "out"}, [](tt::array x, tt::array out) {
    auto b = tt::let("b", tt::bid(0));
    auto v = tt::let("v", tt::load(x, {b}, {1}).reshape({}));
    tt::var n("n", 0);
    tt::var m("m", tt::abs(v) * 100.0);
    tt::while_([&] { return tt::expr(m) > 1.0; }, {&m, &n}, [&] {
      m = tt::expr(m) / 2.0;
      n = tt::expr(n) + 1;
    });
    tt::var r("r", tt::expr(n).astype(float32));
    tt::if_(v < 0.0, {&r}, [&] { r = -tt::expr(r); }, [&] { r = tt::expr(r) + 0.0; });
    tt::store(out, {b}, tt::reshape(r, {1}));
  });
  std::vector<float> x = {0.5f, -0.07f, 0.001f, -3.0f}, out(4, NAN);
  k.interpret({4}, {tt::view(x.data(), float32, {4}), tt::view(out.data(), float32, {4})});
  auto steps = [](float v) {
    float m = std::abs(v) * 100.0f;
    int n = 0;
    while (m > 1.0f) m /= 2.0f, ++n;
    return v < 0 ? -float(n) : float(n);
  };
  for (int i = 0; i < 4; ++i) EXPECT_EQ(out[std::size_t(i)], steps(x[std::size_t(i)])) << i;
  // A constant condition decides at build time: only one branch exists in the IR.
  const tt::kernel c("static_if", {"x", "FLAG"}, [](tt::array x, bool FLAG) {
    tt::var v("v", tt::zeros({4}, float32));
    tt::if_(FLAG, {&v}, [&] { v = tt::expr(v) + 1.0; }, [&] { v = tt::expr(v) - 1.0; });
    tt::store(x, {0}, v);
  });
  std::vector<float> y(4);
  const std::string ir = c.ir({tt::view(y.data(), float32, {4}), true});
  EXPECT_EQ(ir.find(" if "), std::string::npos) << ir;
}

}  // namespace
}  // namespace tegula::tile
