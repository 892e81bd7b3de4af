// Tests of libs/matrix_pass without a GPU: the host reference against plain double sums (every product count, tails
// of rows and columns, narrow outputs), the grid covers the matrix in one wave, bad problems are refused, and the
// kernels compile under NVRTC for sm_90. (The GPU kernels run in tests/gpu/test_gpu_matrix_pass.py.)
#include "tegula/libs/matrix_pass.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

#include "nvrtc_available.hpp"
#include "tegula/jit/nvrtc.hpp"
#include "tegula/support/error.hpp"

namespace tegula::libs {
namespace {

std::uintptr_t at(const std::vector<double>& v) { return reinterpret_cast<std::uintptr_t>(v.data()); }

TEST(MatrixPass, HostSumsMatchEveryCount) {
  std::mt19937 rng(3);
  std::normal_distribution<double> d;
  for (auto [rows, cols, ld] : {std::tuple{37, 1029, 1030}, {1, 2, 2}, {300, 70, 72}, {64, 2048, 2048}}) {
    std::vector<double> m(static_cast<std::size_t>(rows * ld));
    for (auto& x : m) x = d(rng);
    for (int ny = 0; ny <= matrix_pass_max_y; ++ny)
      for (int nz : {0, 1, 3, 8}) {
        if (ny + nz == 0) continue;
        std::vector<double> u(static_cast<std::size_t>(ny * cols)), v(static_cast<std::size_t>(nz * rows));
        for (auto& x : u) x = d(rng);
        for (auto& x : v) x = d(rng);
        std::vector<double> y(static_cast<std::size_t>(ny * rows), NAN), z(static_cast<std::size_t>(nz * cols), NAN);
        pass_problem p;
        p.m = {ir::dtype::f64, at(m), rows, cols, ld};
        p.u = at(u), p.v = at(v), p.ny = ny, p.nz = nz;
        for (int k = 0; k < ny; ++k) p.y.push_back({at(y) + sizeof(double) * k * rows, k, 1});
        if (nz > 0) p.z.push_back({at(z), 0, nz});  // one narrow output holding every z row
        matrix_pass_host(p);
        for (int k = 0; k < ny; ++k)
          for (int r = 0; r < rows; ++r) {
            double want = 0;
            for (int c = 0; c < cols; ++c) want += m[r * ld + c] * u[k * cols + c];
            EXPECT_NEAR(y[k * rows + r], want, 1e-9 * cols) << rows << "x" << cols << " y" << k << " row " << r;
          }
        for (int j = 0; j < nz; ++j)
          for (int c = 0; c < cols; ++c) {
            double want = 0;
            for (int r = 0; r < rows; ++r) want += v[j * rows + r] * m[r * ld + c];
            EXPECT_NEAR(z[j * cols + c], want, 1e-9 * rows) << rows << "x" << cols << " z" << j << " col " << c;
          }
      }
  }
}

TEST(MatrixPassGrid, OneWaveCoversEveryRowAndColumn) {
  for (auto [rows, cols] : {std::pair<std::int64_t, std::int64_t>{18000, 22000}, {30000, 10000}, {5, 3}, {1, 1 << 22},
                            {1 << 22, 7}}) {
    for (ir::dtype t : {ir::dtype::f32, ir::dtype::f64}) {
      const pass_matrix m{t, 0, rows, cols, cols};
      const pass_grid g = matrix_pass_grid(m, 3 * 132);
      const std::int64_t tc = matrix_pass_threads * (t == ir::dtype::f32 ? 4 : 2);
      EXPECT_GE(g.col_tiles * tc, cols);
      EXPECT_LT((g.col_tiles - 1) * tc, cols);
      EXPECT_GE(g.row_splits * g.rows_per_split, rows);
      EXPECT_LT((g.row_splits - 1) * g.rows_per_split, rows);
      EXPECT_EQ(g.rows_per_split % 32, 0);
      EXPECT_LE(g.row_splits, 65535);
      if (g.col_tiles < 3 * 132 && rows >= 32 * 3 * 132) EXPECT_GE(g.col_tiles * g.row_splits, 3 * 132 * 9 / 10);
    }
  }
}

TEST(MatrixPass, RefusesProblemsOutOfBounds) {
  std::vector<double> m(64), u(8), v(8), y(8);
  pass_problem p;
  p.m = {ir::dtype::f64, at(m), 8, 8, 8};
  p.u = at(u), p.v = at(v);
  EXPECT_THROW(matrix_pass_host(p), error);  // no product at all
  p.ny = 3;
  EXPECT_THROW(matrix_pass_host(p), error);
  p.ny = 1, p.nz = 9;
  EXPECT_THROW(matrix_pass_host(p), error);
  p.nz = 0;
  p.y.push_back({at(y), 1, 1});  // vector 1 of one
  EXPECT_THROW(matrix_pass_host(p), error);
  p.y = {{at(y), 0, 1}};
  p.m.ld = 4;  // narrower than the columns
  EXPECT_THROW(matrix_pass_host(p), error);
  p.m.ld = 8;
  p.m.t = ir::dtype::i32;
  EXPECT_THROW(matrix_pass_host(p), error);
  EXPECT_FALSE(matrix_pass_fits({ir::dtype::f64, 8, 8, 8, 8}));    // start not 16-byte aligned
  EXPECT_FALSE(matrix_pass_fits({ir::dtype::f64, 16, 8, 7, 7}));   // row stride of 56 bytes
  EXPECT_FALSE(matrix_pass_fits({ir::dtype::f32, 16, 8, 7, 6}));   // ld < cols
  EXPECT_TRUE(matrix_pass_fits({ir::dtype::f32, 16, 8, 7, 8}));
  EXPECT_FALSE(matrix_pass_fits({ir::dtype::c64, 16, 8, 8, 8}));
}

TEST(MatrixPass, KernelsCompileUnderNvrtc) {
  TEGULA_REQUIRE_NVRTC();
  for (ir::dtype t : {ir::dtype::f32, ir::dtype::f64}) {
    jit::compile_request r;
    r.source = matrix_pass_source(t);
    r.options = {"--std=c++17"};
    r.arch = 90;
    EXPECT_EQ(jit::nvrtc_compile(r).code.substr(0, 4), "\x7f" "ELF") << ir::name(t);
  }
  EXPECT_THROW((void)matrix_pass_source(ir::dtype::i64), error);
}

}  // namespace
}  // namespace tegula::libs
