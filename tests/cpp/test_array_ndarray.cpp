// Tests of the C++ array API (array/ndarray) on the CPU interpreter: fused expressions with weak scalars against
// a direct computation, reductions with NumPy's dtypes, views, casts and errors.
#include "tegula/array/ndarray.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

#include "tegula/array/kernels.hpp"
#include "tegula/support/error.hpp"

namespace tegula::array {
namespace {

const where_to cpu = where_to::cpu();

TEST(NdArray, FusedChainMatchesADirectComputation) {
  std::vector<float> h(1000);
  for (int i = 0; i < 1000; ++i) h[std::size_t(i)] = std::sin(float(i)) * 2;
  ndarray x = ndarray::from_vector(h, {1000}, cpu);
  const auto launches = stats().launches;
  ndarray y = exp(-x * x) * 2.0 + 0.5 * x;  // recorded, not run
  EXPECT_EQ(stats().launches, launches);
  EXPECT_EQ(y.dtype(), ir::dtype::f32);  // weak Python-float scalars keep float32
  auto got = y.to_vector<float>();
  EXPECT_EQ(stats().launches, launches + 1);  // one fused kernel
  for (int i = 0; i < 1000; ++i) {
    const float v = h[std::size_t(i)];
    EXPECT_NEAR(got[std::size_t(i)], std::exp(-v * v) * 2.0f + 0.5f * v, 1e-5);
  }
}

TEST(NdArray, ReductionsAndDtypes) {
  std::vector<std::int32_t> h(12);
  std::iota(h.begin(), h.end(), 0);
  ndarray a = ndarray::from_vector(h, {3, 4}, cpu);
  EXPECT_EQ(a.sum().dtype(), ir::dtype::i64);  // NumPy: sum of int32 is int64
  EXPECT_EQ(a.sum().item(), 66);
  EXPECT_EQ(a.sum(1).to_vector<std::int64_t>(), (std::vector<std::int64_t>{6, 22, 38}));
  EXPECT_EQ(a.max(0).to_vector<std::int32_t>(), (std::vector<std::int32_t>{8, 9, 10, 11}));
  EXPECT_EQ(a.mean().dtype(), ir::dtype::f64);
  EXPECT_DOUBLE_EQ(a.mean().item(), 5.5);
  EXPECT_EQ(a.mean(1, true).shape(), (dims{3, 1}));
  EXPECT_EQ(a.cumsum(1).to_vector<std::int64_t>()[3], 6);
  EXPECT_EQ((a / 2.0).dtype(), ir::dtype::f64);  // true division of ints
  EXPECT_EQ((a > 5.0).to_vector<bool>()[6], true);
}

TEST(NdArray, ViewsCastsAndCreation) {
  ndarray r = ndarray::arange(6, ir::dtype::i64, cpu).reshape({2, 3});
  EXPECT_EQ(r.transpose().to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 3, 1, 4, 2, 5}));
  EXPECT_EQ(r.transpose().reshape({6}).to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 3, 1, 4, 2, 5}));  // a copy
  EXPECT_EQ(r.astype(ir::dtype::f32).dtype(), ir::dtype::f32);
  EXPECT_EQ(ndarray::full({2, 2}, 1.5, ir::dtype::f32, cpu).sum().item(), 6.0);
  ndarray w = where(r > 2.0, r, ndarray::zeros({2, 3}, ir::dtype::i64, cpu));
  EXPECT_EQ(w.to_vector<std::int64_t>(), (std::vector<std::int64_t>{0, 0, 0, 3, 4, 5}));
}

TEST(NdArray, ErrorsAreNumPys) {
  ndarray a = ndarray::zeros({2, 3}, ir::dtype::f32, cpu);
  ndarray b = ndarray::zeros({4}, ir::dtype::f32, cpu);
  try {
    (void)(a + b).eval();
    ADD_FAILURE() << "no broadcast error";
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find("could not be broadcast together"), std::string::npos) << e.what();
  }
  try {
    (void)a.sum(5);
    ADD_FAILURE() << "no axis error";
  } catch (const error& e) {
    EXPECT_EQ(e.kind(), error_kind::axis_error);
  }
  try {
    (void)a.item();
    ADD_FAILURE() << "no size error";
  } catch (const error& e) {
    EXPECT_NE(std::string(e.what()).find("size 1"), std::string::npos);
  }
}

}  // namespace
}  // namespace tegula::array
