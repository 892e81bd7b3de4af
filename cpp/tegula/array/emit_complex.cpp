// Complex arithmetic on float parts (see emit_complex.hpp). The formulas follow C99 Annex G and
// NumPy's npymath where it matters for special values: exp keeps a zero imaginary part exact,
// sqrt is the principal branch with infinite parts handled, division is Smith's (no overflow of
// |y|^2), tanh is Kahan's (no cancellation near its poles, no overflow for large real parts), and 0 ** w follows NumPy's rules.
#include "tegula/array/emit_complex.hpp"

#include <cmath>
#include <limits>

namespace tegula::array {

using ir::op_kind;
using ir::type;
using ir::value_id;

value_id complex_ops::c(double v) { return b_.constant(v, type::tile(t_)); }
value_id complex_ops::un(op_kind op, value_id x) { return b_.create1(op, {x}); }
value_id complex_ops::bin(op_kind op, value_id x, value_id y) { return b_.binary(op, x, y); }

cvalue complex_ops::mul(cvalue x, cvalue y) {
  value_id re = bin(op_kind::sub, bin(op_kind::mul, x.re, y.re), bin(op_kind::mul, x.im, y.im));
  value_id im = bin(op_kind::add, bin(op_kind::mul, x.re, y.im), bin(op_kind::mul, x.im, y.re));
  return {re, im};
}

cvalue complex_ops::div(cvalue x, cvalue y) {
  // Smith: scale by the larger part of y. Division by a complex zero divides each part by |0| (NumPy).
  value_id by_re = bin(op_kind::ge, un(op_kind::abs, y.re), un(op_kind::abs, y.im));
  value_id r1 = bin(op_kind::div, y.im, y.re), d1 = bin(op_kind::add, y.re, bin(op_kind::mul, y.im, r1));
  value_id re1 = bin(op_kind::div, bin(op_kind::add, x.re, bin(op_kind::mul, x.im, r1)), d1);
  value_id im1 = bin(op_kind::div, bin(op_kind::sub, x.im, bin(op_kind::mul, x.re, r1)), d1);
  value_id r2 = bin(op_kind::div, y.re, y.im), d2 = bin(op_kind::add, y.im, bin(op_kind::mul, y.re, r2));
  value_id re2 = bin(op_kind::div, bin(op_kind::add, bin(op_kind::mul, x.re, r2), x.im), d2);
  value_id im2 = bin(op_kind::div, bin(op_kind::sub, bin(op_kind::mul, x.im, r2), x.re), d2);
  value_id zero = bin(op_kind::bit_and, bin(op_kind::eq, y.re, c(0)), bin(op_kind::eq, y.im, c(0)));
  value_id re = b_.where(by_re, re1, re2), im = b_.where(by_re, im1, im2);
  value_id az = un(op_kind::abs, y.re);
  return {b_.where(zero, bin(op_kind::div, x.re, az), re), b_.where(zero, bin(op_kind::div, x.im, az), im)};
}

cvalue complex_ops::exp(cvalue z) {
  value_id e = un(op_kind::exp, z.re);
  value_id im = b_.where(bin(op_kind::eq, z.im, c(0)), z.im, bin(op_kind::mul, e, un(op_kind::sin, z.im)));
  return {bin(op_kind::mul, e, un(op_kind::cos, z.im)), im};
}

cvalue complex_ops::log(cvalue z) {
  return {un(op_kind::log, bin(op_kind::hypot, z.re, z.im)), bin(op_kind::atan2, z.im, z.re)};
}

cvalue complex_ops::sqrt(cvalue z) {
  const double inf = std::numeric_limits<double>::infinity();
  value_id t = un(op_kind::sqrt, bin(op_kind::mul, bin(op_kind::add, un(op_kind::abs, z.re), bin(op_kind::hypot, z.re, z.im)), c(0.5)));
  value_id q = bin(op_kind::div, z.im, bin(op_kind::mul, t, c(2)));  // im / 2t
  value_id right = bin(op_kind::ge, z.re, c(0));
  value_id re = b_.where(right, t, un(op_kind::abs, q));
  value_id im = b_.where(right, q, bin(op_kind::copysign, t, z.im));
  value_id zero = bin(op_kind::bit_and, bin(op_kind::eq, z.re, c(0)), bin(op_kind::eq, z.im, c(0)));
  value_id inf_im = bin(op_kind::eq, un(op_kind::abs, z.im), c(inf));  // sqrt(x +- inf j) = inf +- inf j
  re = b_.where(zero, c(0), b_.where(inf_im, c(inf), re));
  im = b_.where(bin(op_kind::bit_or, zero, inf_im), z.im, im);
  return {re, im};
}

cvalue complex_ops::tanh(cvalue z) {
  // Kahan's form (as C libraries' ctanh): t = tan b, beta = 1 + t^2, s = sinh a, rho = sqrt(1 + s^2);
  // tanh z = (beta rho s + i t) / (1 + beta s^2). No cancellation near the poles. Past |a| = 20
  // sinh^2 overflows first, and the value is +-1 + i 4 t (1 + t^2) e^(-2|a|) ~ +-1 + i 0.
  value_id t = un(op_kind::tan, z.im), beta = bin(op_kind::add, c(1), bin(op_kind::mul, t, t));
  value_id s = un(op_kind::sinh, z.re), rho = un(op_kind::sqrt, bin(op_kind::add, c(1), bin(op_kind::mul, s, s)));
  value_id den = bin(op_kind::add, c(1), bin(op_kind::mul, beta, bin(op_kind::mul, s, s)));
  value_id big = bin(op_kind::gt, un(op_kind::abs, z.re), c(20));
  value_id re = b_.where(big, bin(op_kind::copysign, c(1), z.re), bin(op_kind::div, bin(op_kind::mul, bin(op_kind::mul, beta, rho), s), den));
  value_id tail = bin(op_kind::mul, bin(op_kind::mul, c(4), bin(op_kind::mul, t, beta)),
                      un(op_kind::exp, un(op_kind::neg, bin(op_kind::mul, c(2), un(op_kind::abs, z.re)))));
  value_id im = b_.where(big, tail, bin(op_kind::div, t, den));
  return {re, im};
}

value_id complex_ops::less(cvalue x, cvalue y, bool or_equal) {
  // NumPy's CLT/CLE: the real parts decide only when neither imaginary part is NaN.
  value_id no_nan = bin(op_kind::bit_and, bin(op_kind::eq, x.im, x.im), bin(op_kind::eq, y.im, y.im));
  value_id tie = bin(op_kind::bit_and, bin(op_kind::eq, x.re, y.re), bin(or_equal ? op_kind::le : op_kind::lt, x.im, y.im));
  return bin(op_kind::bit_or, bin(op_kind::bit_and, bin(op_kind::lt, x.re, y.re), no_nan), tie);
}

cvalue complex_ops::unary(op_kind op, cvalue z) {
  const double ln2 = std::log(2.0), ln10 = std::log(10.0);
  auto scaled = [&](cvalue v, double k) { return cvalue{bin(op_kind::mul, v.re, c(k)), bin(op_kind::mul, v.im, c(k))}; };
  switch (op) {
    case op_kind::neg: return {un(op_kind::neg, z.re), un(op_kind::neg, z.im)};
    case op_kind::abs: return {bin(op_kind::hypot, z.re, z.im), -1};
    case op_kind::rint: return {un(op_kind::rint, z.re), un(op_kind::rint, z.im)};
    case op_kind::exp: return exp(z);
    case op_kind::exp2: return exp(scaled(z, ln2));
    case op_kind::log: return log(z);
    case op_kind::log2: return scaled(log(z), 1 / ln2);
    case op_kind::log10: return scaled(log(z), 1 / ln10);
    case op_kind::sqrt: return sqrt(z);
    case op_kind::sin:
      return {bin(op_kind::mul, un(op_kind::sin, z.re), un(op_kind::cosh, z.im)),
              bin(op_kind::mul, un(op_kind::cos, z.re), un(op_kind::sinh, z.im))};
    case op_kind::cos:
      return {bin(op_kind::mul, un(op_kind::cos, z.re), un(op_kind::cosh, z.im)),
              un(op_kind::neg, bin(op_kind::mul, un(op_kind::sin, z.re), un(op_kind::sinh, z.im)))};
    case op_kind::sinh:
      return {bin(op_kind::mul, un(op_kind::sinh, z.re), un(op_kind::cos, z.im)),
              bin(op_kind::mul, un(op_kind::cosh, z.re), un(op_kind::sin, z.im))};
    case op_kind::cosh:
      return {bin(op_kind::mul, un(op_kind::cosh, z.re), un(op_kind::cos, z.im)),
              bin(op_kind::mul, un(op_kind::sinh, z.re), un(op_kind::sin, z.im))};
    case op_kind::tanh: return tanh(z);
    case op_kind::tan: {  // tan z = -i tanh(i z)
      cvalue w = tanh({un(op_kind::neg, z.im), z.re});
      return {w.im, un(op_kind::neg, w.re)};
    }
    default: fail(error_kind::internal, "complex_ops: unary '", ir::info(op).text, "'");
  }
}

cvalue complex_ops::binary(op_kind op, cvalue x, cvalue y) {
  auto is_nan = [&](cvalue v) { return bin(op_kind::bit_or, bin(op_kind::ne, v.re, v.re), bin(op_kind::ne, v.im, v.im)); };
  auto pick = [&](value_id take_x) { return cvalue{b_.where(take_x, x.re, y.re), b_.where(take_x, x.im, y.im)}; };
  switch (op) {
    case op_kind::add: return {bin(op_kind::add, x.re, y.re), bin(op_kind::add, x.im, y.im)};
    case op_kind::sub: return {bin(op_kind::sub, x.re, y.re), bin(op_kind::sub, x.im, y.im)};
    case op_kind::mul: return mul(x, y);
    case op_kind::div: return div(x, y);
    case op_kind::pow: {
      // exp(y log x); x ** 0 = 1; 0 ** y = 0 for Re y > 0, else nan (NumPy's npy_cpow).
      cvalue r = exp(mul(y, log(x)));
      value_id y0 = bin(op_kind::bit_and, bin(op_kind::eq, y.re, c(0)), bin(op_kind::eq, y.im, c(0)));
      value_id x0 = bin(op_kind::bit_and, bin(op_kind::eq, x.re, c(0)), bin(op_kind::eq, x.im, c(0)));
      value_id to_zero = bin(op_kind::gt, y.re, c(0));
      value_id at0 = b_.where(to_zero, c(0), c(std::numeric_limits<double>::quiet_NaN()));
      r = {b_.where(x0, at0, r.re), b_.where(x0, at0, r.im)};
      return {b_.where(y0, c(1), r.re), b_.where(y0, c(0), r.im)};
    }
    case op_kind::maximum: return pick(bin(op_kind::bit_or, less(y, x, true), is_nan(x)));
    case op_kind::minimum: return pick(bin(op_kind::bit_or, less(x, y, true), is_nan(x)));
    case op_kind::eq: return {bin(op_kind::bit_and, bin(op_kind::eq, x.re, y.re), bin(op_kind::eq, x.im, y.im)), -1};
    case op_kind::ne: return {bin(op_kind::bit_or, bin(op_kind::ne, x.re, y.re), bin(op_kind::ne, x.im, y.im)), -1};
    case op_kind::lt: return {less(x, y, false), -1};
    case op_kind::le: return {less(x, y, true), -1};
    case op_kind::gt: return {less(y, x, false), -1};
    case op_kind::ge: return {less(y, x, true), -1};
    default: fail(error_kind::internal, "complex_ops: binary '", ir::info(op).text, "'");
  }
}

}  // namespace tegula::array
