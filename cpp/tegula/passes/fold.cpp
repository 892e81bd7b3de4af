// Constant folding of elementwise ops on scalar values, with the interpreter's semantics.
#include "tegula/passes/fold.hpp"

#include <cmath>
#include <cstdint>
#include <limits>

namespace tegula::passes {
namespace {

using ir::dtype;
using ir::op_kind;
using I = std::int64_t;
using U = std::uint64_t;

double round_format(double x, int precision, int emin, int emax) {
  if (!std::isfinite(x) || x == 0) return x;
  int e = std::max(std::ilogb(x), emin);
  double ulp = std::ldexp(1.0, e - (precision - 1));
  double r = std::nearbyint(x / ulp) * ulp;  // exact scaling by a power of two; ties to even
  double max = std::ldexp(2.0 - std::ldexp(1.0, 1 - precision), emax);
  return std::fabs(r) > max ? std::copysign(std::numeric_limits<double>::infinity(), x) : r;
}

// Integer bits wrapped to dtype t's width, canonical (see fold.hpp).
I wrap(U bits, dtype t) {
  if (ir::is_bool(t)) return bits != 0;
  int w = ir::size_bits(t);
  if (w == 64) return I(bits);
  U mask = (U(1) << w) - 1;
  bits &= mask;
  if (ir::is_signed_int(t) && (bits >> (w - 1))) bits |= ~mask;
  return I(bits);
}

U wrapping_pow(U base, U e) {
  U r = 1;
  for (; e; e >>= 1, base *= base)
    if (e & 1) r *= base;
  return r;
}

std::optional<ir::attribute> to_attr(double v, bool is_num, I i, dtype out) {
  if (ir::is_float(out)) {
    if (!is_num) return std::nullopt;
    return ir::attribute(round_float(v, out));
  }
  return ir::attribute(wrap(U(i), out));
}

std::optional<ir::attribute> fold_astype(dtype from, const ir::attribute& v, dtype to) {
  if (ir::is_float(from)) {
    double x = std::get<double>(v);
    if (ir::is_float(to)) return round_float(x, to);
    if (ir::is_bool(to)) return ir::attribute(I(x != 0));
    double t = std::trunc(x);
    int w = ir::size_bits(to);
    bool in_range = ir::is_signed_int(to) ? (t >= -std::ldexp(1.0, w - 1) && t < std::ldexp(1.0, w - 1))
                                          : (t >= 0 && t < std::ldexp(1.0, w));
    if (!in_range) return std::nullopt;  // NaN too: the run-time conversion saturates
    return ir::attribute(ir::is_signed_int(to) ? wrap(U(I(t)), to) : wrap(U(t), to));
  }
  I i = std::get<I>(v);
  if (ir::is_float(to)) {
    bool neg = ir::is_signed_int(from) && i < 0;
    U mag = neg ? 0 - U(i) : U(i);
    if (mag >= (U(1) << 53)) return std::nullopt;  // one exact rounding needs more care than it is worth
    return round_float(neg ? -double(mag) : double(mag), to);
  }
  return ir::attribute(wrap(U(i), to));
}

std::optional<ir::attribute> fold_unary(op_kind k, dtype t, const ir::attribute& v) {
  if (ir::is_float(t)) {
    double x = std::get<double>(v);
    switch (k) {
      case op_kind::neg: return -x;
      case op_kind::abs: return std::fabs(x);
      case op_kind::floor: return std::floor(x);
      case op_kind::ceil: return std::ceil(x);
      default: return std::nullopt;  // transcendentals differ between libm and CUDA
    }
  }
  I x = std::get<I>(v);
  switch (k) {
    case op_kind::neg: return wrap(0 - U(x), t);
    case op_kind::abs: return ir::is_signed_int(t) && x < 0 ? wrap(0 - U(x), t) : x;
    case op_kind::logical_not: return ir::is_bool(t) ? I(!x) : wrap(~U(x), t);
    default: return std::nullopt;
  }
}

std::optional<ir::attribute> fold_float_binary(op_kind k, dtype t, double x, double y) {
  switch (k) {
    case op_kind::add: return round_float(x + y, t);
    case op_kind::sub: return round_float(x - y, t);
    case op_kind::mul: return round_float(x * y, t);
    case op_kind::div: return round_float(x / y, t);
    case op_kind::minimum: return (x <= y || x != x) ? x : y;  // NaN-propagating, as the interpreter
    case op_kind::maximum: return (x >= y || x != x) ? x : y;
    case op_kind::eq: return I(x == y);
    case op_kind::ne: return I(x != y);
    case op_kind::lt: return I(x < y);
    case op_kind::le: return I(x <= y);
    case op_kind::gt: return I(x > y);
    case op_kind::ge: return I(x >= y);
    default: return std::nullopt;
  }
}

std::optional<ir::attribute> fold_signed_binary(op_kind k, dtype t, I x, I y) {
  const U width = U(ir::size_bits(t));
  switch (k) {
    case op_kind::add: return wrap(U(x) + U(y), t);
    case op_kind::sub: return wrap(U(x) - U(y), t);
    case op_kind::mul: return wrap(U(x) * U(y), t);
    case op_kind::div:
      if (y == 0) return std::nullopt;
      return wrap(y == -1 ? 0 - U(x) : U(x / y), t);
    case op_kind::floordiv: {
      if (y == 0) return std::nullopt;
      if (y == -1) return wrap(0 - U(x), t);
      I q = x / y;
      if (x % y != 0 && ((x < 0) != (y < 0))) --q;
      return wrap(U(q), t);
    }
    case op_kind::mod: {
      if (y == 0) return std::nullopt;
      if (y == -1) return I(0);
      I r = x % y;
      if (r != 0 && ((r < 0) != (y < 0))) r += y;
      return wrap(U(r), t);
    }
    case op_kind::pow:
      if (y < 0) return std::nullopt;
      return wrap(wrapping_pow(U(x), U(y)), t);
    case op_kind::minimum: return x < y ? x : y;
    case op_kind::maximum: return x > y ? x : y;
    case op_kind::bit_and: return wrap(U(x & y), t);
    case op_kind::bit_or: return wrap(U(x | y), t);
    case op_kind::bit_xor: return wrap(U(x ^ y), t);
    case op_kind::shl: return U(y) >= width ? I(0) : wrap(U(x) << y, t);
    case op_kind::shr: return U(y) >= width ? I(x < 0 ? -1 : 0) : wrap(U(x >> y), t);
    case op_kind::eq: return I(x == y);
    case op_kind::ne: return I(x != y);
    case op_kind::lt: return I(x < y);
    case op_kind::le: return I(x <= y);
    case op_kind::gt: return I(x > y);
    case op_kind::ge: return I(x >= y);
    default: return std::nullopt;
  }
}

std::optional<ir::attribute> fold_unsigned_binary(op_kind k, dtype t, U x, U y) {
  const U width = U(ir::size_bits(t));
  switch (k) {
    case op_kind::add: return wrap(x + y, t);
    case op_kind::sub: return wrap(x - y, t);
    case op_kind::mul: return wrap(x * y, t);
    case op_kind::div:
    case op_kind::floordiv:
      if (y == 0) return std::nullopt;
      return wrap(x / y, t);
    case op_kind::mod:
      if (y == 0) return std::nullopt;
      return wrap(x % y, t);
    case op_kind::pow: return wrap(wrapping_pow(x, y), t);
    case op_kind::minimum: return wrap(x < y ? x : y, t);
    case op_kind::maximum: return wrap(x > y ? x : y, t);
    case op_kind::bit_and: return wrap(x & y, t);
    case op_kind::bit_or: return wrap(x | y, t);
    case op_kind::bit_xor: return wrap(x ^ y, t);
    case op_kind::shl: return y >= width ? I(0) : wrap(x << y, t);
    case op_kind::shr: return y >= width ? I(0) : wrap(x >> y, t);
    case op_kind::eq: return I(x == y);
    case op_kind::ne: return I(x != y);
    case op_kind::lt: return I(x < y);
    case op_kind::le: return I(x <= y);
    case op_kind::gt: return I(x > y);
    case op_kind::ge: return I(x >= y);
    default: return std::nullopt;
  }
}

}  // namespace

double round_float(double v, dtype t) {
  switch (t) {
    case dtype::f64: return v;
    case dtype::f32: return double(float(v));
    case dtype::f16: return round_format(v, 11, -14, 15);
    case dtype::bf16: return round_format(v, 8, -126, 127);
    default: return v;
  }
}

std::optional<ir::attribute> read_constant(const ir::attribute& value, dtype t) {
  if (ir::is_float(t)) {
    if (auto* d = std::get_if<double>(&value)) return round_float(*d, t);
    if (auto* i = std::get_if<I>(&value)) {
      if (*i >= (I(1) << 53) || *i <= -(I(1) << 53)) return std::nullopt;
      return round_float(double(*i), t);
    }
    return std::nullopt;
  }
  if (auto* i = std::get_if<I>(&value)) return wrap(U(*i), t);
  return std::nullopt;
}

std::optional<ir::attribute> fold(const ir::op& o, const std::vector<dtype>& in, const std::vector<ir::attribute>& values,
                                  dtype out) {
  if (in.size() != values.size() || in.empty()) return std::nullopt;
  for (std::size_t i = 0; i < in.size(); ++i)
    if (ir::is_float(in[i]) ? !std::holds_alternative<double>(values[i]) : !std::holds_alternative<I>(values[i]))
      return std::nullopt;
  std::optional<ir::attribute> r;
  if (o.kind == op_kind::astype) {
    r = fold_astype(in[0], values[0], out);
  } else if (in.size() == 1) {
    r = fold_unary(o.kind, in[0], values[0]);
  } else if (in.size() == 2 && in[0] == in[1]) {
    dtype t = in[0];
    if (ir::is_float(t)) r = fold_float_binary(o.kind, t, std::get<double>(values[0]), std::get<double>(values[1]));
    else if (ir::is_signed_int(t)) r = fold_signed_binary(o.kind, t, std::get<I>(values[0]), std::get<I>(values[1]));
    else if (ir::is_unsigned_int(t) || ir::is_bool(t))
      r = fold_unsigned_binary(o.kind, t, U(std::get<I>(values[0])), U(std::get<I>(values[1])));
  }
  if (!r) return std::nullopt;
  // Canonicalize to the result dtype (comparisons give bool; bool add/mul normalize to or/and).
  if (auto* d = std::get_if<double>(&*r)) return to_attr(*d, true, 0, out);
  return to_attr(0, false, std::get<I>(*r), out);
}

}  // namespace tegula::passes
