// Runtime pieces that need no GPU: launch-config validation, parameter packing, driver absence.
#include <gtest/gtest.h>

#include <cstdint>

#include "tegula/runtime/driver.hpp"
#include "tegula/runtime/launch.hpp"
#include "tegula/support/error.hpp"

namespace tegula::rt {
namespace {

error_kind kind_of(const launch_config& c) {
  try {
    c.validate();
  } catch (const error& e) {
    return e.kind();
  }
  return error_kind::internal;  // "no error"
}

TEST(LaunchConfig, AcceptsUsualShapes) {
  launch_config c;
  c.grid = {132 * 4, 1, 1};
  c.block = {256, 1, 1};
  EXPECT_NO_THROW(c.validate());
  c.block = {32, 32, 1};
  EXPECT_NO_THROW(c.validate());
}

TEST(LaunchConfig, RejectsZeroAndOverLimitDimensions) {
  launch_config c;
  c.grid = {0, 1, 1};
  EXPECT_EQ(kind_of(c), error_kind::invalid_argument);
  c.grid = {1, 1, 1};
  c.block = {64, 32, 1};  // 2048 threads
  EXPECT_EQ(kind_of(c), error_kind::invalid_argument);
  c.block = {1, 1, 65};
  EXPECT_EQ(kind_of(c), error_kind::invalid_argument);
  c.block = {1, 1, 1};
  c.grid = {1, 70000, 1};
  EXPECT_EQ(kind_of(c), error_kind::invalid_argument);
  c.grid = {1, 1, 1};
  c.cluster = {0, 1, 1};
  EXPECT_EQ(kind_of(c), error_kind::invalid_argument);
}

TEST(ParamBuffer, PutsBytesAtOffsetsAndGrowsPastTheInlineSize) {
  param_buffer small(16);
  std::int32_t i = -7;
  double d = 2.5;
  small.put(0, &i, 4);
  small.put(8, &d, 8);
  EXPECT_EQ(small.size(), 16u);
  EXPECT_EQ(*reinterpret_cast<std::int32_t*>(small.data()), -7);
  EXPECT_EQ(*reinterpret_cast<double*>(small.data() + 8), 2.5);
  param_buffer big(4096);
  big.put(4088, &d, 8);
  EXPECT_EQ(*reinterpret_cast<double*>(big.data() + 4088), 2.5);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(big.data()) % 8, 0u);
}

TEST(Driver, StickyErrorsAreRecognised) {
  EXPECT_TRUE(is_sticky(CUDA_ERROR_ILLEGAL_ADDRESS));
  EXPECT_TRUE(is_sticky(CUDA_ERROR_LAUNCH_FAILED));
  EXPECT_FALSE(is_sticky(CUDA_ERROR_INVALID_VALUE));
  EXPECT_FALSE(is_sticky(CUDA_ERROR_OUT_OF_MEMORY));
}

TEST(Driver, AbsenceIsAClearErrorEveryTime) {
  std::string why;
  if (driver_available(&why)) GTEST_SKIP() << "a CUDA driver is present";
  EXPECT_NE(why.find("libcuda"), std::string::npos);
  for (int attempt = 0; attempt < 2; ++attempt) {
    try {
      drv();
      FAIL() << "drv() should throw without a driver";
    } catch (const error& e) {
      EXPECT_EQ(e.kind(), error_kind::driver_missing);
      EXPECT_NE(std::string(e.what()).find("no CUDA driver"), std::string::npos);
    }
  }
}

}  // namespace
}  // namespace tegula::rt
