// Tests of jit/cache_entry: component names, the entry format's round trip, damage, format 1, peeking the metadata.
#include "tegula/jit/cache_entry.hpp"

#include <gtest/gtest.h>

#include "tegula/support/sha256.hpp"

namespace tegula::jit {
namespace {

std::string entry(const entry_meta& m, const std::string& payload) { return encode_head(m, payload) + payload; }

TEST(CacheEntry, ComponentNamesRoundTrip) {
  for (auto c : {component::unknown, component::program, component::tile, component::array, component::cub,
                 component::other})
    EXPECT_EQ(parse_component(component_name(c)), c);
  EXPECT_FALSE(parse_component("Tile").has_value());
  EXPECT_FALSE(parse_component("").has_value());
  EXPECT_NE(std::string(component_names()).find("cub"), std::string::npos);
}

TEST(CacheEntry, RoundTripWithMetadata) {
  entry_meta m{component::array, "tegula_array_k7", "sm_90a"};
  std::string payload("pay\0load", 8);
  std::optional<decoded_entry> e = decode_entry(entry(m, payload));
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->payload, payload);
  EXPECT_EQ(e->meta.made_by, component::array);
  EXPECT_EQ(e->meta.name, "tegula_array_k7");
  EXPECT_EQ(e->meta.arch, "sm_90a");
  std::optional<entry_meta> peeked = peek_meta(entry(m, payload).substr(0, max_head_size));
  ASSERT_TRUE(peeked.has_value());
  EXPECT_EQ(peeked->name, "tegula_array_k7");
  EXPECT_EQ(peek_meta(encode_head(m, payload))->made_by, component::array);  // the head alone is enough
}

TEST(CacheEntry, LongNamesAreCut) {
  entry_meta m{component::tile, std::string(1000, 'n'), std::string(100, 'a')};
  std::string bytes = entry(m, "x");
  EXPECT_LE(encode_head(m, "x").size(), max_head_size);
  std::optional<decoded_entry> e = decode_entry(bytes);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->meta.name, std::string(max_meta_name, 'n'));
}

TEST(CacheEntry, AnyDamageIsCaught) {
  const std::string good = entry({component::program, "axpy", "sm_90"}, std::string(64, 'p'));
  for (std::size_t at = 0; at < good.size(); ++at) {
    std::string bad = good;
    bad[at] ^= 0x10;
    EXPECT_FALSE(decode_entry(bad).has_value()) << "byte " << at;
  }
  for (std::size_t n = 0; n < good.size(); ++n) EXPECT_FALSE(decode_entry(good.substr(0, n)).has_value()) << n;
  EXPECT_FALSE(decode_entry(good + "x").has_value());
  EXPECT_FALSE(peek_meta("not an entry").has_value());
  EXPECT_FALSE(peek_meta(good.substr(0, 60)).has_value());  // the meta is cut off
}

TEST(CacheEntry, Format1DecodesAsUnknown) {
  const std::string payload = "old";
  std::string bytes("TGLC\x01\0\0\0", 8);
  bytes += std::string("\x03\0\0\0\0\0\0\0", 8);
  sha256::digest_t d = sha256().update(payload).digest();
  bytes.append(reinterpret_cast<const char*>(d.data()), d.size());
  bytes += payload;
  std::optional<decoded_entry> e = decode_entry(bytes);
  ASSERT_TRUE(e.has_value());
  EXPECT_EQ(e->payload, "old");
  EXPECT_EQ(e->meta.made_by, component::unknown);
  EXPECT_EQ(peek_meta(bytes)->made_by, component::unknown);
  bytes[4] = 3;  // a format this tegula does not know
  EXPECT_FALSE(decode_entry(bytes).has_value());
}

}  // namespace
}  // namespace tegula::jit
