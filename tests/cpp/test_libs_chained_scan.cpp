// Tests of libs/chained_scan without a GPU: every tile and load/store variant the bench sweeps compiles under NVRTC
// for sm_90 with no local memory (a spill would cost bandwidth), and bad tiles are refused. (The kernel runs in
// tests/gpu/test_gpu_scan.py.)
#include "tegula/libs/chained_scan.hpp"

#include <gtest/gtest.h>

#include <string>
#include <tuple>

#include "nvrtc_available.hpp"
#include "tegula/jit/nvrtc.hpp"
#include "tegula/support/error.hpp"

namespace tegula::libs {
namespace {

TEST(ChainedScan, VariantsCompileWithoutSpills) {
  TEGULA_REQUIRE_NVRTC();
  // (multiply, threads, items, load, store), each as a persistent grid and as one tile per block
  for (int grid : {0, 1, 2})
  for (auto [mul, threads, items, load, store] :
       {std::make_tuple(false, chained_scan_threads, chained_scan_items, 0, 0), std::make_tuple(true, 256, 16, 0, 0),
        std::make_tuple(false, 256, 32, 1, 1), std::make_tuple(false, 128, 16, 2, 0),
        std::make_tuple(false, 512, 8, 0, 1), std::make_tuple(false, 1024, 4, 1, 0)}) {
    jit::compile_request r;
    r.source = chained_scan_source(mul, threads, items, load, store, threads == 256 ? 200 : 0, items == 32 ? 1 : 0,
                                   grid, grid == 2 ? 16 : 1);
    r.options = {"--std=c++17", "-Xptxas", "-v"};
    r.arch = 90;
    jit::compile_result c = jit::nvrtc_compile(r);
    EXPECT_EQ(c.code.substr(0, 4), "\x7f" "ELF") << threads << "x" << items;
    EXPECT_NE(c.log.find("0 bytes spill stores"), std::string::npos)
        << threads << "x" << items << " grid " << grid << ": " << c.log;
    EXPECT_NE(c.log.find("0 bytes stack frame"), std::string::npos) << threads << "x" << items << " grid " << grid;
  }
}

TEST(ChainedScan, RefusesBadTiles) {
  EXPECT_THROW((void)chained_scan_source(false, 100, 16, 0, 0), error);  // not whole warps
  EXPECT_THROW((void)chained_scan_source(false, 2048, 16, 0, 0), error);
  EXPECT_THROW((void)chained_scan_source(false, 256, 6, 0, 0), error);   // not whole float4s
  EXPECT_THROW((void)chained_scan_source(false, 256, 0, 0, 0), error);
  EXPECT_THROW((void)chained_scan_source(false, 256, 16, 3, 0), error);  // no such load variant
  EXPECT_THROW((void)chained_scan_source(false, 256, 16, 0, 0, -1, 0), error);  // negative delay
  EXPECT_THROW((void)chained_scan_source(false, 256, 16, 0, 0, 0, 9), error);   // 9 look-back warps of 8
  EXPECT_THROW((void)chained_scan_source(false, 256, 16, 0, 2), error);  // no such store variant
  EXPECT_THROW((void)chained_scan_source(false, 256, 16, 0, 0, 0, 0, 3), error);         // no such grid kind
  EXPECT_THROW((void)chained_scan_source(false, 256, 16, 0, 0, 0, 0, 2, 0), error);      // status stride 0
  EXPECT_THROW((void)chained_scan_source(false, 256, 16, 0, 0, 0, 0, 2, 3), error);      // not a power of two
  EXPECT_THROW((void)chained_scan_source(false, 256, 16, 0, 0, 0, 0, 2, 16, 33), error);  // 33 blocks per SM
}

TEST(ChainedScan, TakesOnlySixteenByteAlignedPointers) {
  EXPECT_TRUE(chained_scan_applies(0x1000, 0x2010));
  EXPECT_FALSE(chained_scan_applies(0x1004, 0x2000));
  EXPECT_FALSE(chained_scan_applies(0x1000, 0x2008));
}

}  // namespace
}  // namespace tegula::libs
