// Tests of jit/result_codec: the disk cache's payload round-trips and rejects damaged bytes.
#include "tegula/jit/result_codec.hpp"

#include <gtest/gtest.h>

namespace tegula::jit {
namespace {

compile_result sample() {
  compile_result r;
  r.kind = target::ptx;
  r.code = std::string("code\0with nul", 13);
  r.log = "warning: something";
  r.lowered_names = {{"f<int>", "_Z1fIiEvv"}, {"g", ""}};
  return r;
}

TEST(ResultCodec, RoundTrip) {
  compile_result r = sample();
  std::optional<compile_result> back = decode_result(encode_result(r));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->kind, r.kind);
  EXPECT_EQ(back->code, r.code);
  EXPECT_EQ(back->log, r.log);
  EXPECT_EQ(back->lowered_names, r.lowered_names);

  compile_result empty;
  back = decode_result(encode_result(empty));
  ASSERT_TRUE(back.has_value());
  EXPECT_EQ(back->kind, target::cubin);
  EXPECT_TRUE(back->code.empty() && back->log.empty() && back->lowered_names.empty());
}

TEST(ResultCodec, EveryTruncationIsRejected) {
  std::string bytes = encode_result(sample());
  for (std::size_t n = 0; n < bytes.size(); ++n)
    EXPECT_FALSE(decode_result(std::string_view(bytes).substr(0, n)).has_value()) << n;
}

TEST(ResultCodec, TrailingBytesAndBadHeaderAreRejected) {
  std::string bytes = encode_result(sample());
  EXPECT_FALSE(decode_result(bytes + "x").has_value());
  std::string bad_version = bytes;
  bad_version[0] ^= 1;
  EXPECT_FALSE(decode_result(bad_version).has_value());
  std::string bad_kind = bytes;
  bad_kind[4] = 7;
  EXPECT_FALSE(decode_result(bad_kind).has_value());
  EXPECT_FALSE(decode_result("not a compile result").has_value());
}

TEST(ResultCodec, HugeCountsAreRejectedWithoutAllocating) {
  std::string bytes = encode_result(compile_result{});
  for (std::size_t i = bytes.size() - 8; i < bytes.size(); ++i) bytes[i] = '\xff';
  EXPECT_FALSE(decode_result(bytes).has_value());
}

}  // namespace
}  // namespace tegula::jit
