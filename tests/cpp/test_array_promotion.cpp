// Tests of array/promotion: NEP 50 result_type, ufunc float loops and can_cast against NumPy 2.4
// (bfloat16, which NumPy lacks, follows the project's rules stated in promotion.cpp).
#include "expect_error.hpp"
#include "tegula/array/promotion.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <limits>
#include <string>

#include "tegula/support/error.hpp"

namespace tegula::array {
namespace {

constexpr dtype b1 = dtype::b1, i8 = dtype::i8, i16 = dtype::i16, i32 = dtype::i32, i64 = dtype::i64,
                u8 = dtype::u8, u16 = dtype::u16, u32 = dtype::u32, u64 = dtype::u64, f16 = dtype::f16,
                bf16 = dtype::bf16, f32 = dtype::f32, f64 = dtype::f64, c64 = dtype::c64, c128 = dtype::c128;
constexpr dtype all[ir::array_dtype_count] = {b1, i8, i16, i32, i64, u8, u16, u32, u64, f16, bf16, f32, f64, c64, c128};

const operand_kind py_bool{operand_kind::kind::py_bool};
const operand_kind py_int{operand_kind::kind::py_int};
const operand_kind py_float{operand_kind::kind::py_float};
operand_kind arr(dtype t) { return operand_kind::of(t); }

std::string names(dtype a, dtype b) { return std::string(name(a)) + ", " + std::string(name(b)); }

using tegula::testing::expect_error;

TEST(ArrayPromotion, ResultTypeOfEveryArrayPair) {
  // numpy.result_type(a, b); rows a, columns b, both in dtype order. bfloat16 row/column: the
  // project's rules (absorbs bool and every int; with float16 -> float32; else the wider float).
  const dtype want[ir::array_dtype_count][ir::array_dtype_count] = {
      {b1, i8, i16, i32, i64, u8, u16, u32, u64, f16, bf16, f32, f64, c64, c128},  // b1
      {i8, i8, i16, i32, i64, i16, i32, i64, f64, f16, bf16, f32, f64, c64, c128},  // i8
      {i16, i16, i16, i32, i64, i16, i32, i64, f64, f32, bf16, f32, f64, c64, c128},  // i16
      {i32, i32, i32, i32, i64, i32, i32, i64, f64, f64, bf16, f64, f64, c128, c128},  // i32
      {i64, i64, i64, i64, i64, i64, i64, i64, f64, f64, bf16, f64, f64, c128, c128},  // i64
      {u8, i16, i16, i32, i64, u8, u16, u32, u64, f16, bf16, f32, f64, c64, c128},  // u8
      {u16, i32, i32, i32, i64, u16, u16, u32, u64, f32, bf16, f32, f64, c64, c128},  // u16
      {u32, i64, i64, i64, i64, u32, u32, u32, u64, f64, bf16, f64, f64, c128, c128},  // u32
      {u64, f64, f64, f64, f64, u64, u64, u64, u64, f64, bf16, f64, f64, c128, c128},  // u64
      {f16, f16, f32, f64, f64, f16, f32, f64, f64, f16, f32, f32, f64, c64, c128},  // f16
      {bf16, bf16, bf16, bf16, bf16, bf16, bf16, bf16, bf16, f32, bf16, f32, f64, c64, c128},  // bf16
      {f32, f32, f32, f64, f64, f32, f32, f64, f64, f32, f32, f32, f64, c64, c128},  // f32
      {f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, f64, c128, c128},  // f64
      {c64, c64, c64, c128, c128, c64, c64, c128, c128, c64, c64, c64, c128, c64, c128},  // c64
      {c128, c128, c128, c128, c128, c128, c128, c128, c128, c128, c128, c128, c128, c128, c128},  // c128
  };
  for (int a = 0; a < ir::array_dtype_count; ++a)
    for (int b = 0; b < ir::array_dtype_count; ++b)
      EXPECT_EQ(name(result_type({arr(all[a]), arr(all[b])})), name(want[a][b])) << names(all[a], all[b]);
}

TEST(ArrayPromotion, WeakPythonScalarsNep50) {
  // Per array dtype: + True, + 1, + 1.0, + 1 + 1.0 (NumPy 2.4 `np.ones(1, t) + scalar`).
  const dtype want[ir::array_dtype_count][4] = {
      {b1, i64, f64, f64},  // b1
      {i8, i8, f64, f64},  // i8
      {i16, i16, f64, f64},  // i16
      {i32, i32, f64, f64},  // i32
      {i64, i64, f64, f64},  // i64
      {u8, u8, f64, f64},  // u8
      {u16, u16, f64, f64},  // u16
      {u32, u32, f64, f64},  // u32
      {u64, u64, f64, f64},  // u64
      {f16, f16, f16, f16},  // f16
      {bf16, bf16, bf16, bf16},  // bf16
      {f32, f32, f32, f32},  // f32
      {f64, f64, f64, f64},  // f64
      {c64, c64, c64, c64},  // c64
      {c128, c128, c128, c128},  // c128
  };
  for (int a = 0; a < ir::array_dtype_count; ++a) {
    SCOPED_TRACE(std::string(name(all[a])));
    const operand_kind x = arr(all[a]);
    EXPECT_EQ(name(result_type({x, py_bool})), name(want[a][0]));
    EXPECT_EQ(name(result_type({py_int, x})), name(want[a][1]));
    EXPECT_EQ(name(result_type({x, py_float})), name(want[a][2]));
    EXPECT_EQ(name(result_type({py_int, x, py_float})), name(want[a][3]));
  }
  EXPECT_EQ(result_type({arr(u8), py_int}), u8);
  EXPECT_EQ(result_type({arr(i8), py_float}), f64);
  EXPECT_EQ(result_type({arr(f16), py_float}), f16);
  EXPECT_EQ(result_type({arr(b1), py_int}), i64);
  // Several arrays: they promote among themselves first, then the scalars join.
  EXPECT_EQ(result_type({arr(i8), arr(u8), py_float}), f64);
  EXPECT_EQ(result_type({arr(i8), arr(u8), py_int}), i16);
  EXPECT_EQ(result_type({py_float, arr(f16), arr(i16)}), f32);
  EXPECT_EQ(result_type({arr(u64), py_int, arr(i64)}), f64);
  EXPECT_EQ(result_type({arr(b1), py_bool, arr(b1)}), b1);
  EXPECT_EQ(result_type({arr(b1), py_int, py_float}), f64);
  EXPECT_EQ(result_type({py_int, arr(i8), py_bool}), i8);
  EXPECT_EQ(result_type({arr(bf16), arr(i32), py_float}), bf16);
}

TEST(ArrayPromotion, WeakPythonComplex) {
  // NumPy 2.4 `np.ones(1, t) + 1j`: complex64 for float16/float32 (and bfloat16), else complex128.
  const operand_kind py_complex{operand_kind::kind::py_complex};
  for (dtype t : {b1, i8, i16, i32, i64, u8, u16, u32, u64, f64, c128})
    EXPECT_EQ(name(result_type({arr(t), py_complex})), "complex128") << name(t);
  for (dtype t : {f16, bf16, f32, c64}) EXPECT_EQ(name(result_type({arr(t), py_complex})), "complex64") << name(t);
  EXPECT_EQ(result_type({py_complex}), c128);
  EXPECT_EQ(result_type({py_float, py_complex}), c128);
  EXPECT_EQ(result_type({arr(c64), py_float, py_int}), c64);
}

TEST(ArrayPromotion, ScalarsOnly) {
  EXPECT_EQ(result_type({py_int}), i64);
  EXPECT_EQ(result_type({py_float}), f64);
  EXPECT_EQ(result_type({py_bool}), b1);
  EXPECT_EQ(result_type({py_bool, py_int}), i64);
  EXPECT_EQ(result_type({py_bool, py_float}), f64);
  EXPECT_EQ(result_type({py_bool, py_bool}), b1);
  EXPECT_EQ(result_type({py_int, py_float}), f64);
  expect_error([] { result_type({}); }, error_kind::invalid_argument, "at least one array or dtype is required");
}

TEST(ArrayPromotion, IntScalarFits) {
  const error_kind v = error_kind::overflow;  // OverflowError, as NumPy 2
  expect_error([] { check_int_scalar_fits(300, u8); }, v, "Python integer 300 out of bounds for uint8");
  expect_error([] { check_int_scalar_fits(256, u8); }, v, "Python integer 256 out of bounds for uint8");
  expect_error([] { check_int_scalar_fits(-1, u8); }, v, "Python integer -1 out of bounds for uint8");
  expect_error([] { check_int_scalar_fits(128, i8); }, v, "Python integer 128 out of bounds for int8");
  expect_error([] { check_int_scalar_fits(-129, i8); }, v, "Python integer -129 out of bounds for int8");
  expect_error([] { check_int_scalar_fits(-300, i8); }, v, "Python integer -300 out of bounds for int8");
  expect_error([] { check_int_scalar_fits(-1, u64); }, v, "Python integer -1 out of bounds for uint64");
  expect_error([] { check_int_scalar_fits(65536, u16); }, v, "Python integer 65536 out of bounds for uint16");
  expect_error([] { check_int_scalar_fits(-32769, i16); }, v, "Python integer -32769 out of bounds for int16");
  expect_error([] { check_int_scalar_fits(4294967296, u32); }, v, "Python integer 4294967296 out of bounds for uint32");
  expect_error([] { check_int_scalar_fits(2147483648, i32); }, v, "Python integer 2147483648 out of bounds for int32");
  expect_error([] { check_int_scalar_fits(9223372036854775807, i32); }, v,
               "Python integer 9223372036854775807 out of bounds for int32");
  const std::int64_t max = std::numeric_limits<std::int64_t>::max(), min = std::numeric_limits<std::int64_t>::min();
  EXPECT_NO_THROW(check_int_scalar_fits(255, u8));
  EXPECT_NO_THROW(check_int_scalar_fits(0, u8));
  EXPECT_NO_THROW(check_int_scalar_fits(-128, i8));
  EXPECT_NO_THROW(check_int_scalar_fits(127, i8));
  EXPECT_NO_THROW(check_int_scalar_fits(65535, u16));
  EXPECT_NO_THROW(check_int_scalar_fits(-2147483648, i32));
  EXPECT_NO_THROW(check_int_scalar_fits(4294967295, u32));
  EXPECT_NO_THROW(check_int_scalar_fits(max, i64));
  EXPECT_NO_THROW(check_int_scalar_fits(min, i64));
  EXPECT_NO_THROW(check_int_scalar_fits(max, u64));
  for (dtype t : {b1, f16, bf16, f32, f64}) EXPECT_NO_THROW(check_int_scalar_fits(min, t));
}

TEST(ArrayPromotion, FloatLoopAsNpSqrt) {
  // np.sqrt(np.ones(1, t)).dtype
  const dtype want[ir::array_dtype_count] = {f16, f16, f32, f64, f64, f16, f32, f64, f64, f16, bf16, f32, f64, c64, c128};
  for (int a = 0; a < ir::array_dtype_count; ++a) EXPECT_EQ(name(float_loop(all[a])), name(want[a])) << name(all[a]);
}

TEST(ArrayPromotion, CastingNames) {
  EXPECT_EQ(casting_from_name("no"), casting::no);
  EXPECT_EQ(casting_from_name("equiv"), casting::equiv);
  EXPECT_EQ(casting_from_name("safe"), casting::safe);
  EXPECT_EQ(casting_from_name("same_kind"), casting::same_kind);
  EXPECT_EQ(casting_from_name("unsafe"), casting::unsafe);
  expect_error([] { casting_from_name("foo"); }, error_kind::invalid_argument,
               "casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe' (got 'foo')");
}

TEST(ArrayPromotion, CanCastEveryPairEveryMode) {
  // numpy.can_cast(from, to, casting): rows from, columns to, in dtype order. bfloat16 as
  // float16 would be: safe from bool/int8/uint8 and to float32/float64; same_kind to/from floats.
  const char* safe[ir::array_dtype_count] = {
      "111111111111111",  // b1
      "011110000111111",  // i8
      "001110000001111",  // i16
      "000110000000101",  // i32
      "000010000000101",  // i64
      "001111111111111",  // u8
      "000110111001111",  // u16
      "000010011000101",  // u32
      "000000001000101",  // u64
      "000000000101111",  // f16
      "000000000011111",  // bf16
      "000000000001111",  // f32
      "000000000000101",  // f64
      "000000000000011",  // c64
      "000000000000001",  // c128
  };
  const char* same_kind[ir::array_dtype_count] = {
      "111111111111111",  // b1
      "011110000111111",  // i8
      "011110000111111",  // i16
      "011110000111111",  // i32
      "011110000111111",  // i64
      "011111111111111",  // u8
      "011111111111111",  // u16
      "011111111111111",  // u32
      "011111111111111",  // u64
      "000000000111111",  // f16
      "000000000111111",  // bf16
      "000000000111111",  // f32
      "000000000111111",  // f64
      "000000000000011",  // c64
      "000000000000011",  // c128
  };
  for (int a = 0; a < ir::array_dtype_count; ++a)
    for (int b = 0; b < ir::array_dtype_count; ++b) {
      SCOPED_TRACE(names(all[a], all[b]));
      EXPECT_EQ(can_cast(all[a], all[b], casting::no), a == b);
      EXPECT_EQ(can_cast(all[a], all[b], casting::equiv), a == b);
      EXPECT_EQ(can_cast(all[a], all[b], casting::safe), safe[a][b] == '1');
      EXPECT_EQ(can_cast(all[a], all[b], casting::same_kind), same_kind[a][b] == '1');
      EXPECT_TRUE(can_cast(all[a], all[b], casting::unsafe));
    }
}

}  // namespace
}  // namespace tegula::array
