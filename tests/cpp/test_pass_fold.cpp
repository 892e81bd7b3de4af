// Tests of passes/fold: scalar folding semantics (wrapping, rounding, what is left unfolded).
#include "tegula/passes/fold.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace tegula::passes {
namespace {

using ir::attribute;
using ir::dtype;
using ir::op_kind;
using I = std::int64_t;

std::optional<attribute> fold2(op_kind k, dtype t, attribute a, attribute b, dtype out) {
  ir::op o{k, {}, {}, {}, {}, {}};
  return fold(o, {t, t}, {a, b}, out);
}
std::optional<attribute> fold1(op_kind k, dtype t, attribute a, dtype out) {
  ir::op o{k, {}, {}, {}, {}, {}};
  return fold(o, {t}, {a}, out);
}
I as_int(const std::optional<attribute>& a) { return a ? std::get<I>(*a) : -999999; }
double as_float(const std::optional<attribute>& a) { return a ? std::get<double>(*a) : -999999.0; }

TEST(PassFold, IntegersWrapToTheirWidth) {
  EXPECT_EQ(as_int(fold2(op_kind::add, dtype::i8, I(100), I(100), dtype::i8)), -56);
  EXPECT_EQ(as_int(fold2(op_kind::sub, dtype::u8, I(0), I(1), dtype::u8)), 255);
  EXPECT_EQ(as_int(fold2(op_kind::mul, dtype::i16, I(300), I(300), dtype::i16)), 24464);
  EXPECT_EQ(as_int(fold2(op_kind::add, dtype::u64, I(-1), I(1), dtype::u64)), 0);  // uint64 max + 1
  EXPECT_EQ(as_int(fold1(op_kind::neg, dtype::i8, I(-128), dtype::i8)), -128);
  EXPECT_EQ(as_int(fold1(op_kind::abs, dtype::i32, I(-5), dtype::i32)), 5);
  EXPECT_EQ(as_int(fold1(op_kind::logical_not, dtype::u8, I(0), dtype::u8)), 255);
  EXPECT_EQ(as_int(fold1(op_kind::logical_not, dtype::b1, I(1), dtype::b1)), 0);
  EXPECT_EQ(as_int(fold2(op_kind::add, dtype::b1, I(1), I(1), dtype::b1)), 1);  // bool + is or
}

TEST(PassFold, IntegerDivisionFamilies) {
  EXPECT_EQ(as_int(fold2(op_kind::div, dtype::i32, I(-7), I(2), dtype::i32)), -3);      // C truncation
  EXPECT_EQ(as_int(fold2(op_kind::floordiv, dtype::i32, I(-7), I(2), dtype::i32)), -4); // floor
  EXPECT_EQ(as_int(fold2(op_kind::mod, dtype::i32, I(-7), I(2), dtype::i32)), 1);       // sign of the divisor
  EXPECT_EQ(as_int(fold2(op_kind::mod, dtype::i32, I(7), I(-2), dtype::i32)), -1);
  EXPECT_EQ(as_int(fold2(op_kind::div, dtype::i8, I(-128), I(-1), dtype::i8)), -128);   // wraps, no trap
  EXPECT_EQ(as_int(fold2(op_kind::div, dtype::i64, I(std::numeric_limits<I>::min()), I(-1), dtype::i64)),
            std::numeric_limits<I>::min());
  EXPECT_EQ(as_int(fold2(op_kind::floordiv, dtype::u32, I(7), I(2), dtype::u32)), 3);
  EXPECT_FALSE(fold2(op_kind::div, dtype::i32, I(1), I(0), dtype::i32));  // traps at run time: left alone
  EXPECT_FALSE(fold2(op_kind::mod, dtype::u8, I(1), I(0), dtype::u8));
  EXPECT_FALSE(fold2(op_kind::floordiv, dtype::i16, I(1), I(0), dtype::i16));
}

TEST(PassFold, ShiftsPowAndBits) {
  EXPECT_EQ(as_int(fold2(op_kind::shl, dtype::i8, I(1), I(7), dtype::i8)), -128);
  EXPECT_EQ(as_int(fold2(op_kind::shl, dtype::i32, I(1), I(32), dtype::i32)), 0);  // width or more: 0
  EXPECT_EQ(as_int(fold2(op_kind::shr, dtype::i32, I(-8), I(40), dtype::i32)), -1);
  EXPECT_EQ(as_int(fold2(op_kind::shr, dtype::i32, I(-8), I(1), dtype::i32)), -4);  // arithmetic
  EXPECT_EQ(as_int(fold2(op_kind::shr, dtype::u8, I(255), I(4), dtype::u8)), 15);
  EXPECT_EQ(as_int(fold2(op_kind::pow, dtype::i32, I(3), I(4), dtype::i32)), 81);
  EXPECT_EQ(as_int(fold2(op_kind::pow, dtype::u8, I(2), I(9), dtype::u8)), 0);
  EXPECT_FALSE(fold2(op_kind::pow, dtype::i32, I(2), I(-1), dtype::i32));
  EXPECT_EQ(as_int(fold2(op_kind::bit_xor, dtype::u16, I(0xff00), I(0x0ff0), dtype::u16)), 0xf0f0);
  EXPECT_EQ(as_int(fold2(op_kind::minimum, dtype::u64, I(-1), I(3), dtype::u64)), 3);  // unsigned compare
  EXPECT_EQ(as_int(fold2(op_kind::lt, dtype::u64, I(3), I(-1), dtype::b1)), 1);
  EXPECT_EQ(as_int(fold2(op_kind::lt, dtype::i64, I(3), I(-1), dtype::b1)), 0);
}

TEST(PassFold, FloatsRoundToTheirDtype) {
  EXPECT_EQ(as_float(fold2(op_kind::add, dtype::f32, 0.1f, 0.2f, dtype::f32)), double(0.1f + 0.2f));
  EXPECT_EQ(as_float(fold2(op_kind::div, dtype::f64, 1.0, 3.0, dtype::f64)), 1.0 / 3.0);
  EXPECT_EQ(as_float(fold2(op_kind::add, dtype::f16, 60000.0, 60000.0, dtype::f16)), std::numeric_limits<double>::infinity());
  EXPECT_EQ(as_float(fold2(op_kind::add, dtype::f16, 2048.0, 1.0, dtype::f16)), 2048.0);  // tie to even
  EXPECT_EQ(as_float(fold2(op_kind::add, dtype::f16, 2048.0, 3.0, dtype::f16)), 2052.0);  // tie to even (up)
  EXPECT_EQ(as_float(fold2(op_kind::mul, dtype::bf16, 3.0, 1.0 / 3.0, dtype::bf16)), 1.0);
  EXPECT_EQ(as_float(fold2(op_kind::add, dtype::bf16, 256.0, 1.0, dtype::bf16)), 256.0);
  EXPECT_TRUE(std::isnan(as_float(fold2(op_kind::minimum, dtype::f32, 1.0, std::nan(""), dtype::f32))));
  EXPECT_TRUE(std::isnan(as_float(fold2(op_kind::maximum, dtype::f32, std::nan(""), 1.0, dtype::f32))));
  EXPECT_EQ(as_int(fold2(op_kind::ne, dtype::f32, std::nan(""), std::nan(""), dtype::b1)), 1);
  EXPECT_EQ(as_float(fold1(op_kind::floor, dtype::f32, -1.5, dtype::f32)), -2.0);
  EXPECT_EQ(as_float(fold1(op_kind::neg, dtype::f64, 0.0, dtype::f64)), 0.0);
  EXPECT_TRUE(std::signbit(as_float(fold1(op_kind::neg, dtype::f64, 0.0, dtype::f64))));
  for (op_kind k : {op_kind::exp, op_kind::log, op_kind::sin, op_kind::tanh, op_kind::sqrt})  // libm differs from CUDA
    EXPECT_FALSE(fold1(k, dtype::f32, 1.0, dtype::f32)) << ir::info(k).text;
  EXPECT_FALSE(fold2(op_kind::pow, dtype::f32, 2.0, 0.5, dtype::f32));
}

TEST(PassFold, Conversions) {
  EXPECT_EQ(as_int(fold1(op_kind::astype, dtype::f32, -2.9, dtype::i8)), -2);  // truncates
  EXPECT_EQ(as_int(fold1(op_kind::astype, dtype::f64, 255.5, dtype::u8)), 255);
  EXPECT_FALSE(fold1(op_kind::astype, dtype::f64, 256.0, dtype::u8));  // out of range: left to run time
  EXPECT_FALSE(fold1(op_kind::astype, dtype::f64, std::nan(""), dtype::i32));
  EXPECT_EQ(as_int(fold1(op_kind::astype, dtype::f64, std::nan(""), dtype::b1)), 1);
  EXPECT_EQ(as_int(fold1(op_kind::astype, dtype::i32, I(300), dtype::u8)), 44);
  EXPECT_EQ(as_int(fold1(op_kind::astype, dtype::i8, I(-1), dtype::u64)), -1);  // the uint64 bit pattern
  EXPECT_EQ(as_int(fold1(op_kind::astype, dtype::i32, I(7), dtype::b1)), 1);
  EXPECT_EQ(as_float(fold1(op_kind::astype, dtype::i32, I(16777217), dtype::f32)), 16777216.0);
  EXPECT_EQ(as_float(fold1(op_kind::astype, dtype::f64, 0.1, dtype::f16)), 0.0999755859375);
  EXPECT_FALSE(fold1(op_kind::astype, dtype::i64, I(1) << 60, dtype::f32));  // needs one exact rounding
}

TEST(PassFold, ReadConstantAndRounding) {
  EXPECT_EQ(std::get<double>(*read_constant(I(3), dtype::f16)), 3.0);
  EXPECT_EQ(std::get<double>(*read_constant(0.1, dtype::f32)), double(0.1f));
  EXPECT_EQ(std::get<I>(*read_constant(I(255), dtype::i8)), -1);
  EXPECT_FALSE(read_constant(std::string("x"), dtype::i8));
  EXPECT_FALSE(read_constant(0.5, dtype::i8));
  EXPECT_EQ(round_float(65504.0, dtype::f16), 65504.0);
  EXPECT_EQ(round_float(65519.0, dtype::f16), 65504.0);
  EXPECT_EQ(round_float(65520.0, dtype::f16), std::numeric_limits<double>::infinity());
  EXPECT_EQ(round_float(std::ldexp(1.0, -25), dtype::f16), 0.0);              // half the smallest subnormal: even
  EXPECT_EQ(round_float(std::ldexp(3.0, -26), dtype::f16), std::ldexp(1.0, -24));
  EXPECT_EQ(round_float(std::ldexp(1.0, -130), dtype::bf16), std::ldexp(1.0, -130));  // bf16 subnormal
  EXPECT_EQ(round_float(std::ldexp(1.0, -140), dtype::bf16), 0.0);
  EXPECT_EQ(round_float(-3.0e38, dtype::bf16), -std::ldexp(226.0, 120));  // 8 significant bits
}

TEST(PassFold, MismatchedInputsAreNotFolded) {
  ir::op add{op_kind::add, {}, {}, {}, {}, {}};
  EXPECT_FALSE(fold(add, {dtype::i32, dtype::i64}, {I(1), I(2)}, dtype::i32));
  EXPECT_FALSE(fold(add, {dtype::f32, dtype::f32}, {I(1), 2.0}, dtype::f32));
  EXPECT_FALSE(fold(add, {}, {}, dtype::f32));
}

}  // namespace
}  // namespace tegula::passes
