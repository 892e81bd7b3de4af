// Element types of tiles and arrays, with NumPy's names, sizes and promotion rules.
#include "tegula/ir/dtype.hpp"

#include <algorithm>

namespace tegula::ir {
namespace {

struct info {
  std::string_view name, cuda;
  int bytes;
};

constexpr info infos[dtype_count] = {
    {"bool", "bool", 1},         {"int8", "signed char", 1},   {"int16", "short", 2},
    {"int32", "int", 4},         {"int64", "long long", 8},    {"uint8", "unsigned char", 1},
    {"uint16", "unsigned short", 2}, {"uint32", "unsigned int", 4}, {"uint64", "unsigned long long", 8},
    {"float16", "__half", 2},    {"bfloat16", "__nv_bfloat16", 2}, {"float32", "float", 4},
    {"float64", "double", 8},    {"complex64", "", 8},        {"complex128", "", 16},
    {"float8_e4m3fn", "unsigned char", 1}, {"float8_e5m2", "unsigned char", 1},
};

const info& of(dtype t) { return infos[static_cast<int>(t)]; }

dtype signed_of_size(int bytes) {
  switch (bytes) {
    case 1: return dtype::i8;
    case 2: return dtype::i16;
    case 4: return dtype::i32;
    default: return dtype::i64;
  }
}

}  // namespace

std::string_view name(dtype t) { return of(t).name; }
std::string_view cuda_name(dtype t) { return of(t).cuda; }
int size_bytes(dtype t) { return of(t).bytes; }

std::optional<dtype> dtype_from_name(std::string_view s) {
  for (int i = 0; i < dtype_count; ++i)
    if (infos[i].name == s) return static_cast<dtype>(i);
  return std::nullopt;
}

bool is_float(dtype t) {
  return t == dtype::f16 || t == dtype::bf16 || t == dtype::f32 || t == dtype::f64 || is_float8(t);
}
bool is_signed_int(dtype t) { return t == dtype::i8 || t == dtype::i16 || t == dtype::i32 || t == dtype::i64; }
bool is_unsigned_int(dtype t) { return t == dtype::u8 || t == dtype::u16 || t == dtype::u32 || t == dtype::u64; }

dtype promote(dtype a, dtype b) {
  if (a == b) return a;
  if (is_complex(a) || is_complex(b)) {
    dtype pa = is_complex(a) ? component(a) : a, pb = is_complex(b) ? component(b) : b;
    return complex_of(promote(pa, pb));
  }
  if (is_bool(a)) return b;
  if (is_bool(b)) return a;
  if (is_float(a) || is_float(b)) {
    if (!is_float(b)) return promote(b, a);
    if (!is_float(a)) {
      // An integer meets a float: the float must hold every value of the integer type exactly
      // enough, as NumPy decides (int8 + float16 -> float16, int16 + float16 -> float32,
      // int32 + float32 -> float64).
      int ib = size_bytes(a), fb = size_bytes(b);
      if (ib < fb) return b;
      return ib <= 2 ? (fb <= 2 ? dtype::f32 : b) : dtype::f64;
    }
    if ((a == dtype::f16 && b == dtype::bf16) || (a == dtype::bf16 && b == dtype::f16)) return dtype::f32;
    // The two 8-bit floats meet in float16, which holds every value of both exactly.
    if (is_float8(a) && is_float8(b)) return dtype::f16;
    return size_bytes(a) >= size_bytes(b) ? a : b;
  }
  // Both integers.
  if (is_signed_int(a) == is_signed_int(b)) return size_bytes(a) >= size_bytes(b) ? a : b;
  dtype s = is_signed_int(a) ? a : b, u = is_signed_int(a) ? b : a;
  if (size_bytes(s) > size_bytes(u)) return s;
  if (size_bytes(u) == 8) return dtype::f64;
  return signed_of_size(std::min(8, 2 * size_bytes(u)));
}

dtype float_loop(dtype t) {
  if (is_float(t) || is_complex(t)) return t;
  switch (size_bytes(t)) {
    case 1: return dtype::f16;  // bool, int8, uint8
    case 2: return dtype::f32;
    default: return dtype::f64;
  }
}

}  // namespace tegula::ir
