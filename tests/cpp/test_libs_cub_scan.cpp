// Tests of libs/cub_scan without a GPU: the AgentScan wrappers compile under NVRTC for sm_90 for the dtypes
// tegula.numpy routes here, with CUB's tile sizes; bad dtypes are refused. (The scan runs in tests/gpu.)
#include "tegula/libs/cub_scan.hpp"

#include <gtest/gtest.h>

#include <string>

#include "cccl_available.hpp"
#include "nvrtc_available.hpp"
#include "tegula/jit/nvrtc.hpp"
#include "tegula/libs/cub_jit.hpp"
#include "tegula/support/error.hpp"

namespace tegula::libs {
namespace {

class CubScan : public ::testing::TestWithParam<std::tuple<std::string, std::string, bool, int>> {};

TEST_P(CubScan, CompilesUnderNvrtc) {
  TEGULA_REQUIRE_NVRTC();
  const std::string inc = cccl_include_dir_or_empty();
  if (inc.empty()) GTEST_SKIP() << "no CCCL headers on this machine";
  auto [in, out, multiply, offset] = GetParam();
  cub_scan_program p = cub_scan_source(in, out, multiply, offset);
  EXPECT_EQ(p.threads * p.items, out.find("64") != std::string::npos ? 224 * 12 : 128 * 32);
  jit::compile_request r;
  r.source = p.source;
  r.options = {"--std=c++17", "-I" + inc};
  r.arch = 90;
  jit::compile_result c = jit::nvrtc_compile(r);
  EXPECT_EQ(c.code.substr(0, 4), "\x7f" "ELF");
}

TEST(CubScanTile, ChosenTilesAndLoadVariantsCompile) {
  TEGULA_REQUIRE_NVRTC();
  const std::string inc = cccl_include_dir_or_empty();
  if (inc.empty()) GTEST_SKIP() << "no CCCL headers on this machine";
  cub_scan_program p = cub_scan_source("float32", "float32", false, 4, 128, 32, 1);
  EXPECT_EQ(p.threads, 128);
  EXPECT_EQ(p.items, 32);
  EXPECT_NE(p.source.find("BLOCK_LOAD_VECTORIZE"), std::string::npos);
  jit::compile_request r;
  r.source = p.source;
  r.options = {"--std=c++17", "-I" + inc};
  r.arch = 90;
  EXPECT_EQ(jit::nvrtc_compile(r).code.substr(0, 4), "\x7f" "ELF");
  EXPECT_THROW((void)cub_scan_source("float32", "float32", false, 4, 100, 32), error);
  for (int delay : {1, 2, 3}) {  // the look-back wait variants the bench sweeps
    r.source = cub_scan_source("float32", "float32", false, 4, 128, 32, 0, delay).source;
    EXPECT_EQ(jit::nvrtc_compile(r).code.substr(0, 4), "\x7f" "ELF") << "delay variant " << delay;
  }
  for (int load : {2, 3}) {  // the load variants the bench sweeps
    p = cub_scan_source("float32", "float32", false, 4, 128, 32, load);
    EXPECT_NE(p.source.find(load == 2 ? "LOAD_LDG" : "LOAD_CS"), std::string::npos);
    r.source = p.source;
    EXPECT_EQ(jit::nvrtc_compile(r).code.substr(0, 4), "\x7f" "ELF") << "load variant " << load;
  }
  EXPECT_THROW((void)cub_scan_source("float32", "float32", false, 4, 128, 32, 0, 4), error);
  EXPECT_THROW((void)cub_scan_source("float32", "float32", false, 4, 128, 32, 4, 0), error);
}

INSTANTIATE_TEST_SUITE_P(Types, CubScan,
                         ::testing::Values(std::make_tuple(std::string("float32"), std::string("float32"), false, 4),
                                           std::make_tuple(std::string("float64"), std::string("float64"), true, 8),
                                           std::make_tuple(std::string("int8"), std::string("int64"), false, 4),
                                           std::make_tuple(std::string("bool"), std::string("int64"), false, 4),
                                           std::make_tuple(std::string("uint32"), std::string("uint64"), true, 4)));

TEST(CubScanSource, RefusesBadTypes) {
  auto refused = [](const char* in, const char* out, error_kind kind) {
    try {
      (void)cub_scan_source(in, out, false, 4);
      ADD_FAILURE() << in << " -> " << out;
    } catch (const error& e) {
      EXPECT_EQ(e.kind(), kind) << e.what();
    }
  };
  refused("complex64", "complex64", error_kind::type_error);
  refused("float16", "float32", error_kind::type_error);
  refused("int8", "int32", error_kind::type_error);
}

}  // namespace
}  // namespace tegula::libs
