// Interpreter: arguments checked against parameters (count, kind, dtype, rank, scalar conversion).
#include <gtest/gtest.h>

#include "interp_test_util.hpp"
#include "tegula/support/error.hpp"

namespace tegula::interp::test {
namespace {

// out[0] = n * 2 (n an int32 scalar parameter), for a float32 array `x` of rank 1 that is unused.
ir::function doubler() {
  kernel k("doubler");
  k.param("x", array(dtype::f32, 1));
  value_id n = k.param("n", tile(dtype::i32));
  value_id po = k.param("out", array(dtype::i32, 1));
  value_id r = k.op1(op_kind::mul, {n, k.i32(2)}, tile(dtype::i32));
  k.op(op_kind::store, {po, k.i32(0), k.op1(op_kind::reshape, {r}, tile(dtype::i32, {1}), {{"shape", std::vector<std::int64_t>{1}}})});
  return k.finish();
}

std::string error_of(const ir::function& f, const std::vector<argument>& args, error_kind want) {
  try {
    run(f, args, {1, 1, 1});
  } catch (const error& e) {
    EXPECT_EQ(e.kind(), want) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return {};
}

TEST(InterpArguments, ScalarsConvertToTheParameterDtype) {
  const ir::function f = doubler();
  std::vector<float> x(3);
  std::vector<std::int32_t> out(1);
  run(f, {view(x, {3}), scalar_arg{std::int64_t(21)}, view(out, {1})}, {1, 1, 1});
  EXPECT_EQ(out[0], 42);
  run(f, {view(x, {3}), scalar_arg{std::uint64_t(7)}, view(out, {1})}, {1, 1, 1});
  EXPECT_EQ(out[0], 14);
  run(f, {view(x, {3}), scalar_arg{true}, view(out, {1})}, {1, 1, 1});
  EXPECT_EQ(out[0], 2);
}

TEST(InterpArguments, MismatchesNameTheParameter) {
  const ir::function f = doubler();
  std::vector<float> x(3);
  std::vector<std::int32_t> xi(3), out(1);
  std::vector<float> x2(6);
  const scalar_arg n{std::int64_t(1)};
  EXPECT_EQ(error_of(f, {view(x, {3}), n}, error_kind::invalid_argument), "kernel 'doubler' takes 3 arguments, got 2");
  EXPECT_EQ(error_of(f, {n, n, view(out, {1})}, error_kind::type_error),
            "argument 'x' of kernel 'doubler': expected array<float32, 1>, got a scalar");
  EXPECT_EQ(error_of(f, {view(x, {3}), view(x, {3}), view(out, {1})}, error_kind::type_error),
            "argument 'n' of kernel 'doubler': expected a scalar (int32), got an array");
  EXPECT_EQ(error_of(f, {view(xi, {3}), n, view(out, {1})}, error_kind::type_error),
            "argument 'x' of kernel 'doubler': expected an array of float32, got int32");
  EXPECT_EQ(error_of(f, {view(x2, {2, 3}), n, view(out, {1})}, error_kind::type_error),
            "argument 'x' of kernel 'doubler': expected an array of rank 1, got rank 2");
  EXPECT_EQ(error_of(f, {view(x, {3}), scalar_arg{2.5}, view(out, {1})}, error_kind::type_error),
            "argument 'n' of kernel 'doubler': expected int32, got a float (2.5)");
  EXPECT_EQ(error_of(f, {view(x, {3}), scalar_arg{std::int64_t(1) << 40}, view(out, {1})}, error_kind::invalid_argument),
            "argument 'n' of kernel 'doubler': 1099511627776 does not fit in int32");
  array_arg bad = view(x, {3});
  bad.strides.clear();
  EXPECT_EQ(error_of(f, {bad, n, view(out, {1})}, error_kind::invalid_argument),
            "argument 'x' of kernel 'doubler': 1 extents but 0 strides");
  bad = view(x, {3});
  bad.data = nullptr;
  EXPECT_EQ(error_of(f, {bad, n, view(out, {1})}, error_kind::invalid_argument),
            "argument 'x' of kernel 'doubler': null data for a non-empty array");
}

}  // namespace
}  // namespace tegula::interp::test
