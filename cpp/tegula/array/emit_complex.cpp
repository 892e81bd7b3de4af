// Complex arithmetic on float parts (see emit_complex.hpp). The formulas follow C99 Annex G and
// NumPy's npymath where it matters for special values: exp keeps a zero imaginary part exact,
// sqrt is the principal branch with infinite parts handled, division is Smith's (no overflow of
// |y|^2), tanh is Kahan's (no cancellation near its poles, no overflow for large real parts), and 0 ** w follows NumPy's rules.
#include "tegula/array/emit_complex.hpp"

#include <cmath>
#include <limits>

namespace tegula::array {

using ir::op_kind;
namespace {
constexpr double inf = std::numeric_limits<double>::infinity();
constexpr double nan = std::numeric_limits<double>::quiet_NaN();
}  // namespace
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

cvalue complex_ops::mul_recovering(cvalue x, cvalue y) {
  // C99 G.5.1's multiplication (the C compiler's, which NumPy's power reaches through cpow): where the plain
  // product is NaN + NaN i although an operand is infinite (or a product overflowed), the infinite parts become
  // +-1, the NaN parts +-0, and the product is taken again times infinity.
  cvalue plain = mul(x, y);
  auto is_nan = [&](value_id v) { return bin(op_kind::ne, v, v); };
  auto unit = [&](value_id v) { return bin(op_kind::copysign, b_.where(is_inf(v), c(1), c(0)), v); };
  auto nan_to_zero = [&](value_id v) { return b_.where(is_nan(v), bin(op_kind::copysign, c(0), v), v); };
  value_id x_inf = bin(op_kind::bit_or, is_inf(x.re), is_inf(x.im));
  value_id y_inf = bin(op_kind::bit_or, is_inf(y.re), is_inf(y.im));
  value_id a = x.re, bb = x.im, cc = y.re, d = y.im;
  // an infinite x: its parts to +-1 / +-0, y's NaN parts to +-0 (and the same the other way round)
  a = b_.where(x_inf, unit(a), a), bb = b_.where(x_inf, unit(bb), bb);
  cc = b_.where(x_inf, nan_to_zero(cc), cc), d = b_.where(x_inf, nan_to_zero(d), d);
  cc = b_.where(y_inf, unit(cc), cc), d = b_.where(y_inf, unit(d), d);
  a = b_.where(y_inf, nan_to_zero(a), a), bb = b_.where(y_inf, nan_to_zero(bb), bb);
  // neither infinite but a partial product overflowed: the NaN parts to +-0
  value_id overflow = bin(op_kind::bit_or, bin(op_kind::bit_or, is_inf(bin(op_kind::mul, x.re, y.re)), is_inf(bin(op_kind::mul, x.im, y.im))),
                          bin(op_kind::bit_or, is_inf(bin(op_kind::mul, x.re, y.im)), is_inf(bin(op_kind::mul, x.im, y.re))));
  value_id neither = un(op_kind::logical_not, bin(op_kind::bit_or, x_inf, y_inf));
  value_id by_overflow = both(neither, overflow);
  a = b_.where(by_overflow, nan_to_zero(a), a), bb = b_.where(by_overflow, nan_to_zero(bb), bb);
  cc = b_.where(by_overflow, nan_to_zero(cc), cc), d = b_.where(by_overflow, nan_to_zero(d), d);
  cvalue again = mul({a, bb}, {cc, d});
  value_id recalc = both(both(is_nan(plain.re), is_nan(plain.im)), bin(op_kind::bit_or, bin(op_kind::bit_or, x_inf, y_inf), overflow));
  return {b_.where(recalc, bin(op_kind::mul, c(inf), again.re), plain.re),
          b_.where(recalc, bin(op_kind::mul, c(inf), again.im), plain.im)};
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

value_id complex_ops::is_inf(value_id x) { return bin(op_kind::eq, un(op_kind::abs, x), c(inf)); }
value_id complex_ops::is_finite(value_id x) { return bin(op_kind::lt, un(op_kind::abs, x), c(inf)); }  // false for NaN
value_id complex_ops::is_zero(value_id x) { return bin(op_kind::eq, x, c(0)); }
value_id complex_ops::both(value_id p, value_id q) { return bin(op_kind::bit_and, p, q); }
// Past this x, e^x overflows the part type (float32: e^88.7, float64: e^709.8).
double complex_ops::exp_limit() const { return ir::size_bytes(t_) == 4 ? 88 : 709; }

// The special values below are C99 Annex G's (G.6.2, G.6.3), with the signs glibc (and so NumPy) chooses where
// the annex leaves them open. Each formula is the finite one; `where`s replace what it gets wrong at infinite,
// NaN and zero parts.

cvalue complex_ops::exp(cvalue z) {
  // exp(x + iy) = e^x cis y. Past x = 709 e^x overflows while e^x cos y may not: e^(x/2) cos y e^(x/2).
  value_id e = un(op_kind::exp, z.re), h = un(op_kind::exp, bin(op_kind::mul, z.re, c(0.5)));
  value_id cy = un(op_kind::cos, z.im), sy = un(op_kind::sin, z.im);
  value_id big = bin(op_kind::gt, z.re, c(exp_limit()));
  value_id re = b_.where(big, bin(op_kind::mul, bin(op_kind::mul, h, cy), h), bin(op_kind::mul, e, cy));
  value_id im = b_.where(big, bin(op_kind::mul, bin(op_kind::mul, h, sy), h), bin(op_kind::mul, e, sy));
  im = b_.where(is_zero(z.im), z.im, im);                        // exp(x + 0i) = e^x + 0i, also for x = +-inf, NaN
  value_id odd_y = un(op_kind::logical_not, is_finite(z.im));    // y infinite or NaN
  value_id to_zero = both(bin(op_kind::eq, z.re, c(-inf)), odd_y);  // exp(-inf + i{inf,NaN}) = 0 +- 0i
  value_id to_inf = both(bin(op_kind::eq, z.re, c(inf)), odd_y);    // exp(+inf + i{inf,NaN}) = inf + NaN i
  re = b_.where(to_zero, c(0), b_.where(to_inf, c(inf), re));
  im = b_.where(to_zero, bin(op_kind::copysign, c(0), z.im), b_.where(to_inf, c(nan), im));
  return {re, im};
}

// cosh x and sinh x times c (a cos y or sin y), without overflow where the product is finite: past exp_limit()
// they are e^|x| / 2, taken as e^(|x|/2) (c / 2) e^(|x|/2).
value_id complex_ops::hyperbolic_times(op_kind f, value_id x, value_id c_) {
  value_id h = un(op_kind::exp, bin(op_kind::mul, un(op_kind::abs, x), c(0.5)));
  value_id scaled = bin(op_kind::mul, bin(op_kind::mul, h, bin(op_kind::mul, c_, c(0.5))), h);
  if (f == op_kind::sinh) scaled = b_.where(bin(op_kind::lt, x, c(0)), un(op_kind::neg, scaled), scaled);  // odd
  value_id big = bin(op_kind::gt, un(op_kind::abs, x), c(exp_limit()));
  return b_.where(big, scaled, bin(op_kind::mul, un(f, x), c_));
}

cvalue complex_ops::sinh(cvalue z) {
  // sinh(x + iy) = sinh x cos y + i cosh x sin y (odd, conjugate-symmetric).
  value_id re = hyperbolic_times(op_kind::sinh, z.re, un(op_kind::cos, z.im));
  value_id im = hyperbolic_times(op_kind::cosh, z.re, un(op_kind::sin, z.im));
  value_id odd_y = un(op_kind::logical_not, is_finite(z.im));
  re = b_.where(both(odd_y, is_zero(z.re)), z.re, re);         // sinh(+-0 + i{inf,NaN}) = +-0 + NaN i
  re = b_.where(both(odd_y, is_inf(z.re)), c(inf), re);        // sinh(+-inf + i{inf,NaN}) = inf + NaN i
  im = b_.where(is_zero(z.im), z.im, im);                      // sinh(x + 0i) = sinh x + 0i
  return {re, im};
}

cvalue complex_ops::cosh(cvalue z) {
  // cosh(x + iy) = cosh x cos y + i sinh x sin y (even, conjugate-symmetric).
  value_id re = hyperbolic_times(op_kind::cosh, z.re, un(op_kind::cos, z.im));
  value_id im = hyperbolic_times(op_kind::sinh, z.re, un(op_kind::sin, z.im));
  value_id odd_y = un(op_kind::logical_not, is_finite(z.im));
  re = b_.where(both(odd_y, is_inf(z.re)), c(inf), re);        // cosh(+-inf + i{inf,NaN}) = inf + NaN i
  im = b_.where(both(odd_y, is_zero(z.re)), c(0), im);         // cosh(+-0 + i{inf,NaN}) = NaN + 0i
  // cosh(x + 0i) = cosh x + 0i with the sign of x y, also where sinh x overflows; cosh(NaN + 0i) = NaN + 0i
  value_id y0 = both(is_zero(z.im), bin(op_kind::ne, z.re, c(0)));
  im = b_.where(y0, b_.where(bin(op_kind::lt, z.re, c(0)), un(op_kind::neg, z.im), z.im), im);
  return {re, im};
}

// Past max / 4 (a quarter of the part type's largest value), |z| and |x| + |z| can overflow: the callers halve or
// quarter the parts there first.
value_id complex_ops::is_big(cvalue z) {
  const double quarter = ir::size_bytes(t_) == 4 ? 8.5e37 : 4.4e307;
  return bin(op_kind::gt, bin(op_kind::maximum, un(op_kind::abs, z.re), un(op_kind::abs, z.im)), c(quarter));
}

cvalue complex_ops::log(cvalue z) {
  // log |z| + i arg z; |z| = 2 |z / 2| where |z| would overflow; near |z| = 1, log1p((a - 1)(a + 1) + b^2) / 2
  // with a the larger part (no cancellation in |z| - 1, as glibc's clog).
  value_id h = bin(op_kind::hypot, z.re, z.im);
  value_id r = un(op_kind::log, h);
  value_id near1 = both(bin(op_kind::gt, h, c(0.5)), bin(op_kind::lt, h, c(2)));
  value_id ax = un(op_kind::abs, z.re), ay = un(op_kind::abs, z.im);
  value_id big = bin(op_kind::maximum, ax, ay), small = bin(op_kind::minimum, ax, ay);  // |z|^2 - 1 from the larger
  value_id u = bin(op_kind::add, bin(op_kind::mul, bin(op_kind::sub, big, c(1)), bin(op_kind::add, big, c(1))),
                   bin(op_kind::mul, small, small));
  r = b_.where(near1, bin(op_kind::mul, c(0.5), un(op_kind::log1p, u)), r);
  value_id half = bin(op_kind::add, un(op_kind::log, bin(op_kind::hypot, bin(op_kind::mul, z.re, c(0.5)),
                                                           bin(op_kind::mul, z.im, c(0.5)))), c(std::log(2.0)));
  return {b_.where(is_big(z), half, r), bin(op_kind::atan2, z.im, z.re)};
}

cvalue complex_ops::sqrt(cvalue z) {
  // t = sqrt((|x| + |z|) / 2); where that sum would overflow, t = 2 sqrt(|x| / 8 + |z / 4| / 2).
  value_id t = un(op_kind::sqrt, bin(op_kind::add, bin(op_kind::mul, un(op_kind::abs, z.re), c(0.5)),
                                     bin(op_kind::mul, bin(op_kind::hypot, z.re, z.im), c(0.5))));
  value_id qh = bin(op_kind::hypot, bin(op_kind::mul, z.re, c(0.25)), bin(op_kind::mul, z.im, c(0.25)));
  value_id tb = bin(op_kind::mul, c(2), un(op_kind::sqrt, bin(op_kind::add, bin(op_kind::mul, un(op_kind::abs, z.re), c(0.125)),
                                                               bin(op_kind::mul, qh, c(0.5)))));
  t = b_.where(is_big(z), tb, t);
  value_id q = bin(op_kind::mul, bin(op_kind::div, z.im, t), c(0.5));  // im / 2t (|im| / t <= sqrt(2 |im|))
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
  // sinh^2 overflows first, and the value is +-1 + i 4 t / (1 + t^2) e^(-2|a|) (= 4 sin b cos b e^(-2|a|)).
  value_id t = un(op_kind::tan, z.im), beta = bin(op_kind::add, c(1), bin(op_kind::mul, t, t));
  value_id s = un(op_kind::sinh, z.re), rho = un(op_kind::sqrt, bin(op_kind::add, c(1), bin(op_kind::mul, s, s)));
  value_id den = bin(op_kind::add, c(1), bin(op_kind::mul, beta, bin(op_kind::mul, s, s)));
  value_id big = bin(op_kind::gt, un(op_kind::abs, z.re), c(20));
  value_id re = b_.where(big, bin(op_kind::copysign, c(1), z.re), bin(op_kind::div, bin(op_kind::mul, bin(op_kind::mul, beta, rho), s), den));
  value_id tail = bin(op_kind::mul, bin(op_kind::mul, c(4), bin(op_kind::div, t, beta)),
                      un(op_kind::exp, un(op_kind::neg, bin(op_kind::mul, c(2), un(op_kind::abs, z.re)))));
  value_id im = b_.where(big, tail, bin(op_kind::div, t, den));
  im = b_.where(is_zero(z.im), z.im, im);  // tanh(x + 0i) = tanh x + 0i, also for x NaN
  // y infinite or NaN: tanh(+-inf + iy) = +-1 + 0i (the sign of y), tanh(+-0 + iy) = +-0 + NaN i, else NaN + NaN i
  value_id odd_y = un(op_kind::logical_not, is_finite(z.im)), inf_x = is_inf(z.re);
  re = b_.where(odd_y, b_.where(inf_x, re, b_.where(is_zero(z.re), z.re, c(nan))), re);
  im = b_.where(odd_y, b_.where(inf_x, bin(op_kind::copysign, c(0), z.im), c(nan)), im);
  return {re, im};
}

value_id complex_ops::less(cvalue x, cvalue y, bool or_equal) {
  // NumPy's CLT/CLE: the real parts decide only when neither imaginary part is NaN.
  value_id no_nan = bin(op_kind::bit_and, bin(op_kind::eq, x.im, x.im), bin(op_kind::eq, y.im, y.im));
  value_id tie = bin(op_kind::bit_and, bin(op_kind::eq, x.re, y.re), bin(or_equal ? op_kind::le : op_kind::lt, x.im, y.im));
  return bin(op_kind::bit_or, bin(op_kind::bit_and, bin(op_kind::lt, x.re, y.re), no_nan), tie);
}

bool has_complex_loop(op_kind op) {
  switch (op) {
    // unary (complex_ops::unary)
    case op_kind::neg: case op_kind::abs: case op_kind::rint: case op_kind::exp: case op_kind::exp2:
    case op_kind::log: case op_kind::log2: case op_kind::log10: case op_kind::sqrt: case op_kind::sin:
    case op_kind::cos: case op_kind::tan: case op_kind::sinh: case op_kind::cosh: case op_kind::tanh:
    // binary (complex_ops::binary)
    case op_kind::add: case op_kind::sub: case op_kind::mul: case op_kind::div: case op_kind::pow:
    case op_kind::maximum: case op_kind::minimum: case op_kind::eq: case op_kind::ne: case op_kind::lt:
    case op_kind::le: case op_kind::gt: case op_kind::ge:
      return true;
    default: return false;
  }
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
    // The circular functions through the hyperbolic ones, as Annex G defines their special values:
    // sin z = -i sinh(iz), cos z = cosh(iz), tan z = -i tanh(iz), with iz = -y + ix.
    case op_kind::sin: {  // glibc's csin: sin({inf,NaN} +- inf i) = NaN + inf i
      cvalue w = sinh({un(op_kind::neg, z.im), z.re});
      value_id inf_im = both(un(op_kind::logical_not, is_finite(z.re)), is_inf(z.im));
      return {w.im, b_.where(inf_im, c(inf), un(op_kind::neg, w.re))};
    }
    case op_kind::cos: return cosh({un(op_kind::neg, z.im), z.re});
    case op_kind::sinh: return sinh(z);
    case op_kind::cosh: return cosh(z);
    case op_kind::tanh: return tanh(z);
    case op_kind::tan: {  // tan z = -i tanh(i z)
      cvalue w = tanh({un(op_kind::neg, z.im), z.re});
      return {w.im, un(op_kind::neg, w.re)};
    }
    default: fail(error_kind::internal, "complex_ops: unary '", ir::info(op).text, "'");
  }
}

cvalue complex_ops::power(cvalue x, cvalue y) {
  // NumPy's nc_pow, case by case: x ** 0 = 1; 0 ** y = 0 for Re y > 0, else NaN; a real integer y with |y| < 100
  // by products (plain ones, from 1 + 0i: y = 1 is x itself, 2 is x x, 3 is x (x x), others binary powering,
  // and 1 / that for y < 0); else cpow, exp(y log x) with C99's multiplication.
  cvalue r = exp(mul_recovering(y, log(x)));
  value_id n = un(op_kind::abs, y.re);
  value_id small_int = both(both(is_zero(y.im), bin(op_kind::eq, un(op_kind::floor, y.re), y.re)), bin(op_kind::lt, n, c(100)));
  cvalue x2 = mul(x, x), x3 = mul(x, x2);
  cvalue aa{c(1), c(0)}, p = x;
  for (int k = 0; k < 7; ++k) {  // |y| < 100 < 2^7
    value_id bit = bin(op_kind::eq, bin(op_kind::mod, un(op_kind::floor, bin(op_kind::mul, n, c(std::ldexp(1.0, -k)))), c(2)), c(1));
    cvalue with = mul(aa, p);
    aa = {b_.where(bit, with.re, aa.re), b_.where(bit, with.im, aa.im)};
    if (k < 6) p = mul(p, p);
  }
  cvalue inverse = div({c(1), c(0)}, aa);  // NumPy's nc_quot is Smith's division, as div
  value_id negative = bin(op_kind::lt, y.re, c(0));
  cvalue powered{b_.where(negative, inverse.re, aa.re), b_.where(negative, inverse.im, aa.im)};
  auto pick3 = [&](value_id cond, cvalue a, cvalue b) { return cvalue{b_.where(cond, a.re, b.re), b_.where(cond, a.im, b.im)}; };
  powered = pick3(bin(op_kind::eq, y.re, c(3)), x3, pick3(bin(op_kind::eq, y.re, c(2)), x2, pick3(bin(op_kind::eq, y.re, c(1)), x, powered)));
  r = pick3(small_int, powered, r);
  value_id y0 = both(is_zero(y.re), is_zero(y.im));
  value_id x0 = both(is_zero(x.re), is_zero(x.im));
  value_id at0 = b_.where(bin(op_kind::gt, y.re, c(0)), c(0), c(nan));  // NumPy 2: 0 ** y = 0 for Re y > 0
  r = {b_.where(x0, at0, r.re), b_.where(x0, at0, r.im)};
  return {b_.where(y0, c(1), r.re), b_.where(y0, c(0), r.im)};
}

cvalue complex_ops::binary(op_kind op, cvalue x, cvalue y) {
  auto is_nan = [&](cvalue v) { return bin(op_kind::bit_or, bin(op_kind::ne, v.re, v.re), bin(op_kind::ne, v.im, v.im)); };
  auto pick = [&](value_id take_x) { return cvalue{b_.where(take_x, x.re, y.re), b_.where(take_x, x.im, y.im)}; };
  switch (op) {
    case op_kind::add: return {bin(op_kind::add, x.re, y.re), bin(op_kind::add, x.im, y.im)};
    case op_kind::sub: return {bin(op_kind::sub, x.re, y.re), bin(op_kind::sub, x.im, y.im)};
    case op_kind::mul: return mul(x, y);
    case op_kind::div: return div(x, y);
    case op_kind::pow: return power(x, y);
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
