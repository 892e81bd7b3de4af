// Tests of support/sha256: FIPS 180-4 vectors, chunked updates, length-prefixed fields.
#include "tegula/support/sha256.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

namespace tegula {
namespace {

std::string hex(std::string_view s) { return sha256().update(s).hex_digest(); }

TEST(Sha256, Empty) {
  EXPECT_EQ(hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256, Abc) {
  EXPECT_EQ(hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256, TwoBlocks448Bits) {
  EXPECT_EQ(hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, MillionAInOddChunks) {
  const std::string chunk(1009, 'a');
  sha256 h;
  std::size_t left = 1000000;
  // Chunk sizes 1..1009 in a scrambled order, so chunks straddle every block boundary.
  for (std::size_t step = 1; left > 0; step = (step * 31 + 7) % 1009 + 1) {
    std::size_t n = std::min(left, step);
    h.update(chunk.data(), n);
    left -= n;
  }
  EXPECT_EQ(h.hex_digest(), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, ChunkingDoesNotMatter) {
  std::string data(300, 'x');
  for (std::size_t i = 0; i < data.size(); ++i) data[i] = char(i * 7);
  std::string whole = hex(data);
  for (std::size_t split = 0; split <= data.size(); split += 17) {
    sha256 h;
    h.update(data.substr(0, split)).update(data.substr(split));
    EXPECT_EQ(h.hex_digest(), whole) << "split at " << split;
  }
}

TEST(Sha256, FieldsDoNotRunTogether) {
  EXPECT_NE(sha256().field("ab").field("c").hex_digest(),
            sha256().field("a").field("bc").hex_digest());
  EXPECT_EQ(sha256().field("ab").field("c").hex_digest(),
            sha256().field("ab").field("c").hex_digest());
}

TEST(Sha256, ToHex) {
  const std::uint8_t bytes[] = {0x00, 0x0f, 0xa5, 0xff};
  EXPECT_EQ(to_hex(bytes, 4), "000fa5ff");
}

}  // namespace
}  // namespace tegula
