// Tests of array/ufunc_names: NumPy's names where the IR's op text differs, the op text where it is NumPy's.
#include <gtest/gtest.h>

#include <string>

#include "tegula/array/ufunc_names.hpp"

namespace tegula::array {
namespace {

using ir::op_kind;

TEST(UfuncNames, NumpysNamesWhereTheIrsDiffer) {
  EXPECT_EQ(std::string(ufunc_name(op_kind::sub)), "subtract");
  EXPECT_EQ(std::string(ufunc_name(op_kind::div)), "divide");
  EXPECT_EQ(std::string(ufunc_name(op_kind::floordiv)), "floor_divide");
  EXPECT_EQ(std::string(ufunc_name(op_kind::shl)), "left_shift");
  EXPECT_EQ(std::string(ufunc_name(op_kind::atan2)), "arctan2");
  EXPECT_EQ(std::string(ufunc_name(op_kind::bit_xor)), "bitwise_xor");
}

TEST(UfuncNames, TheOpTextWhereItIsNumpys) {
  EXPECT_EQ(std::string(ufunc_name(op_kind::add)), "add");
  EXPECT_EQ(std::string(ufunc_name(op_kind::exp)), "exp");
  EXPECT_EQ(std::string(ufunc_name(op_kind::hypot)), "hypot");
}

}  // namespace
}  // namespace tegula::array
