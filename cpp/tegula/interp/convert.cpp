// Value conversion (astype) and bit reinterpretation (bitcast) of tiles between dtypes.
#include "tegula/interp/convert.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>

#include "tegula/interp/dtype_traits.hpp"
#include "tegula/interp/op_failure.hpp"

namespace tegula::interp {
namespace {

// An integer as a double rounded to odd (truncate, then set the last bit if anything was lost).
// Rounding that double again to any format with at most 51 mantissa bits is then exactly one
// correct rounding of the integer, which a plain double conversion would not guarantee.
double round_to_odd(std::uint64_t magnitude) {
  if (magnitude < (std::uint64_t(1) << 53)) return double(magnitude);
  const int shift = 64 - std::countl_zero(magnitude) - 53;
  std::uint64_t kept = magnitude >> shift;
  if (magnitude & ((std::uint64_t(1) << shift) - 1)) kept |= 1;
  return std::ldexp(double(kept), shift);
}

// x truncated toward zero into I, saturating at I's range, NaN giving 0: the GPU's cvt.rzi into I.
template <class I>
I convert_rzi(double x) {
  using lim = std::numeric_limits<I>;
  if (x != x) return 0;
  // The range's ends as exact doubles: min (0 or -2^(bits-1)) and max + 1 (2^(bits-1) or 2^bits).
  const double lo = double(lim::min()), top = std::is_signed_v<I> ? -lo : 2.0 * (double(lim::max() / 2) + 1.0);
  const double t = std::trunc(x);
  return t >= top ? lim::max() : t <= lo ? lim::min() : I(t);
}

template <ir::dtype D>
typename dtype_traits<D>::stor from_double(double x) {
  using tr = dtype_traits<D>;
  using M = typename tr::mem;
  if constexpr (D == ir::dtype::b1) {
    return x != 0;
  } else if constexpr (is_real_v<D>) {
    return tr::read(tr::write(x));
  } else {
    // As the generated CUDA converts (codegen/c_types.cpp: convert): into a saturating int32 (int64 for the
    // 64-bit and uint32 targets), then wrapped to the target's width. In range, that is the value; out of range
    // it matches the GPU, not a cast saturating at the target's own range.
    if constexpr (std::is_same_v<M, std::uint64_t>) {
      // below 2^63 through int64 (negatives wrap); above it the GPU's unsigned conversion (NaN is not below)
      if (x < 9.2233720368547758e18) return typename tr::stor(std::uint64_t(convert_rzi<std::int64_t>(x)));
      return typename tr::stor(convert_rzi<std::uint64_t>(x));
    } else if constexpr (std::is_same_v<M, std::int64_t> || std::is_same_v<M, std::uint32_t>) {
      return typename tr::stor(M(convert_rzi<std::int64_t>(x)));
    } else {
      return typename tr::stor(M(convert_rzi<std::int32_t>(x)));
    }
  }
}

template <ir::dtype D>
typename dtype_traits<D>::stor from_integer(bool negative, std::uint64_t magnitude, std::uint64_t bits) {
  using tr = dtype_traits<D>;
  if constexpr (D == ir::dtype::b1) {
    return bits != 0;
  } else if constexpr (D == ir::dtype::f64) {
    return negative ? -double(magnitude) : double(magnitude);  // one rounding
  } else if constexpr (is_real_v<D>) {
    const double odd = round_to_odd(magnitude);
    return tr::read(tr::write(negative ? -odd : odd));
  } else {
    return tr::read(typename tr::mem(bits));  // two's complement wrap
  }
}

template <ir::dtype D>
typename dtype_traits<D>::stor from_signed(std::int64_t v) {
  const std::uint64_t bits = std::uint64_t(v);
  return from_integer<D>(v < 0, v < 0 ? 0 - bits : bits, bits);
}

template <ir::dtype D>
typename dtype_traits<D>::stor from_unsigned(std::uint64_t v) {
  return from_integer<D>(false, v, v);
}

}  // namespace

tile_value convert(const tile_value& in, ir::dtype to) {
  tile_value out(to, in.shape());
  const std::int64_t n = in.numel();
  dispatch_dtype(to, [&](auto tag) {
    constexpr ir::dtype D = decltype(tag)::value;
    using S = typename dtype_traits<D>::stor;
    S* o = out.data<S>();
    switch (in.kind()) {
      case repr::real: {
        const double* x = in.data<double>();
        for (std::int64_t i = 0; i < n; ++i) o[i] = from_double<D>(x[i]);
        break;
      }
      case repr::sint: {
        const std::int64_t* x = in.data<std::int64_t>();
        for (std::int64_t i = 0; i < n; ++i) o[i] = from_signed<D>(x[i]);
        break;
      }
      case repr::uint: {
        const std::uint64_t* x = in.data<std::uint64_t>();
        for (std::int64_t i = 0; i < n; ++i) o[i] = from_unsigned<D>(x[i]);
        break;
      }
    }
  });
  return out;
}

tile_value bitcast(const tile_value& in, ir::dtype to) {
  if (ir::size_bytes(in.dtype()) != ir::size_bytes(to))
    fail_op("cannot reinterpret ", ir::name(in.dtype()), " as ", ir::name(to), " (sizes differ)");
  tile_value out(to, in.shape());
  const std::int64_t n = in.numel();
  dispatch_dtype(in.dtype(), [&](auto from_tag) {
    using fr = dtype_traits<decltype(from_tag)::value>;
    dispatch_dtype(to, [&](auto to_tag) {
      using tr = dtype_traits<decltype(to_tag)::value>;
      if constexpr (sizeof(typename fr::mem) == sizeof(typename tr::mem)) {
        const auto* x = in.data<typename fr::stor>();
        auto* o = out.data<typename tr::stor>();
        for (std::int64_t i = 0; i < n; ++i) {
          const typename fr::mem m = fr::write(x[i]);
          typename tr::mem r;
          std::memcpy(&r, &m, sizeof r);
          o[i] = tr::read(r);
        }
      }
    });
  });
  return out;
}

namespace {

tile_value splat(const tile_value& one, std::vector<std::int64_t> shape) {
  if (shape.empty()) return one;
  tile_value out(one.dtype(), std::move(shape));
  for (std::int64_t i = 0; i < out.numel(); ++i) out.copy_element(i, one, 0);
  return out;
}

}  // namespace

tile_value scalar_of_int(std::int64_t v, ir::dtype to, std::vector<std::int64_t> shape) {
  tile_value one(ir::dtype::i64, {});
  one.data<std::int64_t>()[0] = v;
  return splat(convert(one, to), std::move(shape));
}

tile_value scalar_of_uint(std::uint64_t v, ir::dtype to, std::vector<std::int64_t> shape) {
  tile_value one(ir::dtype::u64, {});
  one.data<std::uint64_t>()[0] = v;
  return splat(convert(one, to), std::move(shape));
}

tile_value scalar_of_double(double v, ir::dtype to, std::vector<std::int64_t> shape) {
  tile_value one(ir::dtype::f64, {});
  one.data<double>()[0] = v;
  return splat(convert(one, to), std::move(shape));
}

}  // namespace tegula::interp
