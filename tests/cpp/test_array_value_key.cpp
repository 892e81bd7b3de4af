// Tests of array/value_key: equal expressions over the same storages get equal keys; other scalars, ops, layouts
// or storages (even a new one at a freed one's address) get other keys; reductions and scans get none.
#include "tegula/array/value_key.hpp"

#include <gtest/gtest.h>

#include "tegula/array/ndarray.hpp"

namespace tegula::array {
namespace {

const where_to cpu = where_to::cpu();

TEST(ValueKey, EqualExpressionsOfTheSameArraysShareAKey) {
  ndarray x = ndarray::from_vector(std::vector<float>{1, -2, 3, -4}, {4}, cpu);
  ndarray y = ndarray::from_vector(std::vector<float>{1, -2, 3, -4}, {4}, cpu);
  auto a = make_value_key(make_binary(ir::op_kind::gt, x.handle(), make_scalar(0.0, ir::dtype::f32, x.handle())));
  auto b = make_value_key(make_binary(ir::op_kind::gt, x.handle(), make_scalar(0.0, ir::dtype::f32, x.handle())));
  auto c = make_value_key(make_binary(ir::op_kind::gt, x.handle(), make_scalar(1.0, ir::dtype::f32, x.handle())));
  auto d = make_value_key(make_binary(ir::op_kind::lt, x.handle(), make_scalar(0.0, ir::dtype::f32, x.handle())));
  auto e = make_value_key(make_binary(ir::op_kind::gt, y.handle(), make_scalar(0.0, ir::dtype::f32, y.handle())));
  ASSERT_TRUE(a && b && c && d && e);
  EXPECT_EQ(a->key, b->key);
  EXPECT_NE(a->key, c->key);  // another scalar
  EXPECT_NE(a->key, d->key);  // another op
  EXPECT_NE(a->key, e->key);  // other memory with the same values: another storage
  ASSERT_EQ(a->leaves.size(), 1u);
  EXPECT_EQ(a->leaves[0]->data, x.handle()->data);
}

TEST(ValueKey, StoragesAreNamedBySerialNotAddress) {
  std::string first;
  std::uint64_t serial = 0;
  {
    ndarray x = ndarray::from_vector(std::vector<float>{1, 2}, {2}, cpu);
    first = make_value_key(x.handle())->key;
    serial = x.handle()->data->serial;
  }
  ndarray y = ndarray::from_vector(std::vector<float>{1, 2}, {2}, cpu);  // may reuse the address
  EXPECT_NE(y.handle()->data->serial, serial);
  EXPECT_NE(make_value_key(y.handle())->key, first);
}

TEST(ValueKey, ReductionsHaveNone) {
  ndarray x = ndarray::from_vector(std::vector<float>{1, 2, 3}, {3}, cpu);
  EXPECT_FALSE(make_value_key(make_reduce(ir::op_kind::reduce_sum, x.handle(), {0}, false, false)));
}

}  // namespace
}  // namespace tegula::array
