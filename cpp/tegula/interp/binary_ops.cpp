// Elementwise binary ops, comparisons and where: NumPy's semantics per dtype, then normalized.
#include <cmath>

#include "tegula/interp/elementwise.hpp"
#include "tegula/interp/op_failure.hpp"

namespace tegula::interp {
namespace {

void check_same(const tile_value& a, const tile_value& b) {
  if (a.dtype() != b.dtype() || a.shape() != b.shape())
    fail_op("operands differ: ", ir::name(a.dtype()), shape_string(a.shape()), " and ", ir::name(b.dtype()),
            shape_string(b.shape()), " (the front end inserts casts and broadcasts)");
}

template <class T, class R = T, class F>
tile_value map2(const tile_value& a, const tile_value& b, ir::dtype out, F f) {
  tile_value r(out, a.shape());
  const T* x = a.data<T>();
  const T* y = b.data<T>();
  R* o = r.data<R>();
  const std::int64_t n = a.numel();
  for (std::int64_t i = 0; i < n; ++i) o[i] = f(x[i], y[i]);
  r.normalize();
  return r;
}

template <class T>
void check_no_zero_divisor(const tile_value& b) {
  const T* y = b.data<T>();
  for (std::int64_t i = 0; i < b.numel(); ++i)
    if (y[i] == 0) fail_op("integer division by zero");
}

// NumPy's npy_divmod: floor division and the remainder with the divisor's sign, computed in C
// (float for float16/bfloat16/float32, double for float64) as NumPy does.
template <class C>
C np_floordiv(C a, C b, C* remainder) {
  C mod = std::fmod(a, b);
  if (b == 0) {
    *remainder = mod;
    return a / b;
  }
  C div = (a - mod) / b;
  if (mod != 0) {
    if ((b < 0) != (mod < 0)) {
      mod += b;
      div -= C(1);
    }
  } else {
    mod = std::copysign(C(0), b);
  }
  C floordiv;
  if (div != 0) {
    floordiv = std::floor(div);
    if (div - floordiv > C(0.5)) floordiv += C(1);
  } else {
    floordiv = std::copysign(C(0), a / b);
  }
  *remainder = mod;
  return floordiv;
}

template <class C>
double real_floordiv(double a, double b) {
  C m;
  return double(np_floordiv<C>(C(a), C(b), &m));
}

template <class C>
double real_mod(double a, double b) {
  C m;
  if (C(b) == 0) return double(std::fmod(C(a), C(b)));
  np_floordiv<C>(C(a), C(b), &m);
  return double(m);
}

tile_value real_binary(binary_fn fn, const tile_value& a, const tile_value& b) {
  using D = double;
  const ir::dtype t = a.dtype();
  const bool wide = t == ir::dtype::f64;
  switch (fn) {
    case binary_fn::add: return map2<D>(a, b, t, [](D x, D y) { return x + y; });
    case binary_fn::sub: return map2<D>(a, b, t, [](D x, D y) { return x - y; });
    case binary_fn::mul: return map2<D>(a, b, t, [](D x, D y) { return x * y; });
    case binary_fn::div: return map2<D>(a, b, t, [](D x, D y) { return x / y; });
    case binary_fn::floordiv:
      return wide ? map2<D>(a, b, t, real_floordiv<double>) : map2<D>(a, b, t, real_floordiv<float>);
    case binary_fn::mod: return wide ? map2<D>(a, b, t, real_mod<double>) : map2<D>(a, b, t, real_mod<float>);
    case binary_fn::pow: return map2<D>(a, b, t, [](D x, D y) { return std::pow(x, y); });
    case binary_fn::atan2:  // in the dtype's precision, as the GPU's atan2f
      return wide ? map2<D>(a, b, t, [](D y, D x) { return std::atan2(y, x); })
                  : map2<D>(a, b, t, [](D y, D x) { return double(std::atan2(float(y), float(x))); });
    case binary_fn::hypot:
      return wide ? map2<D>(a, b, t, [](D x, D y) { return std::hypot(x, y); })
                  : map2<D>(a, b, t, [](D x, D y) { return double(std::hypot(float(x), float(y))); });
    case binary_fn::copysign: return map2<D>(a, b, t, [](D x, D y) { return std::copysign(x, y); });
    case binary_fn::minimum: return map2<D>(a, b, t, [](D x, D y) { return (x < y || x != x) ? x : y; });  // y on ties, as NumPy
    case binary_fn::maximum: return map2<D>(a, b, t, [](D x, D y) { return (x > y || x != x) ? x : y; });
    case binary_fn::bit_and: case binary_fn::bit_or: case binary_fn::bit_xor:
    case binary_fn::shl: case binary_fn::shr: break;
  }
  fail_op("needs bool or integer operands, got ", ir::name(t));
}

std::uint64_t wrapping_pow(std::uint64_t base, std::uint64_t e) {
  std::uint64_t r = 1;
  for (; e; e >>= 1, base *= base)
    if (e & 1) r *= base;
  return r;
}

// Signed ints and bool: int64 storage; +, -, *, <<, pow wrap through uint64 (no UB), and
// normalize() wraps to the dtype's width. bool + is `or` and * is `and` after normalization.
tile_value int_binary(binary_fn fn, const tile_value& a, const tile_value& b) {
  using I = std::int64_t;
  using U = std::uint64_t;
  const ir::dtype t = a.dtype();
  const U width = U(ir::size_bits(t));
  switch (fn) {
    case binary_fn::add: return map2<I>(a, b, t, [](I x, I y) { return I(U(x) + U(y)); });
    case binary_fn::sub: return map2<I>(a, b, t, [](I x, I y) { return I(U(x) - U(y)); });
    case binary_fn::mul: return map2<I>(a, b, t, [](I x, I y) { return I(U(x) * U(y)); });
    case binary_fn::div:
      check_no_zero_divisor<I>(b);
      return map2<I>(a, b, t, [](I x, I y) { return y == -1 ? I(U(0) - U(x)) : x / y; });
    case binary_fn::floordiv:
      check_no_zero_divisor<I>(b);
      return map2<I>(a, b, t, [](I x, I y) {
        if (y == -1) return I(U(0) - U(x));
        I q = x / y;
        if (x % y != 0 && ((x < 0) != (y < 0))) --q;
        return q;
      });
    case binary_fn::mod:
      check_no_zero_divisor<I>(b);
      return map2<I>(a, b, t, [](I x, I y) {
        if (y == -1) return I(0);
        I r = x % y;
        if (r != 0 && ((r < 0) != (y < 0))) r += y;
        return r;
      });
    case binary_fn::pow: {
      const I* e = b.data<I>();
      for (std::int64_t i = 0; i < b.numel(); ++i)
        if (e[i] < 0) fail_op("integers to negative integer powers are not allowed");
      return map2<I>(a, b, t, [](I x, I y) { return I(wrapping_pow(U(x), U(y))); });
    }
    case binary_fn::minimum: return map2<I>(a, b, t, [](I x, I y) { return x < y ? x : y; });
    case binary_fn::maximum: return map2<I>(a, b, t, [](I x, I y) { return x > y ? x : y; });
    case binary_fn::bit_and: return map2<I>(a, b, t, [](I x, I y) { return x & y; });
    case binary_fn::bit_or: return map2<I>(a, b, t, [](I x, I y) { return x | y; });
    case binary_fn::bit_xor: return map2<I>(a, b, t, [](I x, I y) { return x ^ y; });
    // NumPy: a shift by the width or more (or by a negative amount) gives 0, or -1 for a
    // negative value shifted right.
    case binary_fn::shl:
      return map2<I>(a, b, t, [width](I x, I y) { return U(y) >= width ? I(0) : I(U(x) << y); });
    case binary_fn::shr:
      return map2<I>(a, b, t, [width](I x, I y) { return U(y) >= width ? (x < 0 ? I(-1) : I(0)) : x >> y; });
    case binary_fn::atan2: case binary_fn::hypot: case binary_fn::copysign: break;
  }
  fail_op("needs float operands, got ", ir::name(t));
}

tile_value uint_binary(binary_fn fn, const tile_value& a, const tile_value& b) {
  using U = std::uint64_t;
  const ir::dtype t = a.dtype();
  const U width = U(ir::size_bits(t));
  switch (fn) {
    case binary_fn::add: return map2<U>(a, b, t, [](U x, U y) { return x + y; });
    case binary_fn::sub: return map2<U>(a, b, t, [](U x, U y) { return x - y; });
    case binary_fn::mul: return map2<U>(a, b, t, [](U x, U y) { return x * y; });
    case binary_fn::div:
    case binary_fn::floordiv:
      check_no_zero_divisor<U>(b);
      return map2<U>(a, b, t, [](U x, U y) { return x / y; });
    case binary_fn::mod:
      check_no_zero_divisor<U>(b);
      return map2<U>(a, b, t, [](U x, U y) { return x % y; });
    case binary_fn::pow: return map2<U>(a, b, t, wrapping_pow);
    case binary_fn::minimum: return map2<U>(a, b, t, [](U x, U y) { return x < y ? x : y; });
    case binary_fn::maximum: return map2<U>(a, b, t, [](U x, U y) { return x > y ? x : y; });
    case binary_fn::bit_and: return map2<U>(a, b, t, [](U x, U y) { return x & y; });
    case binary_fn::bit_or: return map2<U>(a, b, t, [](U x, U y) { return x | y; });
    case binary_fn::bit_xor: return map2<U>(a, b, t, [](U x, U y) { return x ^ y; });
    case binary_fn::shl: return map2<U>(a, b, t, [width](U x, U y) { return y >= width ? U(0) : x << y; });
    case binary_fn::shr: return map2<U>(a, b, t, [width](U x, U y) { return y >= width ? U(0) : x >> y; });
    case binary_fn::atan2: case binary_fn::hypot: case binary_fn::copysign: break;
  }
  fail_op("needs float operands, got ", ir::name(t));
}

template <class T>
tile_value compare(compare_fn fn, const tile_value& a, const tile_value& b) {
  using I = std::int64_t;
  constexpr ir::dtype B = ir::dtype::b1;
  switch (fn) {
    case compare_fn::eq: return map2<T, I>(a, b, B, [](T x, T y) { return I(x == y); });
    case compare_fn::ne: return map2<T, I>(a, b, B, [](T x, T y) { return I(x != y); });
    case compare_fn::lt: return map2<T, I>(a, b, B, [](T x, T y) { return I(x < y); });
    case compare_fn::le: return map2<T, I>(a, b, B, [](T x, T y) { return I(x <= y); });
    case compare_fn::gt: return map2<T, I>(a, b, B, [](T x, T y) { return I(x > y); });
    case compare_fn::ge: return map2<T, I>(a, b, B, [](T x, T y) { return I(x >= y); });
  }
  fail_op("unknown comparison");
}

template <class T>
tile_value select(const tile_value& cond, const tile_value& a, const tile_value& b) {
  tile_value r(a.dtype(), a.shape());
  const std::int64_t* c = cond.data<std::int64_t>();
  const T* x = a.data<T>();
  const T* y = b.data<T>();
  T* o = r.data<T>();
  for (std::int64_t i = 0; i < r.numel(); ++i) o[i] = c[i] ? x[i] : y[i];
  return r;
}

}  // namespace

tile_value apply_binary(binary_fn fn, const tile_value& a, const tile_value& b) {
  check_same(a, b);
  switch (a.kind()) {
    case repr::real: return real_binary(fn, a, b);
    case repr::sint: return int_binary(fn, a, b);
    case repr::uint: return uint_binary(fn, a, b);
  }
  fail_op("unknown storage");
}

tile_value apply_compare(compare_fn fn, const tile_value& a, const tile_value& b) {
  check_same(a, b);
  switch (a.kind()) {
    case repr::real: return compare<double>(fn, a, b);
    case repr::sint: return compare<std::int64_t>(fn, a, b);
    case repr::uint: return compare<std::uint64_t>(fn, a, b);
  }
  fail_op("unknown storage");
}

tile_value apply_where(const tile_value& cond, const tile_value& a, const tile_value& b) {
  check_same(a, b);
  if (cond.dtype() != ir::dtype::b1 || cond.shape() != a.shape())
    fail_op("condition must be bool of shape ", shape_string(a.shape()), ", got ", ir::name(cond.dtype()),
            shape_string(cond.shape()));
  switch (a.kind()) {
    case repr::real: return select<double>(cond, a, b);
    case repr::sint: return select<std::int64_t>(cond, a, b);
    case repr::uint: return select<std::uint64_t>(cond, a, b);
  }
  fail_op("unknown storage");
}

}  // namespace tegula::interp
