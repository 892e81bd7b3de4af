// float16 and bfloat16 bit patterns to and from double, rounding to nearest, ties to even.
#pragma once
#include <cstdint>

namespace tegula::interp {

// Exact: every float16/bfloat16 value is a double.
double float16_to_double(std::uint16_t bits);
double bfloat16_to_double(std::uint16_t bits);

// One correct IEEE rounding (nearest, ties to even) of x; overflow gives infinity, NaN stays a
// NaN of the same sign and payload
// (the quiet bit is set only where the payload would otherwise be lost).
std::uint16_t float16_from_double(double x);
std::uint16_t bfloat16_from_double(double x);

// float32 through double with every NaN's payload kept (a plain conversion quiets a signaling NaN,
// so a copy of a float32 view would change its bits where the GPU's copy does not).
double float32_to_double(float x);
float float32_from_double(double x);

// 8-bit floats as torch and ml_dtypes define them: float8_e4m3fn (bias 7, no infinities, largest 448;
// what rounds past it is NaN) and float8_e5m2 (IEEE layout, bias 15). Nearest, ties to even.
double float8_e4m3_to_double(std::uint8_t bits);
double float8_e5m2_to_double(std::uint8_t bits);
std::uint8_t float8_e4m3_from_double(double x);
std::uint8_t float8_e5m2_from_double(double x);

}  // namespace tegula::interp
