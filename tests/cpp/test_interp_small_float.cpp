// Interpreter: float16/bfloat16 conversions (known values, ties to even, subnormals, overflow, NaN payloads),
// float32 NaN payloads, and tiles of those dtypes rounding after every op.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "interp_test_util.hpp"
#include "tegula/interp/small_float.hpp"

namespace tegula::interp::test {
namespace {

TEST(InterpSmallFloat, Float16KnownValues) {
  EXPECT_EQ(float16_from_double(1.0), 0x3c00);
  EXPECT_EQ(float16_from_double(-2.0), 0xc000);
  EXPECT_EQ(float16_from_double(0.1), 0x2e66);
  EXPECT_EQ(float16_from_double(1.0 / 3.0), 0x3555);
  EXPECT_EQ(float16_from_double(65504.0), 0x7bff);
  EXPECT_EQ(float16_from_double(65519.99), 0x7bff);
  EXPECT_EQ(float16_from_double(65520.0), 0x7c00);  // the halfway point ties to even: infinity
  EXPECT_EQ(float16_from_double(1e300), 0x7c00);
  EXPECT_EQ(float16_from_double(-1e300), 0xfc00);
  EXPECT_EQ(float16_from_double(1.0 + std::ldexp(1.0, -11)), 0x3c00);      // tie -> even (down)
  EXPECT_EQ(float16_from_double(1.0 + 3 * std::ldexp(1.0, -11)), 0x3c02);  // tie -> even (up)
  EXPECT_EQ(float16_from_double(std::ldexp(1.0, -14)), 0x0400);             // smallest normal
  EXPECT_EQ(float16_from_double(std::ldexp(1.0, -24)), 0x0001);             // smallest subnormal
  EXPECT_EQ(float16_from_double(std::ldexp(1.0, -25)), 0x0000);             // tie -> even (zero)
  EXPECT_EQ(float16_from_double(std::ldexp(3.0, -26)), 0x0001);
  EXPECT_EQ(float16_from_double(std::ldexp(1.0, -14) - std::ldexp(1.0, -25)), 0x0400);  // rounds up to normal
  EXPECT_EQ(float16_from_double(-0.0), 0x8000);
  EXPECT_EQ(float16_from_double(1e-300), 0x0000);
  const std::uint16_t nan = float16_from_double(std::numeric_limits<double>::quiet_NaN());
  EXPECT_EQ(nan & 0x7c00, 0x7c00);
  EXPECT_NE(nan & 0x03ff, 0);
  EXPECT_EQ(float16_to_double(0x3555), 0.333251953125);
  EXPECT_EQ(float16_to_double(0x0001), std::ldexp(1.0, -24));
  EXPECT_EQ(float16_to_double(0xfbff), -65504.0);
  EXPECT_TRUE(std::isinf(float16_to_double(0x7c00)));
  EXPECT_TRUE(std::isnan(float16_to_double(0x7e00)));
}

TEST(InterpSmallFloat, BFloat16KnownValues) {
  EXPECT_EQ(bfloat16_from_double(1.0), 0x3f80);
  EXPECT_EQ(bfloat16_from_double(3.14159265358979), 0x4049);
  EXPECT_EQ(bfloat16_from_double(-0.1), 0xbdcd);
  EXPECT_EQ(bfloat16_from_double(1.0 + std::ldexp(1.0, -8)), 0x3f80);      // tie -> even (down)
  EXPECT_EQ(bfloat16_from_double(1.0 + 3 * std::ldexp(1.0, -8)), 0x3f82);  // tie -> even (up)
  EXPECT_EQ(bfloat16_from_double(3.4e38), 0x7f80);                          // past the halfway point
  EXPECT_EQ(bfloat16_from_double(3.3895e38), 0x7f7f);  // the largest finite
  EXPECT_EQ(bfloat16_from_double(std::ldexp(1.0, -133)), 0x0001);           // smallest subnormal
  EXPECT_EQ(bfloat16_to_double(0x4049), 3.140625);
  EXPECT_EQ(bfloat16_to_double(0x0001), std::ldexp(1.0, -133));
}

TEST(InterpSmallFloat, EveryBitPatternRoundTrips) {
  // NaNs included: a copy keeps a signaling NaN's payload, as the GPU's copy does.
  for (std::uint32_t h = 0; h < 0x10000; ++h) {
    const auto b = std::uint16_t(h);
    ASSERT_EQ(float16_from_double(float16_to_double(b)), b) << std::hex << h;
    ASSERT_EQ(bfloat16_from_double(bfloat16_to_double(b)), b) << std::hex << h;
    const bool bf16_nan = (b & 0x7f80) == 0x7f80 && (b & 0x7f);
    if (!bf16_nan) ASSERT_EQ(bfloat16_to_double(b), double(std::bit_cast<float>(std::uint32_t(b) << 16)));
  }
}

TEST(InterpSmallFloat, Float32NaNPayloadsRoundTrip) {
  for (std::uint32_t b : {0x7f800001u, 0xff9f7aa8u, 0x7fbfffffu, 0x7fc00000u, 0xffc00001u, 0x7f800000u, 0x3f800000u}) {
    const float x = std::bit_cast<float>(b);
    EXPECT_EQ(std::bit_cast<std::uint32_t>(float32_from_double(float32_to_double(x))), b) << std::hex << b;
  }
  EXPECT_TRUE(std::isnan(float32_to_double(std::bit_cast<float>(0x7f800001u))));
  // A double NaN whose payload lies below float32's mantissa becomes float32's quiet NaN, not infinity.
  EXPECT_EQ(std::bit_cast<std::uint32_t>(float32_from_double(std::bit_cast<double>(0x7ff0000000000001ull))), 0x7fc00000u);
}

TEST(InterpSmallFloat, MatchesReferenceRoundingOnRandomValues) {
  std::mt19937_64 rng(7);
  for (int i = 0; i < 1000000; ++i) {
    // bfloat16 from a float32: the classic round-to-nearest-even on the float's bits.
    const auto fbits = std::uint32_t(rng());
    const float f = std::bit_cast<float>(fbits);
    if (f == f) {
      const auto want = std::uint16_t((fbits + 0x7fff + ((fbits >> 16) & 1)) >> 16);
      ASSERT_EQ(bfloat16_from_double(double(f)), want) << std::hex << fbits;
    }
#ifdef __FLT16_MAX__
    // float16 from a double near float16's range, against the compiler's _Float16 conversion.
    const double d = std::ldexp(double(rng() >> 11) / double(1ull << 53), int(rng() % 44) - 30) * ((rng() & 1) ? 1 : -1);
    const _Float16 h = _Float16(d);
    std::uint16_t hb;
    std::memcpy(&hb, &h, 2);
    ASSERT_EQ(float16_from_double(d), hb) << d;
#endif
  }
}

// out = (a + b) * a in float16: each op rounds to float16, so 2049 + 1 stays 2048 (ties to even).
TEST(InterpSmallFloat, Float16TilesRoundAfterEveryOp) {
  kernel k;
  value_id pa = k.param("a", array(dtype::f16, 1)), pb = k.param("b", array(dtype::f16, 1));
  value_id po = k.param("out", array(dtype::f16, 1));
  const auto T = tile(dtype::f16, {3});
  const attrs shape{{"shape", std::vector<std::int64_t>{3}}};
  value_id z = k.i32(0);
  value_id a = k.op1(op_kind::load, {pa, z}, T, shape), b = k.op1(op_kind::load, {pb, z}, T, shape);
  value_id s = k.op1(op_kind::add, {a, b}, T);
  k.op(op_kind::store, {po, z, k.op1(op_kind::sub, {s, a}, T)});
  std::vector<std::uint16_t> av{float16_from_double(2048), float16_from_double(1.0), float16_from_double(60000)};
  std::vector<std::uint16_t> bv{float16_from_double(1.0), float16_from_double(1e-4), float16_from_double(10000)};
  std::vector<std::uint16_t> out(3);
  run(k.finish(), {view(av, {3}, {}, 0, dtype::f16), view(bv, {3}, {}, 0, dtype::f16), view(out, {3}, {}, 0, dtype::f16)},
      {1, 1, 1});
  EXPECT_EQ(float16_to_double(out[0]), 0.0);  // 2048 + 1 -> 2048 (tie to even), minus 2048
  EXPECT_EQ(float16_to_double(out[1]), 0.0);  // 1 + 1e-4 -> 1 (below half an ulp)
  EXPECT_TRUE(std::isinf(float16_to_double(out[2])));  // 70000 overflows to inf; inf - 60000 = inf
}

TEST(InterpSmallFloat, BFloat16CastOfInt) {
  kernel k;
  value_id pa = k.param("a", array(dtype::i32, 1)), po = k.param("out", array(dtype::bf16, 1));
  value_id z = k.i32(0);
  value_id a = k.op1(op_kind::load, {pa, z}, tile(dtype::i32, {3}), {{"shape", std::vector<std::int64_t>{3}}});
  k.op(op_kind::store, {po, z, k.op1(op_kind::astype, {a}, tile(dtype::bf16, {3}), {{"dtype", dtype::bf16}})});
  std::vector<std::int32_t> in{257, 259, -1000};
  std::vector<std::uint16_t> out(3);
  run(k.finish(), {view(in, {3}), view(out, {3}, {}, 0, dtype::bf16)}, {1, 1, 1});
  EXPECT_EQ(bfloat16_to_double(out[0]), 256.0);  // 257 is a tie between 256 and 258: even
  EXPECT_EQ(bfloat16_to_double(out[1]), 260.0);  // 259 is a tie between 258 and 260: even
  EXPECT_EQ(bfloat16_to_double(out[2]), -1000.0);
}

}  // namespace
}  // namespace tegula::interp::test
