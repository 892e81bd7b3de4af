// float16 and bfloat16 bit patterns to and from double, rounding to nearest, ties to even.
#pragma once
#include <cstdint>

namespace tegula::interp {

// Exact: every float16/bfloat16 value is a double.
double float16_to_double(std::uint16_t bits);
double bfloat16_to_double(std::uint16_t bits);

// One correct IEEE rounding (nearest, ties to even) of x; overflow gives infinity, NaN stays a
// quiet NaN of the same sign.
std::uint16_t float16_from_double(double x);
std::uint16_t bfloat16_from_double(double x);

}  // namespace tegula::interp
