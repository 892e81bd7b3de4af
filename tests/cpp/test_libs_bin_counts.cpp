// libs/bin_counts without a GPU: the counting kernels (bin indices, and values into equal bins) compile under NVRTC for sm_90; bad lengths are refused
// before any GPU work. (They run in tests/gpu/test_gpu_histogram.py.)
#include "tegula/libs/bin_counts.hpp"

#include <gtest/gtest.h>

#include "nvrtc_available.hpp"
#include "tegula/jit/nvrtc.hpp"
#include "tegula/support/error.hpp"

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
  for (const char* x : {"float32", "float64", "int32", "int64"})
    for (bin_weights w : {bin_weights::none, bin_weights::int64, bin_weights::float64}) {
      r.source = bin_counts_uniform_source(x, w);
      EXPECT_EQ(jit::nvrtc_compile(r).code.substr(0, 4), "\x7f" "ELF") << x << " weights " << int(w);
    }
  EXPECT_THROW((void)bin_counts_uniform_source("float16", bin_weights::none), error);
}

}  // namespace
}  // namespace tegula::libs
