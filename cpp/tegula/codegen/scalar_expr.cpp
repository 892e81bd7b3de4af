// The C expression computing one element of an elementwise op (NumPy semantics per dtype).
#include "tegula/codegen/scalar_expr.hpp"

#include "tegula/codegen/c_types.hpp"
#include "tegula/support/error.hpp"

namespace tegula::codegen {
namespace {

using ir::dtype;
using ir::op_kind;

std::string paren(const std::string& s) { return "(" + s + ")"; }

// A float math function applied in the precision of `x`'s dtype (float for narrow floats and
// float32, double for float64 and for integer inputs), rounded to the result dtype.
std::string math1(const char* fname, dtype in, dtype out, const std::string& x) {
  if (in == dtype::f64 || !ir::is_float(in)) {
    std::string arg = in == dtype::f64 ? x : "(double)(" + x + ")";
    return convert(dtype::f64, out, str(fname, "(", arg, ")"));
  }
  return round_result(out, str(fname, "f(", x, ")"));
}

// Bits of a register value as an unsigned integer of the dtype's size, and back.
std::string to_bits(dtype t, const std::string& e) {
  switch (t) {
    case dtype::f16: return "tg_f2h(" + e + ")";
    case dtype::bf16: return "tg_f2bf(" + e + ")";
    case dtype::f8e4m3: return "tg_f_to_e4m3(" + e + ")";
    case dtype::f8e5m2: return "tg_f_to_e5m2(" + e + ")";
    case dtype::f32: return "__float_as_uint(" + e + ")";
    case dtype::f64: return "(unsigned long long)__double_as_longlong(" + e + ")";
    case dtype::b1: return "(unsigned char)(" + e + ")";
    default: {
      const int n = ir::size_bytes(t);
      return str("(", storage_type(n == 1 ? dtype::u8 : n == 2 ? dtype::u16 : n == 4 ? dtype::u32 : dtype::u64), ")(", e, ")");
    }
  }
}

std::string from_bits(dtype t, const std::string& e) {
  switch (t) {
    case dtype::f16: return "tg_h2f(" + e + ")";
    case dtype::bf16: return "tg_bf2f(" + e + ")";
    case dtype::f8e4m3: return "tg_e4m3_to_f((unsigned char)(" + e + "))";
    case dtype::f8e5m2: return "tg_e5m2_to_f((unsigned char)(" + e + "))";
    case dtype::f32: return "__uint_as_float(" + e + ")";
    case dtype::f64: return "__longlong_as_double((long long)(" + e + "))";
    case dtype::b1: return "((" + e + ") != 0)";
    default: return str("(", reg_type(t), ")(", e, ")");
  }
}

std::string int_binary(op_kind k, dtype t, const std::string& a, const std::string& b) {
  const std::string T = reg_type(t), U = unsigned_arith_type(t);
  auto wrap = [&](const char* o) { return str("(", T, ")((", U, ")(", a, ") ", o, " (", U, ")(", b, "))"); };
  auto plain = [&](const char* o) { return str("(", T, ")((", a, ") ", o, " (", b, "))"); };
  bool s = ir::is_signed_int(t);
  switch (k) {
    case op_kind::add: return wrap("+");
    case op_kind::sub: return wrap("-");
    case op_kind::mul: return wrap("*");
    case op_kind::div: return plain("/");
    case op_kind::floordiv: return s ? str("tg_floordiv_i<", T, ">(", a, ", ", b, ")") : plain("/");
    case op_kind::mod: return s ? str("tg_mod_i<", T, ">(", a, ", ", b, ")") : plain("%");
    case op_kind::pow: return str(s ? "tg_ipow_s<" : "tg_ipow_u<", T, ", ", U, ">(", a, ", ", b, ")");
    case op_kind::bit_and: return plain("&");
    case op_kind::bit_or: return plain("|");
    case op_kind::bit_xor: return plain("^");
    case op_kind::shl: return str("tg_shl<", T, ">(", a, ", ", b, ")");
    case op_kind::shr: return str(s ? "tg_shr_s<" : "tg_shr_u<", T, ">(", a, ", ", b, ")");
    default: fail(error_kind::internal, "codegen: int_binary of ", ir::info(k).text);
  }
}

std::string float_binary(op_kind k, dtype t, const std::string& a, const std::string& b, preamble_needs& needs) {
  bool d = t == dtype::f64;
  switch (k) {
    case op_kind::add: return round_result(t, a + " + " + b);
    case op_kind::sub: return round_result(t, a + " - " + b);
    case op_kind::mul: return round_result(t, a + " * " + b);
    case op_kind::div: return round_result(t, a + " / " + b);
    case op_kind::floordiv: needs.float_arith = true; return round_result(t, str(d ? "tg_floordiv_d(" : "tg_floordiv_f(", a, ", ", b, ")"));
    case op_kind::mod: needs.float_arith = true; return round_result(t, str(d ? "tg_mod_d(" : "tg_mod_f(", a, ", ", b, ")"));
    case op_kind::pow: return round_result(t, str(d ? "pow(" : "powf(", a, ", ", b, ")"));
    case op_kind::atan2: return round_result(t, str(d ? "atan2(" : "atan2f(", a, ", ", b, ")"));
    case op_kind::hypot: return round_result(t, str(d ? "hypot(" : "hypotf(", a, ", ", b, ")"));
    case op_kind::copysign: return round_result(t, str(d ? "copysign(" : "copysignf(", a, ", ", b, ")"));
    default: fail(error_kind::internal, "codegen: float_binary of ", ir::info(k).text);
  }
}

std::string bool_binary(op_kind k, const std::string& a, const std::string& b) {
  switch (k) {
    case op_kind::add:
    case op_kind::bit_or: return paren(a + " || " + b);
    case op_kind::mul:
    case op_kind::bit_and: return paren(a + " && " + b);
    case op_kind::bit_xor:
    case op_kind::sub: return paren(a + " != " + b);
    default: return convert(dtype::i32, dtype::b1, int_binary(k, dtype::i32, "(int)" + a, "(int)" + b));
  }
}

}  // namespace

std::string scalar_expr(op_kind k, const std::vector<dtype>& in, dtype out, const std::vector<std::string>& a,
                        preamble_needs& needs) {
  if (in.empty() || a.size() != in.size()) fail(error_kind::internal, "codegen: scalar_expr operand mismatch");
  const dtype t = in[0];
  const std::string& x = a[0];
  if (!ir::is_float(t)) {
    if (k == op_kind::floordiv || k == op_kind::mod || k == op_kind::pow || k == op_kind::shl || k == op_kind::shr)
      needs.int_arith = true;
  }
  if (out == dtype::f16) needs.f16 = true;
  if (out == dtype::bf16) needs.bf16 = true;
  if (ir::is_float8(out) || ir::is_float8(t)) needs.f8 = true;
  switch (k) {
    case op_kind::neg:
      if (ir::is_float(t)) return "(-" + x + ")";
      if (t == dtype::b1) return x;
      return str("(", reg_type(t), ")((", unsigned_arith_type(t), ")0 - (", unsigned_arith_type(t), ")(", x, "))");
    case op_kind::logical_not:
      if (t == dtype::b1) return "(!" + x + ")";
      return str("(", reg_type(t), ")(~(", x, "))");
    case op_kind::abs:
      if (t == dtype::f64) return "fabs(" + x + ")";
      if (ir::is_float(t)) return "fabsf(" + x + ")";
      if (ir::is_signed_int(t))
        return str("(", reg_type(t), ")((", x, ") < 0 ? (", unsigned_arith_type(t), ")0 - (", unsigned_arith_type(t),
                   ")(", x, ") : (", unsigned_arith_type(t), ")(", x, "))");
      return x;
    case op_kind::exp: return math1("exp", t, out, x);
    case op_kind::exp2: return math1("exp2", t, out, x);
    case op_kind::log: return math1("log", t, out, x);
    case op_kind::log2: return math1("log2", t, out, x);
    case op_kind::sqrt: return math1("sqrt", t, out, x);
    case op_kind::rsqrt: return math1("rsqrt", t, out, x);
    case op_kind::sin: return math1("sin", t, out, x);
    case op_kind::cos: return math1("cos", t, out, x);
    case op_kind::tanh: return math1("tanh", t, out, x);
    case op_kind::floor:
      if (!ir::is_float(t)) return convert(t, out, x);
      return math1("floor", t, out, x);
    case op_kind::ceil:
      if (!ir::is_float(t)) return convert(t, out, x);
      return math1("ceil", t, out, x);
    case op_kind::tan: return math1("tan", t, out, x);
    case op_kind::asin: return math1("asin", t, out, x);
    case op_kind::acos: return math1("acos", t, out, x);
    case op_kind::atan: return math1("atan", t, out, x);
    case op_kind::sinh: return math1("sinh", t, out, x);
    case op_kind::cosh: return math1("cosh", t, out, x);
    case op_kind::asinh: return math1("asinh", t, out, x);
    case op_kind::acosh: return math1("acosh", t, out, x);
    case op_kind::atanh: return math1("atanh", t, out, x);
    case op_kind::log10: return math1("log10", t, out, x);
    case op_kind::log1p: return math1("log1p", t, out, x);
    case op_kind::expm1: return math1("expm1", t, out, x);
    case op_kind::trunc:
      if (!ir::is_float(t)) return convert(t, out, x);
      return math1("trunc", t, out, x);
    case op_kind::rint:
      if (!ir::is_float(t)) return convert(t, out, x);
      return math1("rint", t, out, x);
    case op_kind::astype:
      if ((out == dtype::f16 || out == dtype::bf16 || ir::is_float8(out)) && (t == dtype::f64 || ir::is_int(t)))
        needs.narrow_from_double = true;
      return convert(t, out, x);
    case op_kind::bitcast:
      if (t == dtype::f16 || out == dtype::f16) needs.f16 = true;
      if (t == dtype::bf16 || out == dtype::bf16) needs.bf16 = true;
      return from_bits(out, to_bits(t, x));
    case op_kind::add: case op_kind::sub: case op_kind::mul: case op_kind::div: case op_kind::floordiv:
    case op_kind::mod: case op_kind::pow: case op_kind::atan2: case op_kind::hypot: case op_kind::copysign: case op_kind::bit_and: case op_kind::bit_or: case op_kind::bit_xor:
    case op_kind::shl: case op_kind::shr:
      if (a.size() != 2) break;
      if (t == dtype::b1) return bool_binary(k, x, a[1]);
      if (ir::is_float(t)) return float_binary(k, t, x, a[1], needs);
      return int_binary(k, t, x, a[1]);
    case op_kind::minimum:  // NumPy's loops: x2 on ties (minimum(0., -0.) is -0.), a NaN on either side wins
      if (ir::is_float(t)) return str("((", x, " < ", a[1], " || ", x, " != ", x, ") ? ", x, " : ", a[1], ")");
      return str("(", x, " <= ", a[1], " ? ", x, " : ", a[1], ")");
    case op_kind::maximum:
      if (ir::is_float(t)) return str("((", x, " > ", a[1], " || ", x, " != ", x, ") ? ", x, " : ", a[1], ")");
      return str("(", x, " >= ", a[1], " ? ", x, " : ", a[1], ")");
    case op_kind::eq: return paren(x + " == " + a[1]);
    case op_kind::ne: return paren(x + " != " + a[1]);
    case op_kind::lt: return paren(x + " < " + a[1]);
    case op_kind::le: return paren(x + " <= " + a[1]);
    case op_kind::gt: return paren(x + " > " + a[1]);
    case op_kind::ge: return paren(x + " >= " + a[1]);
    case op_kind::where:
      if (a.size() != 3) break;
      return str("(", x, " ? ", a[1], " : ", a[2], ")");
    default: break;
  }
  fail(error_kind::internal, "codegen: scalar_expr cannot form '", ir::info(k).text, "' with ", a.size(), " operands");
}

}  // namespace tegula::codegen
