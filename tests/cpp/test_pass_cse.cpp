// Tests of passes/cse: merging pure ops, scoping through regions, and what is never merged.
#include "tegula/passes/cse.hpp"

#include "pass_check.hpp"

namespace tegula::passes {
namespace {

using testing_util::func;
using testing_util::run_pass;

TEST(PassCse, MergesEqualPureOps) {
  const std::string out = run_pass(cse, func("%x: array<float32, 1>",
      "  %a = block_id {axis = 0} : tile<int32>\n"
      "  %b = block_id {axis = 0} : tile<int32>\n"
      "  %c = block_id {axis = 1} : tile<int32>\n"
      "  %d = add %a, %c : tile<int32>\n"
      "  %e = add %b, %c : tile<int32>\n"
      "  %f = mul %d, %e : tile<int32>\n"
      "  %g = astype %f {dtype = int64} : tile<int64>\n"
      "  %h = astype %f {dtype = int16} : tile<int16>\n"
      "  %i = astype %f {dtype = int64} : tile<int64>\n"
      "  print %g, %h, %i {format = \"{} {} {}\"}\n"
      "  yield\n"));
  EXPECT_EQ(out, func("%x: array<float32, 1>",
      "  %a = block_id {axis = 0} : tile<int32>\n"
      "  %c = block_id {axis = 1} : tile<int32>\n"
      "  %d = add %a, %c : tile<int32>\n"
      "  %f = mul %d, %d : tile<int32>\n"
      "  %g = astype %f {dtype = int64} : tile<int64>\n"
      "  %h = astype %f {dtype = int16} : tile<int16>\n"
      "  print %g, %h, %g {format = \"{} {} {}\"}\n"
      "  yield\n"));
}

TEST(PassCse, ConstantsDifferByTypeAndBits) {
  const std::string out = run_pass(cse, func("",
      "  %a = constant {dtype = float32, value = 0.0} : tile<float32>\n"
      "  %b = constant {dtype = float32, value = -0.0} : tile<float32>\n"
      "  %c = constant {dtype = float64, value = 0.0} : tile<float64>\n"
      "  %d = constant {dtype = float32, shape = [2], value = 0.0} : tile<float32, 2>\n"
      "  %e = constant {dtype = float32, value = 0.0} : tile<float32>\n"
      "  %n = constant {dtype = float32, value = nan} : tile<float32>\n"
      "  %m = constant {dtype = float32, value = nan} : tile<float32>\n"
      "  print %a, %b, %c, %d, %e, %n, %m {format = \"{}{}{}{}{}{}{}\"}\n"
      "  yield\n"));
  EXPECT_EQ(out.find("%e ="), std::string::npos) << out;
  EXPECT_EQ(out.find("%m ="), std::string::npos) << out;  // equal attributes, even NaN
  EXPECT_NE(out.find("%b = constant"), std::string::npos) << out;
  EXPECT_NE(out.find("%c = constant"), std::string::npos) << out;
  EXPECT_NE(out.find("%d = constant"), std::string::npos) << out;
  EXPECT_NE(out.find("print %a, %b, %c, %d, %a, %n, %n"), std::string::npos) << out;
}

TEST(PassCse, NeverMergesMemoryEffectsOrControlFlow) {
  const std::string in = func("%x: array<float32, 1>, %z: tile<int32>, %c: tile<bool>",
      "  %a = load %x, %z {padding = \"zero\", shape = [4]} : tile<float32, 4>\n"
      "  store %x, %z, %a\n"
      "  %b = load %x, %z {padding = \"zero\", shape = [4]} : tile<float32, 4>\n"
      "  store %x, %z, %b\n"
      "  %o = arange {n = 4} : tile<int32, 4>\n"
      "  %ones = constant {dtype = float32, shape = [4], value = 1.0} : tile<float32, 4>\n"
      "  %p = atomic_add %x, %o, %ones {has_mask = 0} : tile<float32, 4>\n"
      "  %q = atomic_add %x, %o, %ones {has_mask = 0} : tile<float32, 4>\n"
      "  print %z {format = \"{}\"}\n"
      "  print %z {format = \"{}\"}\n"
      "  assert %c {message = \"m\"}\n"
      "  assert %c {message = \"m\"}\n"
      "  %r = if %c {\n    yield %z\n  } {\n    yield %z\n  } : tile<int32>\n"
      "  %s = if %c {\n    yield %z\n  } {\n    yield %z\n  } : tile<int32>\n"
      "  print %p, %q, %r, %s {format = \"{}{}{}{}\"}\n"
      "  yield\n");
  EXPECT_EQ(run_pass(cse, in), ir::print(ir::parse(in)));
}

TEST(PassCse, RegionsSeeEnclosingValuesButNotSiblings) {
  const std::string out = run_pass(cse, func("%n: tile<int32>, %c: tile<bool>",
      "  %a = mul %n, %n : tile<int32>\n"
      "  %r = if %c {\n"
      "    %b = mul %n, %n : tile<int32>\n"
      "    %k = add %b, %n : tile<int32>\n"
      "    yield %k\n"
      "  } {\n"
      "    %k2 = add %a, %n : tile<int32>\n"
      "    yield %k2\n"
      "  } : tile<int32>\n"
      "  %k3 = add %a, %n : tile<int32>\n"
      "  print %r, %k3 {format = \"{}{}\"}\n"
      "  yield\n"));
  EXPECT_EQ(out, func("%n: tile<int32>, %c: tile<bool>",
      "  %a = mul %n, %n : tile<int32>\n"
      "  %r = if %c {\n"
      "    %k = add %a, %n : tile<int32>\n"
      "    yield %k\n"
      "  } {\n"
      "    %k2 = add %a, %n : tile<int32>\n"
      "    yield %k2\n"
      "  } : tile<int32>\n"
      "  %k3 = add %a, %n : tile<int32>\n"
      "  print %r, %k3 {format = \"{}{}\"}\n"
      "  yield\n"));
}

}  // namespace
}  // namespace tegula::passes
