// Tests of support/byte_size: sizes with K/M/G/T suffixes (powers of 1024) parsed, bad text refused, printed.
#include "tegula/support/byte_size.hpp"

#include <gtest/gtest.h>

namespace tegula {
namespace {

TEST(ByteSize, Parses) {
  EXPECT_EQ(parse_byte_size("0"), 0u);
  EXPECT_EQ(parse_byte_size("512"), 512u);
  EXPECT_EQ(parse_byte_size("512B"), 512u);
  EXPECT_EQ(parse_byte_size("1K"), 1024u);
  EXPECT_EQ(parse_byte_size("1kb"), 1024u);
  EXPECT_EQ(parse_byte_size("1KiB"), 1024u);
  EXPECT_EQ(parse_byte_size("500M"), 500ull << 20);
  EXPECT_EQ(parse_byte_size(" 2 G "), 2ull << 30);
  EXPECT_EQ(parse_byte_size("1.5G"), 3ull << 29);
  EXPECT_EQ(parse_byte_size("0.5k"), 512u);
  EXPECT_EQ(parse_byte_size(".5K"), 512u);
  EXPECT_EQ(parse_byte_size("3T"), 3ull << 40);
  EXPECT_EQ(parse_byte_size("18446744073709551615"), ~0ull);
}

TEST(ByteSize, RefusesWhatIsNoSize) {
  for (const char* bad : {"", " ", "M", "-1", "+1", "1X", "1 MBB", "1.2.3", "1e6", "five", "1,000",
                          "18446744073709551616", "16777216T", "1 K B"})
    EXPECT_FALSE(parse_byte_size(bad).has_value()) << bad;
}

TEST(ByteSize, Formats) {
  EXPECT_EQ(format_byte_size(0), "0 B");
  EXPECT_EQ(format_byte_size(1023), "1023 B");
  EXPECT_EQ(format_byte_size(1536), "1.5 KiB");
  EXPECT_EQ(format_byte_size(500ull << 20), "500.0 MiB");
  EXPECT_EQ(format_byte_size(4ull << 30), "4.0 GiB");
  EXPECT_EQ(parse_byte_size(format_byte_size(4ull << 30)), 4ull << 30);
}

}  // namespace
}  // namespace tegula
