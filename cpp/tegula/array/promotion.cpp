// NumPy 2 dtype rules for arrays: NEP 50 result_type, float-only ufunc loops, can_cast.
#include "tegula/array/promotion.hpp"

#include <optional>

#include "tegula/support/error.hpp"

namespace tegula::array {
namespace {

// Array-array promotion: ir::promote (NumPy's table), except that bfloat16 absorbs every bool and
// integer dtype (bfloat16 + int32 -> bfloat16, as PyTorch and JAX do; the project's chosen rule,
// since NumPy has no bfloat16). ir::promote would widen int16+ to float32 / float64 instead.
dtype promote_arrays(dtype a, dtype b) {
  if (a == dtype::bf16 && !is_float(b) && !ir::is_complex(b)) return a;
  if (b == dtype::bf16 && !is_float(a) && !ir::is_complex(a)) return b;
  return ir::promote(a, b);
}

// NumPy's kind order for same_kind casting: b < u < i < f (uint64 -> int8 is same_kind; int8 ->
// uint8 and anything -> bool are not; complex -> float is not).
int kind_rank(dtype t) {
  if (is_bool(t)) return 0;
  if (is_unsigned_int(t)) return 1;
  if (is_signed_int(t)) return 2;
  if (ir::is_complex(t)) return 4;
  return 3;
}

}  // namespace

dtype result_type(const std::vector<operand_kind>& operands) {
  if (operands.empty()) fail(error_kind::invalid_argument, "at least one array or dtype is required");
  std::optional<dtype> arrays;
  bool py_int = false, py_float = false, py_complex = false;  // a Python bool is weak bool: it never changes the result
  for (const operand_kind& o : operands) {
    switch (o.k) {
      case operand_kind::kind::array:
        arrays = arrays ? promote_arrays(*arrays, o.t) : o.t;
        break;
      case operand_kind::kind::py_bool:
        break;
      case operand_kind::kind::py_int:
        py_int = true;
        break;
      case operand_kind::kind::py_float:
        py_float = true;
        break;
      case operand_kind::kind::py_complex:
        py_complex = true;
        break;
    }
  }
  // NEP 50: a weak scalar takes the arrays' dtype when that is of its kind or higher, else the
  // default dtype of its own kind (int64, float64).
  if (!arrays) return py_complex ? dtype::c128 : py_float ? dtype::f64 : py_int ? dtype::i64 : dtype::b1;
  if (py_complex && !ir::is_complex(*arrays)) return is_float(*arrays) ? ir::complex_of(*arrays) : dtype::c128;
  if (py_float && !is_float(*arrays) && !ir::is_complex(*arrays)) return dtype::f64;
  if (py_int && is_bool(*arrays)) return dtype::i64;
  return *arrays;
}

bool int_scalar_fits(std::int64_t value, dtype t) {
  if (!is_int(t)) return true;
  const int bits = size_bits(t);
  if (is_signed_int(t))
    return bits == 64 || (value >= -(std::int64_t{1} << (bits - 1)) && value < (std::int64_t{1} << (bits - 1)));
  return value >= 0 && (bits == 64 || value < (std::int64_t{1} << bits));
}

void check_int_scalar_fits(std::int64_t value, dtype t) {
  if (!int_scalar_fits(value, t)) fail(error_kind::overflow, "Python integer ", value, " out of bounds for ", name(t));
}

casting casting_from_name(std::string_view s) {
  if (s == "no") return casting::no;
  if (s == "equiv") return casting::equiv;
  if (s == "safe") return casting::safe;
  if (s == "same_kind") return casting::same_kind;
  if (s == "unsafe") return casting::unsafe;
  fail(error_kind::invalid_argument, "casting must be one of 'no', 'equiv', 'safe', 'same_kind', 'unsafe' (got '",
       s, "')");
}

bool can_cast(dtype from, dtype to, casting c) {
  switch (c) {
    case casting::no:
    case casting::equiv:  // byte order is always native, so equiv is no
      return from == to;
    case casting::safe:
    case casting::same_kind: {
      // NumPy's promote_types is the smallest dtype both cast safely to, so `from` casts safely
      // to `to` exactly when promoting them gives `to`. ir::promote (not the bfloat16 rule of
      // result_type) keeps bfloat16 at float16's rules: safe from bool/int8/uint8 only.
      const bool safe = ir::promote(from, to) == to;
      return safe || (c == casting::same_kind && kind_rank(from) <= kind_rank(to));
    }
    case casting::unsafe:
      return true;
  }
  return false;
}

}  // namespace tegula::array
