// Tests of runtime/profiler without a GPU: recording only while active, host scopes (the interpreter's and
// library calls' records), compiles, memory records and bytes notes; plus NVTX ranges (support/nvtx).
#include "tegula/runtime/profiler.hpp"

#include <gtest/gtest.h>

#include <thread>

#include "tegula/support/nvtx.hpp"

namespace tegula::rt::prof {
namespace {

TEST(Profiler, RecordsOnlyWhileActive) {
  record_compile("before", 0.5, "compiled");
  EXPECT_FALSE(active());
  start(false);
  EXPECT_TRUE(active());
  {
    host_scope s(kind::interpret, "k", nullptr, 4096);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  record_compile("prog.cu", 0.25, "disk");
  record_memory(kind::alloc, 1 << 20, 0);
  record_memory(kind::free, 1 << 20, 0);
  auto rs = stop();
  EXPECT_FALSE(active());
  record_memory(kind::alloc, 1, 0);  // after stop: not recorded anywhere
  ASSERT_EQ(rs.size(), 4u);
  EXPECT_EQ(rs[0].what, kind::interpret);
  EXPECT_EQ(rs[0].name, "k");
  EXPECT_EQ(rs[0].bytes, 4096u);
  EXPECT_EQ(rs[0].device, -1);
  EXPECT_GE(rs[0].host_us, 1500.0);
  EXPECT_EQ(rs[0].gpu_us, -1);
  EXPECT_EQ(rs[1].what, kind::compile);
  EXPECT_EQ(rs[1].detail, "disk");
  EXPECT_DOUBLE_EQ(rs[1].host_us, 250000.0);
  EXPECT_EQ(std::string(kind_name(rs[2].what)), "alloc");
  EXPECT_EQ(std::string(kind_name(rs[3].what)), "free");
}

TEST(Profiler, RestartClearsAndScopesOutliveStop) {
  start(false);
  record_memory(kind::alloc, 8, 0);
  start(false);  // a new profile forgets the old records
  auto* s = new host_scope(kind::library, "lib");
  auto rs = stop();
  delete s;  // ends after the profile stopped: harmless
  ASSERT_EQ(rs.size(), 1u);
  EXPECT_EQ(rs[0].name, "lib");
}

TEST(Profiler, NoteBytesIsIgnoredWhenInactive) {
  note_bytes(123);  // inactive: must not leak into the next profile's first launch
  start(false);
  EXPECT_TRUE(stop().empty());
}

TEST(Nvtx, RangesNest) {
  nvtx_push("outer");
  { nvtx_range inner("inner"); }
  nvtx_pop();
  SUCCEED();
}

}  // namespace
}  // namespace tegula::rt::prof
