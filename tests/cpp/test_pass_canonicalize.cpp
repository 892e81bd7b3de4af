// Tests of passes/canonicalize: constant folding, splats through shape ops, no-op removal, control flow.
#include "tegula/passes/canonicalize.hpp"

#include "pass_check.hpp"

namespace tegula::passes {
namespace {

using testing_util::func;
using testing_util::run_pass;

TEST(PassCanonicalize, FoldsScalarArithmeticInPlace) {
  const std::string out = run_pass(canonicalize, func("%o: array<int32, 1>",
      "  %a = constant {dtype = int32, value = 6} : tile<int32>\n"
      "  %b = constant {dtype = int32, value = 7} : tile<int32>\n"
      "  %c = mul %a, %b : tile<int32>\n"
      "  %d = sub %c, %a : tile<int32>\n"
      "  %e = expand_dims %d {axis = 0} : tile<int32, 1>\n"
      "  store %o, %a, %e\n"
      "  yield\n"));
  EXPECT_EQ(out, func("%o: array<int32, 1>",
      "  %a = constant {dtype = int32, value = 6} : tile<int32>\n"
      "  %b = constant {dtype = int32, value = 7} : tile<int32>\n"
      "  %c = constant {dtype = int32, value = 42} : tile<int32>\n"
      "  %d = constant {dtype = int32, value = 36} : tile<int32>\n"
      "  %e = constant {dtype = int32, shape = [1], value = 36} : tile<int32, 1>\n"
      "  store %o, %a, %e\n"
      "  yield\n"));
}

TEST(PassCanonicalize, FoldsSplatsAndComparisons) {
  const std::string out = run_pass(canonicalize, func("%o: array<bool, 2>",
      "  %z = constant {dtype = int32, value = 0} : tile<int32>\n"
      "  %a = constant {dtype = float32, shape = [2, 2], value = 1.5} : tile<float32, 2x2>\n"
      "  %b = constant {dtype = float32, shape = [2, 2], value = 2} : tile<float32, 2x2>\n"
      "  %c = lt %a, %b : tile<bool, 2x2>\n"
      "  store %o, %z, %z, %c\n"
      "  yield\n"));
  EXPECT_NE(out.find("%b = constant {dtype = float32, shape = [2, 2], value = 2.0}"), std::string::npos) << out;
  EXPECT_NE(out.find("%c = constant {dtype = bool, shape = [2, 2], value = 1} : tile<bool, 2x2>"), std::string::npos) << out;
}

TEST(PassCanonicalize, LeavesRunTimeFailuresAndTranscendentals) {
  const std::string in = func("%o: array<int32, 1>, %p: array<float32, 1>",
      "  %z = constant {dtype = int32, value = 0} : tile<int32>\n"
      "  %a = constant {dtype = int32, value = 6} : tile<int32>\n"
      "  %q = div %a, %z : tile<int32>\n"
      "  %e = expand_dims %q {axis = 0} : tile<int32, 1>\n"
      "  store %o, %z, %e\n"
      "  %f = constant {dtype = float32, shape = [1], value = 1.0} : tile<float32, 1>\n"
      "  %g = exp %f : tile<float32, 1>\n"
      "  store %p, %z, %g\n"
      "  yield\n");
  const std::string out = run_pass(canonicalize, in);
  EXPECT_NE(out.find("%q = div %a, %z"), std::string::npos) << out;
  EXPECT_NE(out.find("%g = exp %f"), std::string::npos) << out;
}

TEST(PassCanonicalize, RemovesNoOps) {
  const std::string out = run_pass(canonicalize, func("%x: array<float32, 2>, %z: tile<int32>",
      "  %v = load %x, %z, %z {padding = \"zero\", shape = [2, 3]} : tile<float32, 2x3>\n"
      "  %a = astype %v {dtype = float32} : tile<float32, 2x3>\n"
      "  %b = reshape %a {shape = [2, 3]} : tile<float32, 2x3>\n"
      "  %c = permute %b {perm = [0, 1]} : tile<float32, 2x3>\n"
      "  %d = broadcast_to %c {shape = [2, 3]} : tile<float32, 2x3>\n"
      "  %e = reshape %d {shape = [3, 2]} : tile<float32, 3x2>\n"
      "  store %x, %z, %z, %e\n"
      "  yield\n"));
  EXPECT_EQ(out, func("%x: array<float32, 2>, %z: tile<int32>",
      "  %v = load %x, %z, %z {padding = \"zero\", shape = [2, 3]} : tile<float32, 2x3>\n"
      "  %e = reshape %v {shape = [3, 2]} : tile<float32, 3x2>\n"
      "  store %x, %z, %z, %e\n"
      "  yield\n"));
}

TEST(PassCanonicalize, ConstantConditions) {
  const std::string out = run_pass(canonicalize, func("%x: array<float32, 1>, %n: tile<int32>",
      "  %z = constant {dtype = int32, value = 0} : tile<int32>\n"
      "  %v = load %x, %z {padding = \"zero\", shape = [4]} : tile<float32, 4>\n"
      "  %t = constant {dtype = bool, value = 1} : tile<bool>\n"
      "  %r = if %t {\n"
      "    %e = exp %v : tile<float32, 4>\n"
      "    yield %e\n"
      "  } {\n"
      "    yield %v\n"
      "  } : tile<float32, 4>\n"
      "  %m = constant {dtype = bool, shape = [4], value = 0} : tile<bool, 4>\n"
      "  %w = where %m, %v, %r : tile<float32, 4>\n"
      "  %one = constant {dtype = int32, value = 1} : tile<int32>\n"
      "  %l = for %one, %z, %one, %w {\n"
      "  ^(%i: tile<int32>, %a: tile<float32, 4>):\n"
      "    yield %v\n"
      "  } : tile<float32, 4>\n"
      "  store %x, %z, %l\n"
      "  yield\n"));
  EXPECT_EQ(out, func("%x: array<float32, 1>, %n: tile<int32>",
      "  %z = constant {dtype = int32, value = 0} : tile<int32>\n"
      "  %v = load %x, %z {padding = \"zero\", shape = [4]} : tile<float32, 4>\n"
      "  %t = constant {dtype = bool, value = 1} : tile<bool>\n"
      "  %e = exp %v : tile<float32, 4>\n"
      "  %m = constant {dtype = bool, shape = [4], value = 0} : tile<bool, 4>\n"
      "  %one = constant {dtype = int32, value = 1} : tile<int32>\n"
      "  store %x, %z, %e\n"
      "  yield\n"));
}

TEST(PassCanonicalize, KeepsLoopsThatMayRun) {
  const std::string in = func("%n: tile<int32>, %o: array<int32, 1>",
      "  %z = constant {dtype = int32, value = 0} : tile<int32>\n"
      "  %m = constant {dtype = int32, value = -1} : tile<int32>\n"
      "  %l = for %z, %n, %m, %z {\n"
      "  ^(%i: tile<int32>, %a: tile<int32>):\n"
      "    yield %i\n"
      "  } : tile<int32>\n"
      "  %l2 = for %n, %z, %m, %l {\n"
      "  ^(%j: tile<int32>, %b: tile<int32>):\n"
      "    yield %j\n"
      "  } : tile<int32>\n"
      "  %e = expand_dims %l2 {axis = 0} : tile<int32, 1>\n"
      "  store %o, %z, %e\n"
      "  yield\n");
  EXPECT_EQ(run_pass(canonicalize, in), ir::print(ir::parse(in)));
}

TEST(PassCanonicalize, ExtremesOfSplats) {
  const std::string out = run_pass(canonicalize, func("%o: array<int32, 1>",
      "  %z = constant {dtype = int32, value = 0} : tile<int32>\n"
      "  %a = constant {dtype = int32, shape = [4, 8], value = 5} : tile<int32, 4x8>\n"
      "  %b = max %a {axis = 1, keepdims = 0} : tile<int32, 4>\n"
      "  %c = argmin %a {axis = 0, keepdims = 0} : tile<int32, 8>\n"
      "  %d = add %b, %b : tile<int32, 4>\n"
      "  store %o, %z, %d\n"
      "  store %o, %z, %c\n"
      "  yield\n"));
  EXPECT_NE(out.find("%d = constant {dtype = int32, shape = [4], value = 10} : tile<int32, 4>"), std::string::npos) << out;
  EXPECT_NE(out.find("%c = constant {dtype = int32, shape = [8], value = 0} : tile<int32, 8>"), std::string::npos) << out;
}

}  // namespace
}  // namespace tegula::passes
