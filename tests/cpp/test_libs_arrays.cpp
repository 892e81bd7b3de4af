// Tests of the library calls over engine arrays (libs/arrays, matmul_arrays, fft_arrays, scan_arrays, sort_arrays,
// bin_count_arrays, solver_arrays) on the CPU: inputs materialised and outputs' readers flushed by the entry point
// itself, operands handed over as they lie or copied, the host references against direct computations, and bad
// input answered by an error before memory is touched.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <numeric>

#include "tegula/array/ndarray.hpp"
#include "tegula/libs/arrays.hpp"
#include "tegula/libs/bin_count_arrays.hpp"
#include "tegula/libs/fft_arrays.hpp"
#include "tegula/libs/matmul_arrays.hpp"
#include "tegula/libs/scan_arrays.hpp"
#include "tegula/libs/solver_arrays.hpp"
#include "tegula/libs/sort_arrays.hpp"
#include "tegula/support/error.hpp"

namespace tegula::libs {
namespace {

using array::ndarray;
const array::where_to cpu = array::where_to::cpu();

std::vector<double> ramp(std::size_t n, double scale) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = std::sin(double(i) * 0.7) * scale;
  return v;
}

TEST(LibsArrays, AnInputIsMaterialisedAndAnOutputsReadersFlushed) {
  ndarray x = ndarray::from_vector(ramp(8, 1), {8}, cpu);
  ndarray y = x * 2.0;  // pending, reads x
  EXPECT_TRUE(y.handle()->pending());
  const auto& leaf = input(y.handle());
  EXPECT_FALSE(y.handle()->pending());
  EXPECT_EQ(leaf.size(), 8);
  ndarray z = x + 1.0;  // pending reader of x's memory
  const auto writes = x.handle()->data->writes;
  output(x.handle());
  EXPECT_FALSE(z.handle()->pending());  // took its value before the library may write x
  EXPECT_EQ(x.handle()->data->writes, writes + 1);
}

TEST(LibsArrays, GemmOnTheHostReferenceMatchesADirectProduct) {
  const std::int64_t m = 7, k = 5, n = 3;
  auto ha = ramp(std::size_t(2 * m * k), 1), hb = ramp(std::size_t(k * n), 2);
  ndarray a = ndarray::from_vector(ha, {2, m, k}, cpu), b = ndarray::from_vector(hb, {k, n}, cpu);
  ndarray d(gemm(a.handle(), b.handle(), {2}, m, n, k, ir::dtype::f64));
  ASSERT_EQ(d.shape(), (array::dims{2, m, n}));
  auto got = d.to_vector<double>();
  for (int bb = 0; bb < 2; ++bb)
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        double s = 0;
        for (int l = 0; l < k; ++l) s += ha[std::size_t(bb * m * k + i * k + l)] * hb[std::size_t(l * n + j)];
        EXPECT_NEAR(got[std::size_t(bb * m * n + i * n + j)], s, 1e-12);
      }
}

TEST(LibsArrays, OperandsPassAsTheyLieOrAreCopied) {
  ndarray x = ndarray::from_vector(ramp(64 * 32, 1), {64, 32}, cpu);
  gemm_operand o = gemm_operand_of(x.handle(), {}, 64, 32, false);
  EXPECT_FALSE(o.trans);
  EXPECT_EQ(o.ld, 32);
  EXPECT_FALSE(o.copied);
  o = gemm_operand_of(x.transpose().handle(), {}, 32, 64, false);  // a transposed view: no copy
  EXPECT_TRUE(o.trans);
  EXPECT_FALSE(o.copied);
  ndarray odd = ndarray::from_vector(ramp(10 * 7, 1), {10, 7}, cpu).astype(ir::dtype::f32);
  o = gemm_operand_of(odd.handle(), {}, 10, 7, false);  // 28-byte rows: copied into 32-byte rows
  EXPECT_TRUE(o.copied);
  EXPECT_EQ(o.ld, 8);
  o = gemm_operand_of(odd.handle(), {}, 10, 7, true);  // a narrow product reads them as they lie
  EXPECT_FALSE(o.copied);
  EXPECT_THROW(gemm_operand_of(x.handle(), {}, 32, 32, false), error);  // does not broadcast
  EXPECT_THROW(gemm(x.handle(), odd.handle(), {}, 64, 7, 32, ir::dtype::f64), error);  // dtype mismatch
}

TEST(LibsArrays, SortsKeepCubsOrderAndLeaveReadInputsAlone) {
  std::vector<float> h{3.f, NAN, -0.f, 0.f, -1.f, 2.f};
  ndarray k = ndarray::from_vector(h, {6}, cpu);
  ndarray v = ndarray::arange(6, ir::dtype::i32, cpu);
  auto [sk, sv] = radix_sort(k.handle(), v.handle(), 32, false);
  EXPECT_EQ(ndarray(sv).to_vector<std::int32_t>(), (std::vector<std::int32_t>{4, 2, 3, 5, 0, 1}));
  auto keys = ndarray(sk).to_vector<float>();
  EXPECT_TRUE(std::signbit(keys[1]) && !std::signbit(keys[2]) && std::isnan(keys[5]));
  EXPECT_EQ(k.to_vector<float>()[0], 3.f);  // read, left alone
  std::vector<std::uint32_t> u{7, 0x105, 3, 0x204};
  auto [su, none] = radix_sort(ndarray::from_vector(u, {4}, cpu).handle(), nullptr, 8, true);  // the low 8 bits
  EXPECT_EQ(ndarray(su).to_vector<std::uint32_t>(), (std::vector<std::uint32_t>{3, 0x204, 0x105, 7}));
  EXPECT_EQ(none, nullptr);
  EXPECT_THROW(radix_sort(k.handle(), nullptr, 33, false), error);
}

TEST(LibsArrays, ScansInNumpysDtypes) {
  std::vector<std::int8_t> h{100, 100, -50, 7};
  ndarray r(inclusive_scan(ndarray::from_vector(h, {2, 2}, cpu).handle(), false));
  EXPECT_EQ(r.dtype(), ir::dtype::i64);
  EXPECT_EQ(r.shape(), (array::dims{2, 2}));
  EXPECT_EQ(r.to_vector<std::int64_t>(), (std::vector<std::int64_t>{100, 200, 150, 157}));
  ndarray p(inclusive_scan(ndarray::from_vector(std::vector<double>{1.5, 2, -1}, {3}, cpu).handle(), true));
  EXPECT_EQ(p.to_vector<double>(), (std::vector<double>{1.5, 3, -3}));
  EXPECT_EQ(scan_engine_name(current_scan_settings().engine), "chained");
  EXPECT_EQ(current_scan_settings().tile.threads, 128);
  EXPECT_THROW(scan_engine_from_name("fast"), error);
}

TEST(LibsArrays, TheDirectTransformMatchesTheDefinition) {
  const int n = 6;
  auto h = ramp(n, 1);
  ndarray x = ndarray::from_vector(h, {n}, cpu);
  ndarray r(fft_last_axis(x.handle(), fft_kind::r2c, n, false));
  ASSERT_EQ(r.dtype(), ir::dtype::c128);
  ASSERT_EQ(r.shape(), (array::dims{n / 2 + 1}));
  ndarray back(fft_last_axis(r.handle(), fft_kind::c2r, n, true));
  auto got = back.to_vector<double>();
  for (int i = 0; i < n; ++i) EXPECT_NEAR(got[std::size_t(i)] / n, h[std::size_t(i)], 1e-12);
  EXPECT_THROW(fft_last_axis(x.handle(), fft_kind::c2c, n, false), error);     // real input to c2c
  EXPECT_THROW(fft_last_axis(x.handle(), fft_kind::r2c, n + 1, false), error);  // wrong length
}

TEST(LibsArrays, GpuOnlyCallsRefuseCpuArrays) {
  ndarray idx = ndarray::arange(4, ir::dtype::i64, cpu);
  EXPECT_THROW(count_bins(idx.handle(), 4, nullptr), error);
  ndarray a = ndarray::zeros({3, 3}, ir::dtype::f64, cpu), piv = ndarray::zeros({3}, ir::dtype::i64, cpu);
  EXPECT_THROW(solver::getrf(a.handle(), piv.handle()), error);
}

}  // namespace
}  // namespace tegula::libs
