// Per-dtype C types (host memory layout and interpreter storage) and a run-time dtype dispatcher.
#pragma once
#include <cstdint>
#include <type_traits>

#include "tegula/interp/small_float.hpp"
#include "tegula/ir/dtype.hpp"

namespace tegula::interp {

// mem: the element as it lies in an array; stor: how a tile holds it (double, int64_t or
// uint64_t). write() rounds or wraps a storage value to the dtype (one correct rounding for
// floats, two's complement wrap for ints, != 0 for bool); read() is exact. So read(write(s)) is
// "s rounded to the dtype", which is how every result is normalized.
template <ir::dtype D>
struct dtype_traits;

template <class Mem, class Stor>
struct plain_traits {
  using mem = Mem;
  using stor = Stor;
  static stor read(mem m) { return stor(m); }
  static mem write(stor s) { return mem(s); }
};

template <> struct dtype_traits<ir::dtype::b1> {
  using mem = std::uint8_t;
  using stor = std::int64_t;
  static stor read(mem m) { return m != 0; }
  static mem write(stor s) { return s != 0; }
};
template <> struct dtype_traits<ir::dtype::i8> : plain_traits<std::int8_t, std::int64_t> {};
template <> struct dtype_traits<ir::dtype::i16> : plain_traits<std::int16_t, std::int64_t> {};
template <> struct dtype_traits<ir::dtype::i32> : plain_traits<std::int32_t, std::int64_t> {};
template <> struct dtype_traits<ir::dtype::i64> : plain_traits<std::int64_t, std::int64_t> {};
template <> struct dtype_traits<ir::dtype::u8> : plain_traits<std::uint8_t, std::uint64_t> {};
template <> struct dtype_traits<ir::dtype::u16> : plain_traits<std::uint16_t, std::uint64_t> {};
template <> struct dtype_traits<ir::dtype::u32> : plain_traits<std::uint32_t, std::uint64_t> {};
template <> struct dtype_traits<ir::dtype::u64> : plain_traits<std::uint64_t, std::uint64_t> {};
template <> struct dtype_traits<ir::dtype::f16> {
  using mem = std::uint16_t;
  using stor = double;
  static stor read(mem m) { return float16_to_double(m); }
  static mem write(stor s) { return float16_from_double(s); }
};
template <> struct dtype_traits<ir::dtype::bf16> {
  using mem = std::uint16_t;
  using stor = double;
  static stor read(mem m) { return bfloat16_to_double(m); }
  static mem write(stor s) { return bfloat16_from_double(s); }
};
template <> struct dtype_traits<ir::dtype::f8e4m3> {
  using mem = std::uint8_t;
  using stor = double;
  static stor read(mem m) { return float8_e4m3_to_double(m); }
  static mem write(stor s) { return float8_e4m3_from_double(s); }
};
template <> struct dtype_traits<ir::dtype::f8e5m2> {
  using mem = std::uint8_t;
  using stor = double;
  static stor read(mem m) { return float8_e5m2_to_double(m); }
  static mem write(stor s) { return float8_e5m2_from_double(s); }
};
template <> struct dtype_traits<ir::dtype::f32> {
  using mem = float;
  using stor = double;
  static stor read(mem m) { return float32_to_double(m); }
  static mem write(stor s) { return float32_from_double(s); }
};
template <> struct dtype_traits<ir::dtype::f64> : plain_traits<double, double> {};

// Compile-time classification (ir::is_float and friends are not constexpr).
template <ir::dtype D>
constexpr bool is_real_v = std::is_same_v<typename dtype_traits<D>::stor, double>;
template <ir::dtype D>
constexpr bool is_unsigned_v = std::is_same_v<typename dtype_traits<D>::stor, std::uint64_t>;

template <ir::dtype D>
using dtype_tag = std::integral_constant<ir::dtype, D>;

// Calls f(dtype_tag<D>{}) for the run-time dtype t; f's return type must not depend on D.
template <class F>
decltype(auto) dispatch_dtype(ir::dtype t, F&& f) {
  using ir::dtype;
  switch (t) {
    case dtype::b1: return f(dtype_tag<dtype::b1>{});
    case dtype::i8: return f(dtype_tag<dtype::i8>{});
    case dtype::i16: return f(dtype_tag<dtype::i16>{});
    case dtype::i32: return f(dtype_tag<dtype::i32>{});
    case dtype::i64: return f(dtype_tag<dtype::i64>{});
    case dtype::u8: return f(dtype_tag<dtype::u8>{});
    case dtype::u16: return f(dtype_tag<dtype::u16>{});
    case dtype::u32: return f(dtype_tag<dtype::u32>{});
    case dtype::u64: return f(dtype_tag<dtype::u64>{});
    case dtype::f16: return f(dtype_tag<dtype::f16>{});
    case dtype::bf16: return f(dtype_tag<dtype::bf16>{});
    case dtype::f32: return f(dtype_tag<dtype::f32>{});
    case dtype::f64: return f(dtype_tag<dtype::f64>{});
    case dtype::f8e4m3: return f(dtype_tag<dtype::f8e4m3>{});
    case dtype::f8e5m2: return f(dtype_tag<dtype::f8e5m2>{});
    case dtype::c64:
    case dtype::c128: break;  // the verifier keeps complex out of the IR
  }
  __builtin_unreachable();  // an enum value outside the list
}

}  // namespace tegula::interp
