// Element types of tiles and arrays, with NumPy's names, sizes and promotion rules.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace tegula::ir {

// c64/c128 are array dtypes only: the tile IR has no complex values (the verifier rejects them);
// the array engine lowers a complex array to its real and imaginary float parts.
// f8e4m3 / f8e5m2 (float8_e4m3fn, float8_e5m2: torch's and ml_dtypes' 8-bit floats) are tile-language
// dtypes (loads, stores, casts, tensor-core products); the array engine does not take them.
enum class dtype : std::uint8_t { b1, i8, i16, i32, i64, u8, u16, u32, u64, f16, bf16, f32, f64, c64, c128, f8e4m3, f8e5m2 };

constexpr int dtype_count = 17;
constexpr int array_dtype_count = 15;  // the dtypes the array engine takes: the enum's first values

std::string_view name(dtype t);                  // "bool", "int8", ..., "bfloat16", "float32"
std::optional<dtype> dtype_from_name(std::string_view s);  // accepts the names above
int size_bytes(dtype t);
inline int size_bits(dtype t) { return t == dtype::b1 ? 1 : 8 * size_bytes(t); }
bool is_float(dtype t);
bool is_signed_int(dtype t);
bool is_unsigned_int(dtype t);
inline bool is_int(dtype t) { return is_signed_int(t) || is_unsigned_int(t); }
inline bool is_bool(dtype t) { return t == dtype::b1; }
inline bool is_complex(dtype t) { return t == dtype::c64 || t == dtype::c128; }
inline bool is_float8(dtype t) { return t == dtype::f8e4m3 || t == dtype::f8e5m2; }
// The float dtype of a complex dtype's parts (c64 -> f32, c128 -> f64); other dtypes: themselves.
// The floating dtype NumPy computes a float-only ufunc in (sqrt, exp, sin, true_divide, ...) for inputs of dtype t:
// floats stay; bool/int8/uint8 -> float16; int16/uint16 -> float32; other ints -> float64; complex stays. The one
// int-to-float rule: the array engine (array/promotion), both tile front ends and tegula.numpy (through the binding)
// apply it.
dtype float_loop(dtype t);
inline dtype component(dtype t) { return t == dtype::c64 ? dtype::f32 : t == dtype::c128 ? dtype::f64 : t; }
// The complex dtype whose parts hold float dtype t (f16/bf16/f32 -> c64, f64 -> c128).
inline dtype complex_of(dtype t) { return t == dtype::f64 || t == dtype::c128 ? dtype::c128 : dtype::c64; }

// NumPy's result_type for two array operands (no value-based casting, NEP 50):
// bool < ints < floats < complex; int8+uint8 -> int16, int64+uint64 -> float64, float16+bfloat16 -> float32;
// complex with a real dtype: the complex dtype whose parts hold both (complex64 + float64 -> complex128).
dtype promote(dtype a, dtype b);
// The C++ type name used by generated CUDA code.
std::string_view cuda_name(dtype t);

}  // namespace tegula::ir
