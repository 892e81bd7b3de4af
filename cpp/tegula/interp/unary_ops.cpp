// Elementwise unary ops: NumPy's semantics per dtype, computed in storage and normalized.
#include <cmath>

#include "tegula/interp/elementwise.hpp"
#include "tegula/interp/op_failure.hpp"

namespace tegula::interp {
namespace {

template <class T, class F>
tile_value map1(const tile_value& x, F f) {
  tile_value r(x.dtype(), x.shape());
  const T* a = x.data<T>();
  T* o = r.data<T>();
  const std::int64_t n = x.numel();
  for (std::int64_t i = 0; i < n; ++i) o[i] = f(a[i]);
  r.normalize();
  return r;
}

tile_value real_unary(unary_fn fn, const tile_value& x) {
  using D = double;
  switch (fn) {
    case unary_fn::neg: return map1<D>(x, [](D v) { return -v; });
    case unary_fn::logical_not: fail_op("needs a bool or integer operand, got ", ir::name(x.dtype()));
    case unary_fn::abs: return map1<D>(x, [](D v) { return std::fabs(v); });
    case unary_fn::exp: return map1<D>(x, [](D v) { return std::exp(v); });
    case unary_fn::exp2: return map1<D>(x, [](D v) { return std::exp2(v); });
    case unary_fn::log: return map1<D>(x, [](D v) { return std::log(v); });
    case unary_fn::log2: return map1<D>(x, [](D v) { return std::log2(v); });
    case unary_fn::sqrt: return map1<D>(x, [](D v) { return std::sqrt(v); });
    case unary_fn::rsqrt: return map1<D>(x, [](D v) { return 1.0 / std::sqrt(v); });
    case unary_fn::sin: return map1<D>(x, [](D v) { return std::sin(v); });
    case unary_fn::cos: return map1<D>(x, [](D v) { return std::cos(v); });
    case unary_fn::tanh: return map1<D>(x, [](D v) { return std::tanh(v); });
    case unary_fn::floor: return map1<D>(x, [](D v) { return std::floor(v); });
    case unary_fn::ceil: return map1<D>(x, [](D v) { return std::ceil(v); });
    case unary_fn::tan: return map1<D>(x, [](D v) { return std::tan(v); });
    case unary_fn::asin: return map1<D>(x, [](D v) { return std::asin(v); });
    case unary_fn::acos: return map1<D>(x, [](D v) { return std::acos(v); });
    case unary_fn::atan: return map1<D>(x, [](D v) { return std::atan(v); });
    case unary_fn::sinh: return map1<D>(x, [](D v) { return std::sinh(v); });
    case unary_fn::cosh: return map1<D>(x, [](D v) { return std::cosh(v); });
    case unary_fn::asinh: return map1<D>(x, [](D v) { return std::asinh(v); });
    case unary_fn::acosh: return map1<D>(x, [](D v) { return std::acosh(v); });
    case unary_fn::atanh: return map1<D>(x, [](D v) { return std::atanh(v); });
    case unary_fn::log10: return map1<D>(x, [](D v) { return std::log10(v); });
    case unary_fn::log1p: return map1<D>(x, [](D v) { return std::log1p(v); });
    case unary_fn::expm1: return map1<D>(x, [](D v) { return std::expm1(v); });
    case unary_fn::trunc: return map1<D>(x, [](D v) { return std::trunc(v); });
    case unary_fn::rint: return map1<D>(x, [](D v) { return std::nearbyint(v); });
  }
  fail_op("unknown unary function");
}

// Signed ints and bool (int64 storage): wrapping arithmetic goes through uint64 (no UB).
tile_value int_unary(unary_fn fn, const tile_value& x) {
  using I = std::int64_t;
  using U = std::uint64_t;
  const bool boolean = x.dtype() == ir::dtype::b1;
  switch (fn) {
    case unary_fn::neg: return map1<I>(x, [](I v) { return I(U(0) - U(v)); });  // bool: stays (!= 0)
    case unary_fn::logical_not:
      if (boolean) return map1<I>(x, [](I v) { return I(v == 0); });
      return map1<I>(x, [](I v) { return ~v; });
    case unary_fn::abs: return map1<I>(x, [](I v) { return v < 0 ? I(U(0) - U(v)) : v; });
    case unary_fn::floor:
    case unary_fn::ceil:
    case unary_fn::trunc:
    case unary_fn::rint: return map1<I>(x, [](I v) { return v; });
    case unary_fn::exp: case unary_fn::exp2: case unary_fn::log: case unary_fn::log2:
    case unary_fn::sqrt: case unary_fn::rsqrt: case unary_fn::sin: case unary_fn::cos:
    case unary_fn::tanh: case unary_fn::tan: case unary_fn::asin: case unary_fn::acos: case unary_fn::atan: case unary_fn::sinh: case unary_fn::cosh: case unary_fn::asinh: case unary_fn::acosh: case unary_fn::atanh: case unary_fn::log10: case unary_fn::log1p: case unary_fn::expm1: break;
  }
  fail_op("needs a floating-point operand, got ", ir::name(x.dtype()));
}

tile_value uint_unary(unary_fn fn, const tile_value& x) {
  using U = std::uint64_t;
  switch (fn) {
    case unary_fn::neg: return map1<U>(x, [](U v) { return U(0) - v; });
    case unary_fn::logical_not: return map1<U>(x, [](U v) { return ~v; });
    case unary_fn::abs:
    case unary_fn::floor:
    case unary_fn::ceil:
    case unary_fn::trunc:
    case unary_fn::rint: return map1<U>(x, [](U v) { return v; });
    case unary_fn::exp: case unary_fn::exp2: case unary_fn::log: case unary_fn::log2:
    case unary_fn::sqrt: case unary_fn::rsqrt: case unary_fn::sin: case unary_fn::cos:
    case unary_fn::tanh: case unary_fn::tan: case unary_fn::asin: case unary_fn::acos: case unary_fn::atan: case unary_fn::sinh: case unary_fn::cosh: case unary_fn::asinh: case unary_fn::acosh: case unary_fn::atanh: case unary_fn::log10: case unary_fn::log1p: case unary_fn::expm1: break;
  }
  fail_op("needs a floating-point operand, got ", ir::name(x.dtype()));
}

}  // namespace

tile_value apply_unary(unary_fn fn, const tile_value& x) {
  switch (x.kind()) {
    case repr::real: return real_unary(fn, x);
    case repr::sint: return int_unary(fn, x);
    case repr::uint: return uint_unary(fn, x);
  }
  fail_op("unknown storage");
}

}  // namespace tegula::interp
