// Built-in reductions and scans (sum, prod, max, min, argmax, argmin, cumsum, cumprod).
#include "tegula/interp/reductions.hpp"

#include <optional>

#include "tegula/interp/convert.hpp"
#include "tegula/interp/op_failure.hpp"

namespace tegula::interp {
namespace {

// NumPy's maximum/minimum: a NaN on either side wins; b on ties (max of [0., -0.] is -0., as NumPy's fold).
template <class T> T max_rule(T a, T b) { return (a > b || a != a) ? a : b; }
template <class T> T min_rule(T a, T b) { return (a < b || a != a) ? a : b; }

// out[o, i] = fold over k of in[o, k, i], the accumulator starting at in[o, 0, i] (as type A).
template <class T, class A, class F>
void fold(const T* in, T* out, const axis_split& s, F f) {
  std::vector<A> acc(std::size_t(s.inner));
  for (std::int64_t o = 0; o < s.outer; ++o) {
    const T* lane = in + o * s.len * s.inner;
    for (std::int64_t i = 0; i < s.inner; ++i) acc[std::size_t(i)] = A(lane[i]);
    for (std::int64_t k = 1; k < s.len; ++k) {
      const T* row = lane + k * s.inner;
      for (std::int64_t i = 0; i < s.inner; ++i) acc[std::size_t(i)] = f(acc[std::size_t(i)], A(row[i]));
    }
    for (std::int64_t i = 0; i < s.inner; ++i) out[o * s.inner + i] = T(acc[std::size_t(i)]);
  }
}

// Like fold, but writes every running accumulator (walking k backwards when reverse).
template <class T, class A, class F>
void running(const T* in, T* out, const axis_split& s, bool reverse, F f) {
  std::vector<A> acc(std::size_t(s.inner));
  for (std::int64_t o = 0; o < s.outer; ++o) {
    for (std::int64_t kk = 0; kk < s.len; ++kk) {
      const std::int64_t k = reverse ? s.len - 1 - kk : kk;
      const std::int64_t at = (o * s.len + k) * s.inner;
      for (std::int64_t i = 0; i < s.inner; ++i) {
        A& a = acc[std::size_t(i)];
        a = kk == 0 ? A(in[at + i]) : f(a, A(in[at + i]));
        out[at + i] = T(a);
      }
    }
  }
}

template <class T>
void arg_extreme(const T* in, std::int64_t* out, const axis_split& s, bool want_max) {
  for (std::int64_t o = 0; o < s.outer; ++o)
    for (std::int64_t i = 0; i < s.inner; ++i) {
      const T* lane = in + o * s.len * s.inner + i;
      T best = lane[0];
      std::int64_t at = 0;
      for (std::int64_t k = 1; k < s.len && best == best; ++k) {
        const T v = lane[k * s.inner];
        if (v != v || (want_max ? v > best : v < best)) {
          best = v;
          at = k;
        }
      }
      out[o * s.inner + i] = at;
    }
}

}  // namespace

axis_split split_axis(const std::vector<std::int64_t>& shape, int axis) {
  axis_split s;
  for (int d = 0; d < int(shape.size()); ++d) {
    if (d < axis) s.outer *= shape[std::size_t(d)];
    else if (d == axis) s.len = shape[std::size_t(d)];
    else s.inner *= shape[std::size_t(d)];
  }
  return s;
}

std::vector<std::int64_t> reduced_shape(const std::vector<std::int64_t>& shape, int axis, bool keepdims) {
  auto r = shape;
  if (keepdims) r[std::size_t(axis)] = 1;
  else r.erase(r.begin() + axis);
  return r;
}

tile_value apply_reduce(reduce_fn fn, const tile_value& x, int axis, bool keepdims, ir::dtype result) {
  const axis_split s = split_axis(x.shape(), axis);
  if (s.len == 0) fail_op("reduction over an empty axis");
  const auto out_shape = reduced_shape(x.shape(), axis, keepdims);
  using I = std::int64_t;
  using U = std::uint64_t;
  if (fn == reduce_fn::argmax || fn == reduce_fn::argmin) {
    tile_value r(result, out_shape);
    if (r.kind() != repr::sint) fail_op("index result must be a signed integer, got ", ir::name(result));
    const bool want_max = fn == reduce_fn::argmax;
    switch (x.kind()) {
      case repr::real: arg_extreme(x.data<double>(), r.data<I>(), s, want_max); break;
      case repr::sint: arg_extreme(x.data<I>(), r.data<I>(), s, want_max); break;
      case repr::uint: arg_extreme(x.data<U>(), r.data<I>(), s, want_max); break;
    }
    r.normalize();
    return r;
  }
  std::optional<tile_value> converted;
  const tile_value* in = &x;
  if (fn == reduce_fn::sum || fn == reduce_fn::prod) {
    if (x.dtype() != result) in = &converted.emplace(convert(x, result));
  } else if (x.dtype() != result) {
    fail_op("result dtype ", ir::name(result), " differs from the input's ", ir::name(x.dtype()));
  }
  tile_value r(in->dtype(), out_shape);
  const auto sum = [](auto a, auto b) { return a + b; };
  const auto prod = [](auto a, auto b) { return a * b; };
  switch (in->kind()) {
    case repr::real: {
      const double* p = in->data<double>();
      double* o = r.data<double>();
      switch (fn) {
        case reduce_fn::sum: fold<double, double>(p, o, s, sum); break;
        case reduce_fn::prod: fold<double, double>(p, o, s, prod); break;
        case reduce_fn::max: fold<double, double>(p, o, s, max_rule<double>); break;
        case reduce_fn::min: fold<double, double>(p, o, s, min_rule<double>); break;
        case reduce_fn::argmax: case reduce_fn::argmin: break;
      }
      break;
    }
    case repr::sint: {
      const I* p = in->data<I>();
      I* o = r.data<I>();
      switch (fn) {
        case reduce_fn::sum: fold<I, U>(p, o, s, sum); break;
        case reduce_fn::prod: fold<I, U>(p, o, s, prod); break;
        case reduce_fn::max: fold<I, I>(p, o, s, max_rule<I>); break;
        case reduce_fn::min: fold<I, I>(p, o, s, min_rule<I>); break;
        case reduce_fn::argmax: case reduce_fn::argmin: break;
      }
      break;
    }
    case repr::uint: {
      const U* p = in->data<U>();
      U* o = r.data<U>();
      switch (fn) {
        case reduce_fn::sum: fold<U, U>(p, o, s, sum); break;
        case reduce_fn::prod: fold<U, U>(p, o, s, prod); break;
        case reduce_fn::max: fold<U, U>(p, o, s, max_rule<U>); break;
        case reduce_fn::min: fold<U, U>(p, o, s, min_rule<U>); break;
        case reduce_fn::argmax: case reduce_fn::argmin: break;
      }
      break;
    }
  }
  r.normalize();
  return r;
}

tile_value apply_scan(scan_fn fn, const tile_value& x, int axis, bool reverse, ir::dtype result) {
  const axis_split s = split_axis(x.shape(), axis);
  std::optional<tile_value> converted;
  const tile_value* in = &x;
  if (x.dtype() != result) in = &converted.emplace(convert(x, result));
  tile_value r(result, x.shape());
  const bool add = fn == scan_fn::cumsum;
  const auto sum = [](auto a, auto b) { return a + b; };
  const auto prod = [](auto a, auto b) { return a * b; };
  using I = std::int64_t;
  using U = std::uint64_t;
  switch (in->kind()) {
    case repr::real:
      if (add) running<double, double>(in->data<double>(), r.data<double>(), s, reverse, sum);
      else running<double, double>(in->data<double>(), r.data<double>(), s, reverse, prod);
      break;
    case repr::sint:
      if (add) running<I, U>(in->data<I>(), r.data<I>(), s, reverse, sum);
      else running<I, U>(in->data<I>(), r.data<I>(), s, reverse, prod);
      break;
    case repr::uint:
      if (add) running<U, U>(in->data<U>(), r.data<U>(), s, reverse, sum);
      else running<U, U>(in->data<U>(), r.data<U>(), s, reverse, prod);
      break;
  }
  r.normalize();
  return r;
}

}  // namespace tegula::interp
