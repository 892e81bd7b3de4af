// The C types that generated code uses for each dtype, value conversions between them, and literals.
#pragma once
#include <cstdint>
#include <string>

#include "tegula/ir/dtype.hpp"

namespace tegula::codegen {

// Registers hold float16 and bfloat16 as float (always a value exactly representable in the
// narrow type: every op that produces one rounds); memory holds them as unsigned short bits.
// bool is `bool` in registers and one byte (unsigned char, 0 or 1) in memory.
std::string reg_type(ir::dtype t);      // "float", "long long", "bool", ...
std::string storage_type(ir::dtype t);  // element type of an array in memory
int reg_bytes(ir::dtype t);             // sizeof(reg_type(t)) on the device
std::string unsigned_arith_type(ir::dtype t);  // the unsigned type integer arithmetic wraps in

// C expression converting `e` (a register value of dtype `from`) to a register value of `to`, with
// NumPy's value semantics: floats to ints truncate, anything to bool is `!= 0`, and conversions to
// float16/bfloat16 round to nearest even exactly once.
std::string convert(ir::dtype from, ir::dtype to, const std::string& e);
// Rounds a float/double register expression that holds a computed result to dtype `t` (identity
// except for float16/bfloat16, whose results are computed in float and rounded).
std::string round_result(ir::dtype t, const std::string& e);
std::string from_storage(ir::dtype t, const std::string& e);  // memory element -> register value
std::string to_storage(ir::dtype t, const std::string& e);    // register value -> memory element

// Literals of a register type: a value given as an int or a double, converted to `t` as NumPy does
// (float16/bfloat16 rounded on the host, ints wrapped, infinities and NaN as bit patterns).
std::string literal(ir::dtype t, double v);
std::string literal(ir::dtype t, std::int64_t v);
std::string lowest_literal(ir::dtype t);   // -inf for floats, the minimum for ints, false for bool
std::string highest_literal(ir::dtype t);  // +inf, the maximum, true

// Host-side round-to-nearest-even of a double to the values of float16 / bfloat16.
double round_to_float16(double v);
double round_to_bfloat16(double v);
double round_to_float8_e4m3(double v);  // float8_e4m3fn: past 448 is NaN (no infinities)
double round_to_float8_e5m2(double v);

// A C identifier made from a user's name (letters, digits, underscores; at most 24 characters).
std::string sanitize(const std::string& name);
// A C string literal's contents for `s` (escapes quotes, backslashes, newlines and `%` for printf
// when `printf_format`).
std::string c_escape(const std::string& s, bool printf_format);

}  // namespace tegula::codegen
