// Tests of ir/builder: a softmax kernel, NumPy promotion and broadcasting, weak scalars, control flow, errors.
#include "tegula/ir/builder.hpp"

#include <gtest/gtest.h>

#include <string>

#include "tegula/ir/printer.hpp"
#include "tegula/ir/verifier.hpp"

namespace tegula::ir {
namespace {

using shape = std::vector<std::int64_t>;

// The message of the tegula::error `f` throws, checking its kind.
template <class F>
std::string error_of(F f, error_kind kind) {
  try {
    f();
  } catch (const tegula::error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return {};
}

struct IrBuilder : testing::Test {
  function f{"k", {}, {}, {}, {}};
  builder b{f};
  value_id tile(dtype d, shape s = {}) {  // a tile value of the given type, loaded from a new parameter
    value_id a = b.add_param("p" + std::to_string(f.params.size()), type::array(d, std::max<int>(1, int(s.size()))));
    value_id z = b.constant(std::int64_t(0), type::tile(dtype::i32));
    std::vector<value_id> ops{a};
    for (std::size_t i = 0; i < std::max<std::size_t>(1, s.size()); ++i) ops.push_back(z);
    if (s.empty()) {
      value_id t = b.create1(op_kind::load, ops, {{"shape", shape{1}}, {"padding", std::string("zero")}});
      return b.create1(op_kind::reshape, {t}, {{"shape", shape{}}});
    }
    return b.create1(op_kind::load, ops, {{"shape", s}, {"padding", std::string("zero")}});
  }
  const type& t(value_id v) const { return f.type_of(v); }
};

TEST_F(IrBuilder, SoftmaxKernel) {
  value_id x = b.add_param("x", type::array(dtype::f32, 2));
  value_id out = b.add_param("out", type::array(dtype::f32, 2));
  b.set_location({"softmax.py", 4, 5});
  value_id row = b.create1(op_kind::block_id, {}, {{"axis", std::int64_t(0)}});
  value_id zero = b.constant(std::int64_t(0), type::tile(dtype::i32));
  value_id v = b.create1(op_kind::load, {x, row, zero}, {{"shape", shape{1, 128}}, {"padding", std::string("neg_inf")}});
  value_id m = b.create1(op_kind::reduce_max, {v}, {{"axis", std::int64_t(1)}, {"keepdims", std::int64_t(1)}});
  value_id e = b.create1(op_kind::exp, {b.binary(op_kind::sub, v, m)});
  value_id s = b.create1(op_kind::reduce_sum, {e}, {{"axis", std::int64_t(1)}, {"keepdims", std::int64_t(1)}});
  value_id y = b.binary(op_kind::div, e, s);
  EXPECT_TRUE(b.create(op_kind::store, {out, row, zero, y}).empty());
  b.finish();
  EXPECT_NO_THROW(verify(f));
  EXPECT_EQ(print(f),
            "func @k(%x: array<float32, 2>, %out: array<float32, 2>) {\n"
            "  %0 = block_id {axis = 0} : tile<int32>\n"
            "  %1 = constant {dtype = int32, value = 0} : tile<int32>\n"
            "  %2 = load %x, %0, %1 {padding = \"neg_inf\", shape = [1, 128]} : tile<float32, 1x128>\n"
            "  %3 = max %2 {axis = 1, keepdims = 1} : tile<float32, 1x1>\n"
            "  %4 = broadcast_to %3 {shape = [1, 128]} : tile<float32, 1x128>\n"
            "  %5 = sub %2, %4 : tile<float32, 1x128>\n"
            "  %6 = exp %5 : tile<float32, 1x128>\n"
            "  %7 = sum %6 {axis = 1, keepdims = 1} : tile<float32, 1x1>\n"
            "  %8 = broadcast_to %7 {shape = [1, 128]} : tile<float32, 1x128>\n"
            "  %9 = div %6, %8 : tile<float32, 1x128>\n"
            "  store %out, %0, %1, %9\n"
            "  yield\n"
            "}\n");
  EXPECT_EQ(to_string(f.body.ops[0].loc), "softmax.py:4:5");
}

TEST_F(IrBuilder, PromotionInt8Uint8) {
  value_id r = b.binary(op_kind::add, tile(dtype::i8, {4}), tile(dtype::u8, {4}));
  EXPECT_EQ(t(r), type::tile(dtype::i16, {4}));
  EXPECT_EQ(f.body.ops.back().kind, op_kind::add);
}

TEST_F(IrBuilder, PromotionInt32Float32) {
  EXPECT_EQ(t(b.binary(op_kind::mul, tile(dtype::i32, {4}), tile(dtype::f32, {4}))), type::tile(dtype::f64, {4}));
}

TEST_F(IrBuilder, PromotionHalfBfloat) {
  EXPECT_EQ(t(b.binary(op_kind::add, tile(dtype::f16, {2}), tile(dtype::bf16, {2}))), type::tile(dtype::f32, {2}));
  EXPECT_EQ(t(b.binary(op_kind::add, tile(dtype::i64, {2}), tile(dtype::u64, {2}))), type::tile(dtype::f64, {2}));
  EXPECT_EQ(t(b.binary(op_kind::add, tile(dtype::b1, {2}), tile(dtype::u16, {2}))), type::tile(dtype::u16, {2}));
}

TEST_F(IrBuilder, Broadcasting) {
  value_id r = b.binary(op_kind::add, tile(dtype::f32, {4, 1}), tile(dtype::f32, {3}));
  EXPECT_EQ(t(r), type::tile(dtype::f32, {4, 3}));
  b.finish();
  verify(f);
  // (3,) became (1, 3) by expand_dims, then both operands broadcast_to (4, 3).
  int expands = 0, broadcasts = 0;
  for (const op& o : f.body.ops) expands += o.kind == op_kind::expand_dims, broadcasts += o.kind == op_kind::broadcast_to;
  EXPECT_EQ(expands, 1);
  EXPECT_EQ(broadcasts, 2);
}

TEST_F(IrBuilder, ComparisonsAndDivision) {
  EXPECT_EQ(t(b.binary(op_kind::lt, tile(dtype::i32, {4}), tile(dtype::f16, {4}))), type::tile(dtype::b1, {4}));
  EXPECT_EQ(t(b.binary(op_kind::div, tile(dtype::i32, {4}), tile(dtype::i32, {4}))), type::tile(dtype::f64, {4}));
  EXPECT_EQ(t(b.binary(op_kind::div, tile(dtype::b1), tile(dtype::b1))), type::tile(dtype::f64));
  EXPECT_EQ(t(b.binary(op_kind::div, tile(dtype::f16), tile(dtype::i8))), type::tile(dtype::f16));
  EXPECT_EQ(t(b.binary(op_kind::floordiv, tile(dtype::i32), tile(dtype::i32))), type::tile(dtype::i32));
  b.finish();
  verify(f);
}

TEST_F(IrBuilder, WeakScalars) {
  value_id i8 = tile(dtype::i8, {4}), f16 = tile(dtype::f16, {4}), bl = tile(dtype::b1, {4}), u8 = tile(dtype::u8);
  EXPECT_EQ(t(b.weak_scalar(3, true, i8)), type::tile(dtype::i8));           // int next to int8: int8
  EXPECT_EQ(t(b.weak_scalar(2.5, false, i8)), type::tile(dtype::f64));       // float next to int: float64
  EXPECT_EQ(t(b.weak_scalar(2.5, false, f16)), type::tile(dtype::f16));      // float next to float16: float16
  EXPECT_EQ(t(b.weak_scalar(7, true, f16)), type::tile(dtype::f16));         // int next to float16: float16
  EXPECT_EQ(t(b.weak_scalar(1, true, bl)), type::tile(dtype::i64));          // int next to bool: int64
  EXPECT_EQ(t(b.weak_scalar(0.5, false, bl)), type::tile(dtype::f64));       // float next to bool: float64
  EXPECT_EQ(t(b.binary(op_kind::add, i8, b.weak_scalar(3, true, i8))), type::tile(dtype::i8, {4}));
  EXPECT_EQ(t(b.binary(op_kind::mul, f16, b.weak_scalar(3, true, f16))), type::tile(dtype::f16, {4}));
  value_id big = b.weak_scalar(255, true, u8);
  EXPECT_EQ(std::get<std::int64_t>(*f.body.ops.back().attr("value")), 255);
  EXPECT_EQ(t(big), type::tile(dtype::u8));
  b.set_location({"w.py", 2, 9});
  EXPECT_EQ(error_of([&] { b.weak_scalar(300, true, i8); }, error_kind::invalid_argument),
            "w.py:2:9: Python integer 300 out of bounds for int8");
  error_of([&] { b.weak_scalar(-1, true, u8); }, error_kind::invalid_argument);
  b.finish();
  verify(f);
}

TEST_F(IrBuilder, Constants) {
  value_id c = b.constant(std::int64_t(300), type::tile(dtype::i8, {2}));  // wraps as a C conversion
  EXPECT_EQ(std::get<std::int64_t>(*f.body.ops.back().attr("value")), 44);
  EXPECT_EQ(t(c), type::tile(dtype::i8, {2}));
  b.constant(std::int64_t(-1), type::tile(dtype::u16));
  EXPECT_EQ(std::get<std::int64_t>(*f.body.ops.back().attr("value")), 65535);
  b.constant(std::int64_t(2), type::tile(dtype::f32));
  EXPECT_EQ(std::get<double>(*f.body.ops.back().attr("value")), 2.0);
  b.constant(-2.75, type::tile(dtype::i32));
  EXPECT_EQ(std::get<std::int64_t>(*f.body.ops.back().attr("value")), -2);
  b.constant(0.5, type::tile(dtype::b1));
  EXPECT_EQ(std::get<std::int64_t>(*f.body.ops.back().attr("value")), 1);
  EXPECT_EQ(f.body.ops.back().attr("shape"), nullptr);  // scalars carry no shape attribute
  error_of([&] { b.constant(1e300, type::tile(dtype::i64)); }, error_kind::invalid_argument);
  error_of([&] { b.constant(1.0, type::array(dtype::f32, 1)); }, error_kind::type_error);
  b.finish();
  verify(f);
}

TEST_F(IrBuilder, CastAndBroadcastAreNoOpsWhenNothingChanges) {
  value_id v = tile(dtype::f32, {2, 3});
  std::size_t n = f.body.ops.size();
  EXPECT_EQ(b.cast(v, dtype::f32), v);
  EXPECT_EQ(b.broadcast(v, {2, 3}), v);
  EXPECT_EQ(f.body.ops.size(), n);
  EXPECT_EQ(t(b.broadcast(v, {5, 2, 3})), type::tile(dtype::f32, {5, 2, 3}));
  EXPECT_EQ(t(b.cast(v, dtype::bf16)), type::tile(dtype::bf16, {2, 3}));
  EXPECT_EQ(error_of([&] { b.broadcast(v, {3, 3}); }, error_kind::invalid_argument), "cannot broadcast shape (2, 3) to (3, 3)");
}

TEST_F(IrBuilder, Where) {
  value_id c = tile(dtype::b1, {4, 1}), a = tile(dtype::i32, {3}), s = tile(dtype::f32);
  EXPECT_EQ(t(b.where(c, a, s)), type::tile(dtype::f64, {4, 3}));
  EXPECT_EQ(t(b.where(tile(dtype::i8, {2}), s, s)), type::tile(dtype::f32, {2}));  // nonzero means true
  b.finish();
  verify(f);
}

TEST_F(IrBuilder, ErrorsCarryTheLocation) {
  value_id a = tile(dtype::f32, {4}), c = tile(dtype::f32, {3});
  b.set_location({"user.py", 12, 5});
  EXPECT_EQ(error_of([&] { b.binary(op_kind::add, a, c); }, error_kind::invalid_argument),
            "user.py:12:5: add: shapes (4,) and (3,) cannot be broadcast together");
  EXPECT_EQ(error_of([&] { b.binary(op_kind::bit_and, a, a); }, error_kind::type_error),
            "user.py:12:5: and: requires bool or integer operands, got float32");
  EXPECT_EQ(error_of([&] { b.create(op_kind::exp, {tile(dtype::i32, {4})}); }, error_kind::type_error),
            "user.py:12:5: exp: requires float operands, got int32");
  error_of([&] { b.create(op_kind::add, {a, 999}); }, error_kind::invalid_argument);
  error_of([&] { b.create(op_kind::for_, {}); }, error_kind::invalid_argument);
  error_of([&] { b.binary(op_kind::exp, a, a); }, error_kind::invalid_argument);
  b.set_location({});
  EXPECT_EQ(error_of([&] { b.create(op_kind::sqrt, {tile(dtype::i32)}); }, error_kind::type_error),
            "sqrt: requires float operands, got int32");
}

TEST_F(IrBuilder, ForLoop) {
  value_id n = b.add_param("n", type::tile(dtype::i64));
  value_id lb = b.constant(std::int64_t(0), type::tile(dtype::i32));
  value_id st = b.constant(std::int64_t(1), type::tile(dtype::i32));
  value_id acc0 = tile(dtype::f32, {8});
  auto args = b.begin_for(lb, n, st, {acc0});  // int32 bounds with an int64 bound: all int64
  EXPECT_EQ(t(args.iv), type::tile(dtype::i64));
  ASSERT_EQ(args.carried.size(), 1u);
  value_id next = b.binary(op_kind::add, args.carried[0], args.carried[0]);
  auto results = b.end_for({next});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(t(results[0]), type::tile(dtype::f32, {8}));
  b.finish();
  EXPECT_NO_THROW(verify(f));
}

TEST_F(IrBuilder, NestedRegionsKeepParentsValid) {
  value_id n = b.add_param("n", type::tile(dtype::i32));
  value_id z = b.constant(std::int64_t(0), type::tile(dtype::i32));
  value_id one = b.constant(std::int64_t(1), type::tile(dtype::i32));
  auto outer = b.begin_for(z, n, one, {z});
  // Many ops in inner regions: an outer op list must not move while inner ones grow.
  auto inner = b.begin_for(z, n, one, {outer.carried[0]});
  value_id v = inner.carried[0];
  for (int i = 0; i < 100; ++i) v = b.binary(op_kind::add, v, inner.iv);
  value_id c = b.binary(op_kind::gt, v, z);
  b.begin_if(c);
  value_id w = b.binary(op_kind::mul, v, v);
  b.begin_else({w});
  auto r = b.end_if({v});
  auto inner_r = b.end_for({r[0]});
  auto outer_r = b.end_for({inner_r[0]});
  auto wargs = b.begin_while({outer_r[0]});
  value_id go = b.binary(op_kind::lt, wargs.carried[0], n);
  auto after = b.while_do(go, {wargs.carried[0]});
  auto wr = b.end_while({b.binary(op_kind::add, after.carried[0], one)});
  ASSERT_EQ(wr.size(), 1u);
  b.finish();
  EXPECT_NO_THROW(verify(f)) << print(f);
  EXPECT_EQ(f.body.ops.size(), 5u);  // two constants, the outer for, the while, the yield
}

TEST_F(IrBuilder, ReduceAndScan) {
  value_id v = tile(dtype::f16, {4, 8});
  value_id id = b.constant(0.0, type::tile(dtype::f32));  // cast to the input dtype
  auto args = b.begin_reduce(op_kind::reduce, v, id, -1, false);
  EXPECT_EQ(t(args.carried[0]), type::tile(dtype::f16));
  value_id r = b.end_reduce(b.binary(op_kind::maximum, args.carried[0], args.carried[1]));
  EXPECT_EQ(t(r), type::tile(dtype::f16, {4}));
  auto sargs = b.begin_reduce(op_kind::scan, v, b.constant(1.0, type::tile(dtype::f16)), 0, true);
  value_id s = b.end_reduce(b.binary(op_kind::mul, sargs.carried[0], sargs.carried[1]));
  EXPECT_EQ(t(s), type::tile(dtype::f16, {4, 8}));
  b.finish();
  EXPECT_NO_THROW(verify(f));
}

TEST_F(IrBuilder, ControlFlowErrors) {
  value_id n = b.add_param("n", type::tile(dtype::i32));
  value_id fl = tile(dtype::f32);
  b.set_location({"cf.py", 3, 1});
  EXPECT_EQ(error_of([&] { b.begin_if(n); }, error_kind::type_error), "cf.py:3:1: if: condition must be a bool scalar, got tile<int32>");
  error_of([&] { b.begin_for(fl, n, n, {}); }, error_kind::type_error);
  error_of([&] { b.end_for({}); }, error_kind::invalid_argument);
  error_of([&] { b.begin_else({}); }, error_kind::invalid_argument);
  error_of([&] { b.end_reduce(n); }, error_kind::invalid_argument);
  auto args = b.begin_for(n, n, n, {fl});
  EXPECT_EQ(error_of([&] { b.end_for({args.iv}); }, error_kind::type_error),
            "cf.py:3:1: for: the loop body yields (tile<int32>) but the carried values are (tile<float32>)");
  error_of([&] { b.finish(); }, error_kind::invalid_argument);  // the loop is still open
  b.end_for({args.carried[0]});
  value_id c = b.binary(op_kind::gt, n, n);
  b.begin_if(c);
  b.begin_else({fl});
  error_of([&] { b.end_if({n}); }, error_kind::type_error);
  b.end_if({fl});
  error_of([&] { b.begin_reduce(op_kind::reduce, fl, fl, 0, false); }, error_kind::invalid_argument);  // scalar input
  error_of([&] { b.begin_reduce(op_kind::add, tile(dtype::f32, {2}), fl, 0, false); }, error_kind::invalid_argument);
  b.finish();
  EXPECT_NO_THROW(verify(f));
  error_of([&] { b.finish(); }, error_kind::invalid_argument);
}

}  // namespace
}  // namespace tegula::ir
