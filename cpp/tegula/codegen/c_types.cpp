// The C types that generated code uses for each dtype, value conversions between them, and literals.
#include "tegula/codegen/c_types.hpp"

#include <charconv>
#include <cstdio>
#include <cmath>
#include <cstring>
#include <limits>

#include "tegula/support/error.hpp"

namespace tegula::codegen {
namespace {

using ir::dtype;

bool narrow_float(dtype t) { return t == dtype::f16 || t == dtype::bf16 || ir::is_float8(t); }

// The preamble's rounding helper of a narrow float dtype (float -> nearest value of the dtype).
const char* rounder(dtype t) {
  return t == dtype::f16 ? "tg_rh" : t == dtype::bf16 ? "tg_rbf" : t == dtype::f8e4m3 ? "tg_r8e4" : "tg_r8e5";
}

// Shortest round-trip decimal text of a float or double, always a valid floating literal.
template <class F>
std::string shortest(F v) {
  char buf[64];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  std::string s(buf, r.ptr);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

std::string float_literal(float v) {
  if (std::isnan(v)) return "__uint_as_float(0x7fc00000u)";
  if (std::isinf(v)) return v > 0 ? "__uint_as_float(0x7f800000u)" : "__uint_as_float(0xff800000u)";
  return shortest(v) + "f";
}

std::string double_literal(double v) {
  if (std::isnan(v)) return "__longlong_as_double(0x7ff8000000000000ll)";
  if (std::isinf(v)) return v > 0 ? "__longlong_as_double(0x7ff0000000000000ll)" : "__longlong_as_double(0xfff0000000000000ll)";
  return shortest(v);
}

double round_format(double x, int fraction_bits, int min_exp, double max_finite) {
  if (!std::isfinite(x) || x == 0) return x;
  int e = 0;
  std::frexp(x, &e);  // |x| in [2^(e-1), 2^e)
  int lead = std::max(e - 1, min_exp);
  double q = std::ldexp(1.0, lead - fraction_bits);
  double r = std::nearbyint(x / q) * q;
  if (std::fabs(r) > max_finite) return std::copysign(std::numeric_limits<double>::infinity(), x);
  return r;
}

// An int64 bit pattern as a literal of integer type t (wrapped to t's width).
std::string int_literal(dtype t, std::int64_t v) {
  switch (t) {
    case dtype::b1: return v ? "true" : "false";
    case dtype::i8: return str("(signed char)", int(std::int8_t(v)));
    case dtype::i16: return str("(short)", int(std::int16_t(v)));
    case dtype::i32: {
      std::int32_t x = std::int32_t(v);
      return x == std::numeric_limits<std::int32_t>::min() ? "(-2147483647 - 1)" : std::to_string(x);
    }
    case dtype::i64:
      return v == std::numeric_limits<std::int64_t>::min() ? "(-9223372036854775807ll - 1)" : str(v, "ll");
    case dtype::u8: return str("(unsigned char)", unsigned(std::uint8_t(v)));
    case dtype::u16: return str("(unsigned short)", unsigned(std::uint16_t(v)));
    case dtype::u32: return str(std::uint32_t(v), "u");
    case dtype::u64: return str(std::uint64_t(v), "ull");
    default: fail(error_kind::internal, "codegen: int_literal of ", ir::name(t));
  }
}

}  // namespace

std::string reg_type(dtype t) {
  switch (t) {
    case dtype::b1: return "bool";
    case dtype::i8: return "signed char";
    case dtype::i16: return "short";
    case dtype::i32: return "int";
    case dtype::i64: return "long long";
    case dtype::u8: return "unsigned char";
    case dtype::u16: return "unsigned short";
    case dtype::u32: return "unsigned";
    case dtype::u64: return "unsigned long long";
    case dtype::f16:
    case dtype::bf16:
    case dtype::f8e4m3:
    case dtype::f8e5m2:
    case dtype::f32: return "float";
    case dtype::f64: return "double";
    case dtype::c64:
    case dtype::c128: break;  // the verifier keeps complex out of the IR
  }
  fail(error_kind::internal, "codegen: no register type for ", ir::name(t));
}

std::string storage_type(dtype t) {
  if (t == dtype::b1) return "unsigned char";
  if (ir::is_float8(t)) return "unsigned char";
  if (narrow_float(t)) return "unsigned short";
  return reg_type(t);
}

int reg_bytes(dtype t) { return narrow_float(t) ? 4 : ir::size_bytes(t); }

std::string unsigned_arith_type(dtype t) { return ir::size_bytes(t) == 8 ? "unsigned long long" : "unsigned"; }

std::string convert(dtype from, dtype to, const std::string& e) {
  if (from == to) return e;
  if (to == dtype::b1) return "((" + e + ") != 0)";
  if (from == dtype::b1) {
    if (ir::is_float(to)) return "((" + e + ") ? " + literal(to, 1.0) + " : " + literal(to, 0.0) + ")";
    return str("(", reg_type(to), ")(", e, ")");
  }
  if (narrow_float(to)) {
    const std::string r = rounder(to);
    // Narrow floats and float32 -> narrow: one rounding from the exact float value.
    if (narrow_float(from) || from == dtype::f32) return str(r, "(", e, ")");
    // double and integers go through double with round-to-odd to float, so one rounding overall.
    return str(r, "_d((double)(", e, "))");
  }
  if (to == dtype::f32 || to == dtype::f64) return str("(", reg_type(to), ")(", e, ")");
  // `to` is an integer.
  if (ir::is_float(from)) {
    // Truncation as the host's C conversion does (through a wider signed integer, then wrapped); NaN gives 0, as
    // the interpreter's (the GPU's cvt gives the "integer indefinite", INT_MIN / LLONG_MIN, seen on an H100).
    std::string c;
    if (to == dtype::u64)
      c = "((" + e + ") < 9.2233720368547758e18 ? (unsigned long long)(long long)(" + e +
          ") : (unsigned long long)(" + e + "))";
    else if (to == dtype::i64) c = "(long long)(" + e + ")";
    else if (to == dtype::u32) c = "(unsigned)(long long)(" + e + ")";
    else c = str("(", reg_type(to), ")(int)(", e, ")");
    return str("((", e, ") != (", e, ") ? (", reg_type(to), ")0 : ", c, ")");
  }
  return str("(", reg_type(to), ")(", e, ")");
}

std::string round_result(dtype t, const std::string& e) {
  if (narrow_float(t)) return str(rounder(t), "(", e, ")");
  return e;
}

std::string from_storage(dtype t, const std::string& e) {
  if (t == dtype::b1) return "((" + e + ") != 0)";
  if (t == dtype::f16) return "tg_h2f(" + e + ")";
  if (t == dtype::bf16) return "tg_bf2f(" + e + ")";
  if (t == dtype::f8e4m3) return "tg_e4m3_to_f(" + e + ")";
  if (t == dtype::f8e5m2) return "tg_e5m2_to_f(" + e + ")";
  return e;
}

std::string to_storage(dtype t, const std::string& e) {
  if (t == dtype::b1) return "(unsigned char)(" + e + ")";
  if (t == dtype::f16) return "tg_f2h(" + e + ")";
  if (t == dtype::bf16) return "tg_f2bf(" + e + ")";
  if (t == dtype::f8e4m3) return "tg_f_to_e4m3(" + e + ")";
  if (t == dtype::f8e5m2) return "tg_f_to_e5m2(" + e + ")";
  return e;
}

double round_to_float16(double v) { return round_format(v, 10, -14, 65504.0); }
double round_to_bfloat16(double v) { return round_format(v, 7, -126, 3.3895313892515355e38); }
double round_to_float8_e5m2(double v) { return round_format(v, 2, -14, 57344.0); }
double round_to_float8_e4m3(double v) {
  // No infinities in e4m3fn: what rounds past 448 is NaN (torch's and ml_dtypes' conversion).
  double r = round_format(v, 3, -6, 448.0);
  return std::isinf(r) && std::isfinite(v) ? std::numeric_limits<double>::quiet_NaN() : r;
}

std::string literal(dtype t, double v) {
  switch (t) {
    case dtype::f16: return float_literal(float(round_to_float16(v)));
    case dtype::bf16: return float_literal(float(round_to_bfloat16(v)));
    case dtype::f8e4m3: return float_literal(float(round_to_float8_e4m3(v)));
    case dtype::f8e5m2: return float_literal(float(round_to_float8_e5m2(v)));
    case dtype::f32: return float_literal(float(v));
    case dtype::f64: return double_literal(v);
    case dtype::b1: return v != 0 ? "true" : "false";
    default: break;
  }
  if (std::isnan(v)) return int_literal(t, 0);
  // Truncate toward zero; out-of-range values saturate to the int64 range first.
  double tv = std::trunc(v);
  if (ir::is_unsigned_int(t) && tv >= 9.2233720368547758e18)
    return int_literal(t, std::int64_t(std::uint64_t(std::min(tv, 1.8446744073709552e19 - 2048))));
  tv = std::max(-9.2233720368547758e18, std::min(tv, 9.2233720368547748e18));
  return int_literal(t, std::int64_t(tv));
}

std::string literal(dtype t, std::int64_t v) {
  if (ir::is_float(t)) {
    if (t == dtype::f64) return double_literal(double(v));
    if (t == dtype::f32) return float_literal(float(v));
    return literal(t, double(v));
  }
  return int_literal(t, v);
}

std::string lowest_literal(dtype t) {
  if (ir::is_float(t)) return literal(t, -std::numeric_limits<double>::infinity());
  if (t == dtype::b1) return "false";
  if (ir::is_unsigned_int(t)) return int_literal(t, 0);
  int bits = ir::size_bits(t);
  return int_literal(t, bits == 64 ? std::numeric_limits<std::int64_t>::min() : -(std::int64_t(1) << (bits - 1)));
}

std::string highest_literal(dtype t) {
  if (ir::is_float(t)) return literal(t, std::numeric_limits<double>::infinity());
  if (t == dtype::b1) return "true";
  if (ir::is_unsigned_int(t)) return int_literal(t, -1);
  int bits = ir::size_bits(t);
  return int_literal(t, bits == 64 ? std::numeric_limits<std::int64_t>::max() : (std::int64_t(1) << (bits - 1)) - 1);
}

std::string sanitize(const std::string& name) {
  std::string s;
  for (char c : name) {
    if (s.size() >= 24) break;
    bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    s += ok ? c : '_';
  }
  return s;
}

std::string c_escape(const std::string& s, bool printf_format) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\t': out += "\\t"; break;
      case '\r': out += "\\r"; break;
      case '%': out += printf_format ? "%%" : "%"; break;
      case '?': out += "\\?"; break;  // no trigraphs
      default:
        if (static_cast<unsigned char>(c) < 0x20) {
          char buf[8];
          std::snprintf(buf, sizeof buf, "\\x%02x\"\"", unsigned(c));  // "" ends the hex escape
          out += buf;
        } else {
          out += c;
        }
    }
  }
  return out;
}

}  // namespace tegula::codegen
