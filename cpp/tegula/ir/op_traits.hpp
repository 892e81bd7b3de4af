// The tile IR ops' traits (category, operand dtypes, result dtype, effect) as constexpr queries over ops.def.
#pragma once
#include <cstddef>
#include <cstdint>

#include "tegula/ir/ir.hpp"

namespace tegula::ir {

// The columns of ops.def (its header comment says what each value means). Consumers ask these queries
// instead of listing ops by hand, so a new op joins its category everywhere by its one line in ops.def.
enum class op_category : std::uint8_t {
  source, memory, unary, binary, comparison, select, shape, mma, reduction, scan, debug, control
};
enum class operand_dtypes : std::uint8_t { any, numeric, floating, int_bool, integer };
enum class result_dtype : std::uint8_t { same, boolean, accumulate, index, from_attr, special };
enum class op_effect : std::uint8_t { pure, reads_memory, writes, regions, terminator };

struct op_traits {
  op_category category;
  operand_dtypes dtypes;
  result_dtype result;
  op_effect effect;
};

namespace detail {
inline constexpr op_traits op_traits_table[] = {
#define TEGULA_OP(id, text, operands, results, regions, category, dtypes, result, effect) \
  {op_category::category, operand_dtypes::dtypes, result_dtype::result, op_effect::effect},
#include "tegula/ir/ops.def"
#undef TEGULA_OP
};
}  // namespace detail

inline constexpr std::size_t op_count = sizeof detail::op_traits_table / sizeof detail::op_traits_table[0];

constexpr const op_traits& traits_of(op_kind k) { return detail::op_traits_table[std::size_t(k)]; }
constexpr op_category category_of(op_kind k) { return traits_of(k).category; }
constexpr op_effect effect_of(op_kind k) { return traits_of(k).effect; }

// unary (incl. astype, bitcast), binary, comparison or select (where): one result element per operand element.
constexpr bool is_elementwise(op_kind k) {
  const op_category c = category_of(k);
  return c == op_category::unary || c == op_category::binary || c == op_category::comparison ||
         c == op_category::select;
}
constexpr bool is_elementwise_unary(op_kind k) { return category_of(k) == op_category::unary; }
// Two operands of one type (builder::binary promotes and broadcasts them): arithmetic, bitwise, comparisons.
constexpr bool is_elementwise_binary(op_kind k) {
  return category_of(k) == op_category::binary || category_of(k) == op_category::comparison;
}
constexpr bool is_comparison(op_kind k) { return category_of(k) == op_category::comparison; }
constexpr bool is_reduction(op_kind k) { return category_of(k) == op_category::reduction; }  // incl. custom `reduce`
constexpr bool is_scan(op_kind k) { return category_of(k) == op_category::scan; }           // incl. custom `scan`
// Float math: operands must be floats; front ends convert ints/bools to ir::float_loop(t) first.
constexpr bool is_float_math(op_kind k) { return traits_of(k).dtypes == operand_dtypes::floating; }
// Bitwise ops and shifts: bool/integer operands only.
constexpr bool is_int_only(op_kind k) {
  return traits_of(k).dtypes == operand_dtypes::int_bool || traits_of(k).dtypes == operand_dtypes::integer;
}
// Writes memory, prints or asserts: must run exactly as written (region ops: see passes/effects).
constexpr bool has_side_effects(op_kind k) { return effect_of(k) == op_effect::writes; }
// store, scatter, atomics: operand 0 is an array the op writes.
constexpr bool writes_memory(op_kind k) { return category_of(k) == op_category::memory && has_side_effects(k); }
// sum, prod, cumsum, cumprod: the result is accumulation_dtype (infer.hpp), wider than integer inputs.
constexpr bool accumulates(op_kind k) { return traits_of(k).result == result_dtype::accumulate; }

// The names ops.def spells the traits with (the Python binding and messages use them).
const char* name(op_category c);
const char* name(operand_dtypes d);
const char* name(result_dtype r);
const char* name(op_effect e);

}  // namespace tegula::ir
