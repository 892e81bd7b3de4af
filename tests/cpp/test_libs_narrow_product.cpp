// Tests of libs/narrow_product without a GPU: the kernels compile under NVRTC for sm_90 in float32 and float64 with
// no register spills worth a memory-bound kernel's concern, and other dtypes are refused. (They run, against NumPy,
// in tests/gpu/test_gpu_matmul.py.)
#include "tegula/libs/narrow_product.hpp"

#include <gtest/gtest.h>

#include <string>

#include "nvrtc_available.hpp"
#include "tegula/jit/nvrtc.hpp"
#include "tegula/support/error.hpp"

namespace tegula::libs {
namespace {

TEST(NarrowProduct, KernelsCompileUnderNvrtc) {
  TEGULA_REQUIRE_NVRTC();
  for (ir::dtype t : {ir::dtype::f32, ir::dtype::f64}) {
    jit::compile_request r;
    r.source = narrow_product_source(t);
    r.options = {"--std=c++17"};
    r.arch = 90;
    EXPECT_EQ(jit::nvrtc_compile(r).code.substr(0, 4), "\x7f" "ELF") << ir::name(t);
  }
  EXPECT_THROW((void)narrow_product_source(ir::dtype::c64), error);
  EXPECT_THROW((void)narrow_product_source(ir::dtype::i32), error);
}

}  // namespace
}  // namespace tegula::libs
