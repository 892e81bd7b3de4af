// Element types of tiles and arrays, with NumPy's names, sizes and promotion rules.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace tegula::ir {

enum class dtype : std::uint8_t { b1, i8, i16, i32, i64, u8, u16, u32, u64, f16, bf16, f32, f64 };

constexpr int dtype_count = 13;

std::string_view name(dtype t);                  // "bool", "int8", ..., "bfloat16", "float32"
std::optional<dtype> dtype_from_name(std::string_view s);  // accepts the names above
int size_bytes(dtype t);
inline int size_bits(dtype t) { return t == dtype::b1 ? 1 : 8 * size_bytes(t); }
bool is_float(dtype t);
bool is_signed_int(dtype t);
bool is_unsigned_int(dtype t);
inline bool is_int(dtype t) { return is_signed_int(t) || is_unsigned_int(t); }
inline bool is_bool(dtype t) { return t == dtype::b1; }

// NumPy's result_type for two array operands (no value-based casting, NEP 50):
// bool < ints < floats; int8+uint8 -> int16, int64+uint64 -> float64, float16+bfloat16 -> float32.
dtype promote(dtype a, dtype b);
// The C++ type name used by generated CUDA code.
std::string_view cuda_name(dtype t);

}  // namespace tegula::ir
