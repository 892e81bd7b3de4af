// Tests of kernel/signature: keys split exactly where the IR or the generated code can differ.
#include <gtest/gtest.h>

#include "tegula/kernel/signature.hpp"

namespace tegula::kernel {
namespace {

TEST(KernelSignature, KeysSplitOnWhatTheCodeDependsOn) {
  const array_arg a = make_array(0x1000, ir::dtype::f32, {8, 4096});
  const scalar_arg s{ir::dtype::i32, 0, 5};
  const std::string base = key_of({a, a, s}, 90);
  EXPECT_EQ(key_of({make_array(0x9000, ir::dtype::f32, {3, 4096}), a, scalar_arg{ir::dtype::i32, 0, -1}}, 90), base);
  EXPECT_NE(key_of({a, a, s}, 80), base);                                                      // the target
  EXPECT_NE(key_of({a, a, s}, 0), base);                                                       // the CPU
  EXPECT_NE(key_of({make_array(0x1000, ir::dtype::f16, {8, 4096}), a, s}, 90), base);         // a dtype
  EXPECT_NE(key_of({make_array(0x1000, ir::dtype::f32, {8 * 4096}), a, s}, 90), base);        // a rank
  EXPECT_NE(key_of({make_array(0x1004, ir::dtype::f32, {8, 4096}), a, s}, 90), base);         // alignment
  EXPECT_NE(key_of({make_array(0x1000, ir::dtype::f32, {8, 4096}, {1, 8}), a, s}, 90), base); // contiguity
  EXPECT_NE(key_of({a, a, scalar_arg{ir::dtype::i64, 0, 5}}, 90), base);                       // a scalar's dtype
  EXPECT_NE(key_of({a, s, a}, 90), base);                                                      // the order
}

TEST(KernelSignature, ConstantsAreLengthPrefixed) {
  std::string one, two;
  key_constant(one, "ab");
  key_constant(one, "c");
  key_constant(two, "a");
  key_constant(two, "bc");
  EXPECT_NE(one, two);
}

}  // namespace
}  // namespace tegula::kernel
