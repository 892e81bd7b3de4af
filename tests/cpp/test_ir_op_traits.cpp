// Tests of ir/op_traits (ops.def's trait columns): every op classified, the categories the consumers' old
// hand-written case lists encoded, side effects, and float math on integers computing in float.
#include "tegula/ir/op_traits.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "tegula/array/expr.hpp"
#include "tegula/array/ndarray.hpp"
#include "tegula/array/promotion.hpp"
#include "tegula/ir/infer.hpp"

namespace tegula::ir {
namespace {

using K = op_kind;

std::set<op_kind> all_ops() {
  std::set<op_kind> s;
  for (std::size_t i = 0; i < op_count; ++i) s.insert(op_kind(i));
  return s;
}

template <class Pred>
std::set<op_kind> ops_where(Pred p) {
  std::set<op_kind> s;
  for (op_kind k : all_ops())
    if (p(k)) s.insert(k);
  return s;
}

// The op names of a set, for readable failures.
std::string names(const std::set<op_kind>& s) {
  std::string out;
  for (op_kind k : s) out += std::string(out.empty() ? "" : " ") + info(k).text;
  return out;
}

#define EXPECT_OPS(actual, ...) EXPECT_EQ(names(actual), names(std::set<op_kind>{__VA_ARGS__}))

TEST(IrOpTraits, EveryOpHasKnownTraits) {
  EXPECT_EQ(op_count, std::size_t(K::yield) + 1);  // yield is ops.def's last line
  for (op_kind k : all_ops()) {
    const op_traits& t = traits_of(k);
    EXPECT_STRNE(name(t.category), "?") << info(k).text;
    EXPECT_STRNE(name(t.dtypes), "?") << info(k).text;
    EXPECT_STRNE(name(t.result), "?") << info(k).text;
    EXPECT_STRNE(name(t.effect), "?") << info(k).text;
    // Region ops are exactly the effect `regions` (their effects are those inside); yield terminates.
    EXPECT_EQ(info(k).regions > 0, t.effect == op_effect::regions) << info(k).text;
    // Elementwise ops produce one result; only they (and the ops that read them) restrict operand dtypes.
    if (is_elementwise(k)) EXPECT_EQ(info(k).results, 1) << info(k).text;
    if (!is_elementwise(k)) EXPECT_EQ(t.dtypes, operand_dtypes::any) << info(k).text;
  }
}

// The lists codegen's is_elementwise, emitter and interpreter dispatch, builder's is_binary and infer.cpp
// spelled out by hand before ops.def carried the traits.
TEST(IrOpTraits, CategoriesMatchTheOldLists) {
  EXPECT_OPS(ops_where(is_elementwise_unary), K::neg, K::logical_not, K::abs, K::exp, K::exp2, K::log, K::log2,
             K::sqrt, K::rsqrt, K::sin, K::cos, K::tanh, K::floor, K::ceil, K::tan, K::asin, K::acos, K::atan,
             K::sinh, K::cosh, K::asinh, K::acosh, K::atanh, K::log10, K::log1p, K::expm1, K::trunc, K::rint,
             K::astype, K::bitcast);
  EXPECT_OPS(ops_where(is_elementwise_binary), K::add, K::sub, K::mul, K::div, K::floordiv, K::mod, K::pow,
             K::atan2, K::hypot, K::copysign, K::minimum, K::maximum, K::bit_and, K::bit_or, K::bit_xor, K::shl,
             K::shr, K::eq, K::ne, K::lt, K::le, K::gt, K::ge);
  EXPECT_OPS(ops_where(is_comparison), K::eq, K::ne, K::lt, K::le, K::gt, K::ge);
  std::set<op_kind> elementwise = ops_where(is_elementwise_unary);
  for (op_kind k : ops_where(is_elementwise_binary)) elementwise.insert(k);
  elementwise.insert(K::where);
  EXPECT_EQ(names(ops_where(is_elementwise)), names(elementwise));
  EXPECT_OPS(ops_where(is_reduction), K::reduce_sum, K::reduce_prod, K::reduce_max, K::reduce_min, K::argmax,
             K::argmin, K::reduce);
  EXPECT_OPS(ops_where(is_scan), K::cumsum, K::cumprod, K::scan);
  EXPECT_OPS(ops_where([](op_kind k) { return category_of(k) == op_category::source; }), K::constant, K::arange,
             K::block_id, K::num_blocks, K::dim, K::num_tiles);
  EXPECT_OPS(ops_where([](op_kind k) { return category_of(k) == op_category::shape; }), K::reshape, K::permute,
             K::expand_dims, K::broadcast_to);
  EXPECT_OPS(ops_where([](op_kind k) { return category_of(k) == op_category::control; }), K::for_, K::if_,
             K::while_, K::yield);
  // Float math: tile front end's _FLOAT_ONLY and infer's float-only unary and binary ops.
  EXPECT_OPS(ops_where(is_float_math), K::exp, K::exp2, K::log, K::log2, K::sqrt, K::rsqrt, K::sin, K::cos,
             K::tanh, K::floor, K::ceil, K::tan, K::asin, K::acos, K::atan, K::sinh, K::cosh, K::asinh, K::acosh,
             K::atanh, K::log10, K::log1p, K::expm1, K::trunc, K::rint, K::atan2, K::hypot, K::copysign);
  EXPECT_OPS(ops_where(is_int_only), K::bit_and, K::bit_or, K::bit_xor, K::shl, K::shr, K::logical_not);
  EXPECT_OPS(ops_where(accumulates), K::reduce_sum, K::reduce_prod, K::cumsum, K::cumprod);
  EXPECT_EQ(accumulation_dtype(K::reduce_sum, dtype::i8), dtype::i64);
  EXPECT_EQ(accumulation_dtype(K::cumprod, dtype::u16), dtype::u64);
  EXPECT_EQ(accumulation_dtype(K::argmin, dtype::f64), dtype::i32);
  EXPECT_EQ(accumulation_dtype(K::reduce_max, dtype::i8), dtype::i8);
}

TEST(IrOpTraits, SideEffectsAreMemoryWritesAndDebugOps) {
  EXPECT_OPS(ops_where(has_side_effects), K::store, K::scatter, K::atomic_add, K::atomic_max, K::atomic_min,
             K::atomic_cas, K::print, K::assert_);
  EXPECT_OPS(ops_where(writes_memory), K::store, K::scatter, K::atomic_add, K::atomic_max, K::atomic_min,
             K::atomic_cas);
  EXPECT_OPS(ops_where([](op_kind k) { return category_of(k) == op_category::debug; }), K::print, K::assert_);
  EXPECT_OPS(ops_where([](op_kind k) { return effect_of(k) == op_effect::reads_memory; }), K::load, K::gather);
  for (op_kind k : all_ops())
    if (has_side_effects(k))
      EXPECT_TRUE(writes_memory(k) || category_of(k) == op_category::debug) << info(k).text;
}

// Float math on an integer or bool array computes in array::float_loop(t) (NumPy's float loop), and the
// interpreter runs it there: the result is float.
TEST(IrOpTraits, FloatMathOnIntegersComputesInFloat) {
  const array::where_to cpu = array::where_to::cpu();
  for (dtype t : {dtype::b1, dtype::i8, dtype::u8, dtype::i16, dtype::i32, dtype::u64}) {
    array::ndarray x = array::ndarray::from_vector(std::vector<std::int32_t>{1, 0, 1}, {3}, cpu).astype(t);
    for (op_kind k : ops_where(is_float_math)) {
      array::node_ptr n = is_elementwise_unary(k) ? array::make_unary(k, x.handle())
                                                  : array::make_binary(k, x.handle(), x.handle());
      array::ndarray y(n);
      EXPECT_EQ(y.dtype(), array::float_loop(t)) << info(k).text << " of " << name(t);
      EXPECT_TRUE(is_float(y.dtype())) << info(k).text << " of " << name(t);
      if (is_elementwise_unary(k)) EXPECT_EQ(array::unary_result(k, t), array::float_loop(t)) << info(k).text;
      std::vector<double> v = y.astype(dtype::f64).to_vector<double>();  // runs on the interpreter
      ASSERT_EQ(v.size(), 3u);
      if (k == K::sqrt || k == K::floor || k == K::rint || k == K::copysign) EXPECT_EQ(v[0], 1.0) << info(k).text;
      if (k == K::exp) EXPECT_NEAR(v[1], 1.0, 1e-3) << name(t);
    }
  }
}

}  // namespace
}  // namespace tegula::ir
