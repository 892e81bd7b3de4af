// Tests of kernel/arguments: array views and their layouts, bytes touched, and scalar bytes in the kernel ABI.
#include <gtest/gtest.h>

#include <cstring>

#include "expect_error.hpp"
#include "tegula/kernel/arguments.hpp"

namespace tegula::kernel {
namespace {

TEST(KernelArguments, MakeArrayFillsCOrderStridesAndItsLayout) {
  array_arg a = make_array(0x1000, ir::dtype::f32, {3, 4, 8});
  EXPECT_EQ(a.rank, 3);
  EXPECT_EQ(a.strides[0], 32);
  EXPECT_EQ(a.strides[1], 8);
  EXPECT_EQ(a.strides[2], 1);
  EXPECT_TRUE(a.contiguous);
  EXPECT_TRUE(a.aligned);  // 8 floats a row: 32 bytes
  array_arg odd = make_array(0x1000, ir::dtype::f32, {3, 5});
  EXPECT_FALSE(odd.aligned);  // 20-byte rows
  array_arg column = make_array(0x1004, ir::dtype::f32, {5, 1}, {7, 7});
  EXPECT_TRUE(column.contiguous);  // one element a row: contiguous whatever its stride
  EXPECT_FALSE(column.aligned);    // the address
  array_arg strided = make_array(0x1000, ir::dtype::f32, {5, 3}, {12, 4});
  EXPECT_FALSE(strided.contiguous);
}

TEST(KernelArguments, MakeArrayRefusesWhatAViewCannotHold) {
  testing::expect_error([] { make_array(0, ir::dtype::f32, std::vector<std::int64_t>(17, 1)); },
                        error_kind::invalid_argument, "arrays of at most 16 axes are supported, got 17");
  testing::expect_error([] { make_array(0, ir::dtype::f32, {2, 2}, {1}); }, error_kind::invalid_argument,
                        "an array view needs one stride per extent (2 extents, 1 strides)");
  testing::expect_error([] { make_array(0, ir::dtype::f32, {-1}); }, error_kind::invalid_argument,
                        "array extent 0 is negative (-1)");
}

TEST(KernelArguments, DeclaredLayoutsAndBytesTouched) {
  std::vector<argument> args{make_array(0x1000, ir::dtype::f64, {4, 6}), scalar_arg{ir::dtype::i32, 0, 3},
                             make_array(0x1000, ir::dtype::f16, {4, 6}, {0, 1})};
  std::get<array_arg>(args[0]).aligned = false;  // declared less than it is: allowed
  auto l = declared_layouts(args);
  ASSERT_EQ(l.size(), 2u);
  EXPECT_TRUE(l[0].last_dim_contiguous);
  EXPECT_FALSE(l[0].aligned_16);
  EXPECT_TRUE(l[1].aligned_16);  // a broadcast (stride 0) axis has no pitch
  EXPECT_EQ(bytes_touched(args), 4u * 6 * 8 + 6 * 2);  // the broadcast axis counted once
}

TEST(KernelArguments, ScalarBytesFollowTheDtype) {
  unsigned char b[8];
  EXPECT_EQ(scalar_bytes({ir::dtype::b1, 0, 5}, b), 1u);
  EXPECT_EQ(b[0], 1);
  EXPECT_EQ(scalar_bytes({ir::dtype::i32, 0, -2}, b), 4u);
  std::int32_t i;
  std::memcpy(&i, b, 4);
  EXPECT_EQ(i, -2);
  EXPECT_EQ(scalar_bytes({ir::dtype::f32, 1.5, 0}, b), 4u);
  float f;
  std::memcpy(&f, b, 4);
  EXPECT_EQ(f, 1.5f);
  EXPECT_EQ(scalar_bytes({ir::dtype::f16, 1.0, 0}, b), 2u);
  EXPECT_EQ(b[0], 0x00);
  EXPECT_EQ(b[1], 0x3c);  // half 1.0
  EXPECT_EQ(scalar_bytes({ir::dtype::u64, 0, -1}, b), 8u);
  EXPECT_EQ(b[7], 0xff);
}

}  // namespace
}  // namespace tegula::kernel

namespace tegula::kernel {
namespace {

TEST(KernelArguments, ForEachParamFollowsTheAbi) {
  std::vector<argument> args{make_array(0x1230, ir::dtype::f32, {2, 3}), scalar_arg{ir::dtype::i32, 0, 7},
                             scalar_arg{ir::dtype::b1, 0, 1}};
  std::vector<std::size_t> sizes;
  std::vector<std::int64_t> ints;
  for_each_param(args, [&](const void* p, std::size_t n) {
    sizes.push_back(n);
    std::int64_t v = 0;
    std::memcpy(&v, p, n);
    ints.push_back(v);
  });
  EXPECT_EQ(sizes, (std::vector<std::size_t>{8, 8, 8, 8, 8, 4, 1}));
  EXPECT_EQ(ints, (std::vector<std::int64_t>{0x1230, 2, 3, 3, 1, 7, 1}));
}

}  // namespace
}  // namespace tegula::kernel
