// Tests of libs/lu_substitution without a GPU: getrf's row interchanges become the permutation they apply, bad
// pivots are refused, and the kernels compile under NVRTC for sm_90 in float32 and float64. (They run in
// tests/gpu/test_gpu_linalg.py.)
#include "tegula/libs/lu_substitution.hpp"

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <utility>
#include <vector>

#include "nvrtc_available.hpp"
#include "tegula/jit/nvrtc.hpp"
#include "tegula/support/error.hpp"

namespace tegula::libs {
namespace {

TEST(LuSubstitution, PermutationAppliesTheSwapsInOrder) {
  std::mt19937 rng(7);
  for (int n : {1, 2, 5, 33, 200}) {
    std::vector<std::int64_t> ipiv(n);
    for (int i = 0; i < n; ++i) ipiv[i] = std::uniform_int_distribution<int>(i, n - 1)(rng) + 1;  // 1-based, >= i
    std::vector<double> b(n), swapped(n);
    for (int i = 0; i < n; ++i) b[i] = swapped[i] = 10.0 * i + 1;
    for (int i = 0; i < n; ++i) std::swap(swapped[i], swapped[ipiv[i] - 1]);  // LAPACK's laswp
    std::vector<std::int32_t> perm = permutation_from_pivots(ipiv.data(), n);
    for (int i = 0; i < n; ++i) EXPECT_EQ(b[perm[i]], swapped[i]) << "n " << n << " row " << i;
  }
}

TEST(LuSubstitution, RefusesPivotsOutsideTheRows) {
  std::vector<std::int64_t> ipiv = {2, 1};  // the second row may only swap with itself or later rows
  EXPECT_THROW((void)permutation_from_pivots(ipiv.data(), 2), error);
  ipiv = {3, 2};
  EXPECT_THROW((void)permutation_from_pivots(ipiv.data(), 2), error);
}

TEST(LuSubstitution, KernelsCompileUnderNvrtc) {
  TEGULA_REQUIRE_NVRTC();
  for (ir::dtype t : {ir::dtype::f32, ir::dtype::f64}) {
    jit::compile_request r;
    r.source = lu_substitution_source(t);
    r.options = {"--std=c++17"};
    r.arch = 90;
    EXPECT_EQ(jit::nvrtc_compile(r).code.substr(0, 4), "\x7f" "ELF") << ir::name(t);
  }
  EXPECT_THROW((void)lu_substitution_source(ir::dtype::c64), error);
}

}  // namespace
}  // namespace tegula::libs
