// Tests of jit/nvrtc: CUBIN and PTX output, headers, name expressions, compile errors.
#include "tegula/jit/nvrtc.hpp"

#include <gtest/gtest.h>

#include "nvrtc_available.hpp"
#include "tegula/support/error.hpp"

namespace tegula::jit {
namespace {

const char* axpy_source = R"(
extern "C" __global__ void axpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
)";

TEST(Nvrtc, Version) {
  TEGULA_REQUIRE_NVRTC();
  int v = nvrtc_version();
  EXPECT_GE(v, 12000);
  EXPECT_EQ(v % 10, 0);
  EXPECT_NE(nvrtc_path().find("nvrtc"), std::string::npos);
}

TEST(Nvrtc, CubinIsElf) {
  TEGULA_REQUIRE_NVRTC();
  compile_request r;
  r.source = axpy_source;
  r.arch = 90;
  compile_result out = nvrtc_compile(r);
  EXPECT_EQ(out.kind, target::cubin);
  ASSERT_GE(out.code.size(), 4u);
  EXPECT_EQ(out.code.substr(0, 4), "\x7f" "ELF");
}

TEST(Nvrtc, ArchSpecificCubin) {
  TEGULA_REQUIRE_NVRTC();
  compile_request r;
  r.source = axpy_source;
  r.arch = 90;
  r.arch_specific = true;
  EXPECT_EQ(nvrtc_compile(r).code.substr(0, 4), "\x7f" "ELF");
}

TEST(Nvrtc, PtxHasEntry) {
  TEGULA_REQUIRE_NVRTC();
  compile_request r;
  r.source = axpy_source;
  r.kind = target::ptx;
  compile_result out = nvrtc_compile(r);
  EXPECT_EQ(out.kind, target::ptx);
  EXPECT_NE(out.code.find(".entry"), std::string::npos);
  EXPECT_NE(out.code.find("axpy"), std::string::npos);
  EXPECT_NE(out.code.find(".target sm_90"), std::string::npos);
  EXPECT_EQ(out.code.find('\0'), std::string::npos);  // text, no embedded NUL
}

TEST(Nvrtc, NamedHeadersAndOptions) {
  TEGULA_REQUIRE_NVRTC();
  compile_request r;
  r.source = "#include \"my_scale.h\"\n"
             "extern \"C\" __global__ void k(float* y) { y[0] = MY_SCALE * OFFSET; }\n";
  r.headers = {{"my_scale.h", "#define MY_SCALE 3.0f\n"}};
  r.options = {"-DOFFSET=2.0f", "-std=c++17"};
  r.kind = target::ptx;
  EXPECT_NE(nvrtc_compile(r).code.find(".entry k"), std::string::npos);
}

TEST(Nvrtc, NameExpressionLowered) {
  TEGULA_REQUIRE_NVRTC();
  compile_request r;
  r.source = R"(
template <class T> __global__ void scale(T* y, T a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] *= a;
}
)";
  r.name_expressions = {"scale<float>", "scale<double>"};
  compile_result out = nvrtc_compile(r);
  ASSERT_EQ(out.lowered_names.size(), 2u);
  EXPECT_EQ(out.lowered_names[0].first, "scale<float>");
  EXPECT_EQ(out.lowered_names[0].second.rfind("_Z", 0), 0u) << out.lowered_names[0].second;
  EXPECT_EQ(out.lowered_names[1].first, "scale<double>");
  EXPECT_NE(out.lowered_names[0].second, out.lowered_names[1].second);
}

TEST(Nvrtc, SyntaxErrorThrowsCompileErrorWithLog) {
  TEGULA_REQUIRE_NVRTC();
  compile_request r;
  r.name = "broken_kernel.cu";
  r.source = "extern \"C\" __global__ void k(float* y) {\n  y[0] = undefined_thing;\n}\n";
  try {
    nvrtc_compile(r);
    FAIL() << "expected a compile error";
  } catch (const error& e) {
    EXPECT_EQ(e.kind(), error_kind::compile);
    EXPECT_NE(e.code(), 0);
    std::string msg = e.what();
    EXPECT_NE(msg.find("broken_kernel.cu"), std::string::npos) << msg;
    EXPECT_NE(msg.find("identifier \"undefined_thing\" is undefined"), std::string::npos) << msg;
    EXPECT_NE(msg.find("(2)"), std::string::npos) << msg;  // the log's line number
  }
}

TEST(Nvrtc, InvalidOptionThrowsCompileError) {
  TEGULA_REQUIRE_NVRTC();
  compile_request r;
  r.source = axpy_source;
  r.options = {"--no-such-option"};
  try {
    nvrtc_compile(r);
    FAIL() << "expected a compile error";
  } catch (const error& e) {
    EXPECT_EQ(e.kind(), error_kind::compile);
    EXPECT_NE(std::string(e.what()).find("--no-such-option"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace tegula::jit
