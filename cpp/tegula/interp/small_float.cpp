// float16 and bfloat16 bit patterns to and from double, rounding to nearest, ties to even.
#include "tegula/interp/small_float.hpp"

#include <bit>
#include <cmath>

namespace tegula::interp {
namespace {

// v >> shift, rounded to nearest with ties to even. shift >= 1; v < 2^53.
std::uint64_t shift_round(std::uint64_t v, int shift) {
  if (shift >= 64) return 0;  // v < 2^53 is below half of 2^shift
  const std::uint64_t q = v >> shift;
  const std::uint64_t rem = v & ((std::uint64_t(1) << shift) - 1);
  const std::uint64_t half = std::uint64_t(1) << (shift - 1);
  return q + ((rem > half || (rem == half && (q & 1))) ? 1 : 0);
}

// A NaN's payload, the top man_bits of a double's mantissa, kept bit for bit (a signaling NaN stays
// signaling, as a copy on the GPU keeps it); a payload that would vanish becomes the quiet bit.
template <int man_bits>
std::uint32_t nan_mantissa(std::uint64_t m) {
  const auto kept = std::uint32_t(m >> (52 - man_bits));
  return kept ? kept : 1u << (man_bits - 1);
}

// A binary format with `exp_bits` exponent bits and `man_bits` stored mantissa bits (IEEE layout).
template <int exp_bits, int man_bits>
std::uint16_t narrow(double x) {
  constexpr int bias = (1 << (exp_bits - 1)) - 1;
  constexpr int emin = 1 - bias;  // exponent of the smallest normal
  constexpr std::uint32_t inf = ((1u << exp_bits) - 1) << man_bits;
  const auto b = std::bit_cast<std::uint64_t>(x);
  const std::uint32_t sign = std::uint32_t(b >> 63) << (exp_bits + man_bits);
  const int e = int((b >> 52) & 0x7ff);
  const std::uint64_t m = b & ((std::uint64_t(1) << 52) - 1);
  if (e == 0x7ff) {
    if (!m) return std::uint16_t(sign | inf);
    return std::uint16_t(sign | nan_mantissa<man_bits>(m) | inf);
  }
  if (e == 0) return std::uint16_t(sign);  // zero, or a double subnormal: far below half the smallest subnormal
  const int E = e - 1023;
  if (E > bias) return std::uint16_t(sign | inf);
  if (E >= emin) {
    // Normal: a carry out of the mantissa correctly bumps the exponent (up to infinity).
    const std::uint64_t biased = std::uint64_t(E + bias) << man_bits;
    const std::uint64_t q = shift_round(m, 52 - man_bits);
    return std::uint16_t(sign | std::uint32_t(biased + q));
  }
  // Subnormal result: units of 2^(emin - man_bits); a carry to 1 << man_bits is the smallest normal.
  const std::uint64_t full = m | (std::uint64_t(1) << 52);
  return std::uint16_t(sign | std::uint32_t(shift_round(full, 52 - man_bits + (emin - E))));
}

template <int exp_bits, int man_bits>
double widen(std::uint16_t h) {
  constexpr int bias = (1 << (exp_bits - 1)) - 1;
  constexpr std::uint32_t exp_mask = (1u << exp_bits) - 1;
  const bool negative = (h >> (exp_bits + man_bits)) & 1;
  const std::uint32_t e = (h >> man_bits) & exp_mask;
  const std::uint64_t m = h & ((1u << man_bits) - 1);
  std::uint64_t bits;
  if (e == exp_mask) {
    bits = (std::uint64_t(0x7ff) << 52) | (m << (52 - man_bits));
  } else if (e == 0) {
    // Subnormal (or zero): m * 2^(1 - bias - man_bits), exact in double.
    double v = double(m) * std::ldexp(1.0, 1 - bias - man_bits);
    return negative ? -v : v;
  } else {
    bits = (std::uint64_t(int(e) - bias + 1023) << 52) | (m << (52 - man_bits));
  }
  if (negative) bits |= std::uint64_t(1) << 63;
  return std::bit_cast<double>(bits);
}

}  // namespace

double float8_e5m2_to_double(std::uint8_t bits) { return widen<5, 2>(bits); }
std::uint8_t float8_e5m2_from_double(double x) { return std::uint8_t(narrow<5, 2>(x)); }

double float8_e4m3_to_double(std::uint8_t b) {
  const unsigned e = (b >> 3) & 15u, m = b & 7u;
  double v = (b & 0x7fu) == 0x7fu ? std::nan("") : e == 0 ? std::ldexp(double(m), -9) : std::ldexp(double(8 + m), int(e) - 10);
  return (b & 0x80u) ? -v : v;
}

std::uint8_t float8_e4m3_from_double(double x) {
  const std::uint8_t s = std::signbit(x) ? 0x80 : 0;
  const double a = std::fabs(x);
  if (!(a <= 464.0)) return std::uint8_t(s | 0x7f);  // NaN, and past 448 after rounding (464 ties down to 448)
  if (a < 0.015625) return std::uint8_t(s | unsigned(std::nearbyint(a * 512.0)));  // subnormals; 8 is the smallest normal
  int e = 0;
  std::frexp(a, &e);  // a in [2^(e-1), 2^e)
  double q = std::nearbyint(std::ldexp(a, 4 - e));  // in [8, 16]
  if (q == 16) {
    q = 8;
    ++e;
  }
  return std::uint8_t(s | unsigned(((e - 1 + 7) << 3) | (int(q) - 8)));
}

double float32_to_double(float x) {
  if (!std::isnan(x)) return double(x);
  const auto b = std::bit_cast<std::uint32_t>(x);  // not double(x): the conversion quiets a signaling NaN
  return std::bit_cast<double>((std::uint64_t(b >> 31) << 63) | (std::uint64_t(0x7ff) << 52) |
                               (std::uint64_t(b & 0x7fffffu) << 29));
}

float float32_from_double(double x) {
  if (!std::isnan(x)) return float(x);
  const auto b = std::bit_cast<std::uint64_t>(x);
  return std::bit_cast<float>(std::uint32_t(b >> 63) << 31 | 0x7f800000u |
                              nan_mantissa<23>(b & ((std::uint64_t(1) << 52) - 1)));
}

double float16_to_double(std::uint16_t bits) { return widen<5, 10>(bits); }
double bfloat16_to_double(std::uint16_t bits) { return widen<8, 7>(bits); }
std::uint16_t float16_from_double(double x) { return narrow<5, 10>(x); }
std::uint16_t bfloat16_from_double(double x) { return narrow<8, 7>(x); }

}  // namespace tegula::interp
