// NumPy 2 dtype rules for arrays: NEP 50 promotion with "weak" Python scalars, ufunc loop
// selection (which dtype an op computes in and returns), and can_cast.
#pragma once
#include <cstdint>
#include <string_view>
#include <vector>

#include "tegula/ir/dtype.hpp"

namespace tegula::array {

using ir::dtype;

// What an operand of an array operation is, for promotion: an array of a dtype, or a Python
// scalar (bool, int, float) whose dtype is "weak" (NEP 50: it adopts the array's kind if it can).
struct operand_kind {
  enum class kind { array, py_bool, py_int, py_float, py_complex } k = kind::array;
  dtype t = dtype::f32;  // for arrays (and NumPy scalars, which are not weak)
  static operand_kind of(dtype d) { return {kind::array, d}; }
};

// np.result_type over the operands (NEP 50). Python scalars: bool -> bool; int -> the array
// kind's dtype if an integer or float array is present, else int64; float -> the array dtype if
// it is floating or complex, else float64; complex -> the array dtype if complex, complex64 for
// float16/bfloat16/float32 arrays, else complex128. With no arrays at all: bool / int64 / float64 / complex128.
dtype result_type(const std::vector<operand_kind>& operands);

// For a Python int scalar combined into dtype `t`: throws error_kind::overflow (OverflowError)
// text "Python integer 300 out of bounds for uint8" (NumPy 2) when it does not fit an int dtype.
void check_int_scalar_fits(std::int64_t value, dtype t);
bool int_scalar_fits(std::int64_t value, dtype t);  // the same test, without throwing

// The floating dtype NumPy computes a float-only ufunc in (ir/dtype.hpp: defined there, below the tile front end
// and the array engine, which both apply it; this is the array engine's name for the same function).
using ir::float_loop;

enum class casting { no, equiv, safe, same_kind, unsafe };
casting casting_from_name(std::string_view s);  // "no" "equiv" "safe" "same_kind" "unsafe"; else invalid_argument
// np.can_cast(from, to, casting) for dtypes.
bool can_cast(dtype from, dtype to, casting c);

}  // namespace tegula::array
