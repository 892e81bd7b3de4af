// Tests of libs/cub_sort without a GPU: CUB's onesweep kernels, instantiated as radix_sort does, compile under
// NVRTC for sm_90 and every name expression resolves; bad sizes are refused. (The sort itself runs in
// tests/gpu/test_gpu_sort.py.)
#include "tegula/libs/cub_sort.hpp"

#include "tegula/libs/cub_jit.hpp"

#include <gtest/gtest.h>

#include "cccl_available.hpp"
#include "nvrtc_available.hpp"
#include "tegula/jit/nvrtc.hpp"
#include "tegula/support/error.hpp"

namespace tegula::libs {
namespace {

class CubSort : public ::testing::TestWithParam<std::tuple<std::string, int, int>> {};

TEST_P(CubSort, CompilesUnderNvrtc) {
  TEGULA_REQUIRE_NVRTC();
  std::string inc = cccl_include_dir_or_empty();
  if (inc.empty()) GTEST_SKIP() << "no CCCL headers on this machine";
  auto [key, value, offset] = GetParam();
  cub_sort_program p = cub_sort_source(key, value, offset);
  jit::compile_request r;
  r.source = p.source;
  r.options = {"--std=c++17", "-I" + inc};
  r.name_expressions = {p.histogram, p.exclusive_sum, p.onesweep};
  r.arch = 90;
  jit::compile_result out = jit::nvrtc_compile(r);
  EXPECT_EQ(out.code.substr(0, 4), "\x7f" "ELF");
  ASSERT_EQ(out.lowered_names.size(), 3u);
  for (const auto& [expr, mangled] : out.lowered_names) EXPECT_FALSE(mangled.empty()) << expr;
}

INSTANTIATE_TEST_SUITE_P(KeyValueOffset, CubSort,
                         ::testing::Values(std::make_tuple("uint32", 0, 4), std::make_tuple("uint32", 4, 4),
                                           std::make_tuple("uint64", 8, 8), std::make_tuple("float32", 0, 4),
                                           std::make_tuple("float64", 0, 4), std::make_tuple("int64", 4, 4),
                                           std::make_tuple("uint32", 8, 4)));

void expect_refused(const std::string& key, int value, int offset, const std::string& part) {
  try {
    (void)cub_sort_source(key, value, offset);
    ADD_FAILURE() << "no error for " << key << "/" << value << "/" << offset;
  } catch (const error& e) {
    EXPECT_EQ(e.kind(), error_kind::invalid_argument);
    EXPECT_NE(std::string(e.what()).find(part), std::string::npos) << e.what();
  }
}

TEST(CubSortSource, RefusesBadSizes) {
  expect_refused("uint16", 0, 4, "keys are uint32, uint64, int32, int64, float32 or float64");
  expect_refused("uint32", 2, 4, "values are 0, 4 or 8 bytes");
  expect_refused("uint32", 0, 2, "offsets are 4 or 8 bytes");
}

}  // namespace
}  // namespace tegula::libs
