// libs/bin_counts without a GPU: the counting kernels compile under NVRTC for sm_90; bad lengths are refused
// before any GPU work. (They run in tests/gpu/test_gpu_histogram.py.)
#include "tegula/libs/bin_counts.hpp"

#include <gtest/gtest.h>

#include "nvrtc_available.hpp"
#include "tegula/jit/nvrtc.hpp"

namespace tegula::libs {
namespace {

TEST(BinCounts, KernelsCompileUnderNvrtc) {
  TEGULA_REQUIRE_NVRTC();
  jit::compile_request r;
  r.source = bin_counts_source();
  r.options = {"--std=c++17"};
  r.arch = 90;
  r.name_expressions = {};
  jit::compile_result c = jit::nvrtc_compile(r);
  EXPECT_EQ(c.code.substr(0, 4), "\x7f" "ELF");
}

}  // namespace
}  // namespace tegula::libs
