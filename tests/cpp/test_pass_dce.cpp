// Tests of passes/dce: unused pure ops and loads go; effects and their inputs stay, also inside regions.
#include "tegula/passes/dce.hpp"

#include "pass_check.hpp"

namespace tegula::passes {
namespace {

using testing_util::func;
using testing_util::run_pass;

TEST(PassDce, RemovesUnusedChains) {
  const std::string out = run_pass(dce, func("%x: array<float32, 1>, %z: tile<int32>",
      "  %a = load %x, %z {padding = \"zero\", shape = [4]} : tile<float32, 4>\n"
      "  %b = exp %a : tile<float32, 4>\n"
      "  %c = mul %b, %b : tile<float32, 4>\n"
      "  %d = block_id {axis = 0} : tile<int32>\n"
      "  %e = add %d, %z : tile<int32>\n"
      "  print %e {format = \"{}\"}\n"
      "  yield\n"));
  EXPECT_EQ(out, func("%x: array<float32, 1>, %z: tile<int32>",
      "  %d = block_id {axis = 0} : tile<int32>\n"
      "  %e = add %d, %z : tile<int32>\n"
      "  print %e {format = \"{}\"}\n"
      "  yield\n"));
}

TEST(PassDce, KeepsEveryEffect) {
  const std::string in = func("%x: array<int32, 1>, %z: tile<int32>, %c: tile<bool>",
      "  %o = arange {n = 4} : tile<int32, 4>\n"
      "  %v = constant {dtype = int32, shape = [4], value = 1} : tile<int32, 4>\n"
      "  %a = atomic_max %x, %o, %v {has_mask = 0} : tile<int32, 4>\n"
      "  %b = atomic_cas %x, %o, %v, %v {has_mask = 0} : tile<int32, 4>\n"
      "  scatter %x, %o, %v {has_mask = 0}\n"
      "  store %x, %z, %v\n"
      "  assert %c {message = \"c\"}\n"
      "  print {format = \"done\"}\n"
      "  yield\n");
  EXPECT_EQ(run_pass(dce, in), ir::print(ir::parse(in)));
}

TEST(PassDce, RegionOps) {
  const std::string out = run_pass(dce, func("%x: array<int32, 1>, %n: tile<int32>",
      "  %z = constant {dtype = int32, value = 0} : tile<int32>\n"
      "  %one = constant {dtype = int32, value = 1} : tile<int32>\n"
      "  %pure = for %z, %n, %one, %z {\n"
      "  ^(%i: tile<int32>, %a: tile<int32>):\n"
      "    %a2 = add %a, %i : tile<int32>\n"
      "    yield %a2\n"
      "  } : tile<int32>\n"
      "  %w = while %z {\n"
      "  ^(%p: tile<int32>):\n"
      "    %go = lt %p, %n : tile<bool>\n"
      "    yield %go, %p\n"
      "  } {\n"
      "  ^(%q: tile<int32>):\n"
      "    %dead = mul %q, %q : tile<int32>\n"
      "    %t = expand_dims %q {axis = 0} : tile<int32, 1>\n"
      "    store %x, %q, %t\n"
      "    %q2 = add %q, %one : tile<int32>\n"
      "    yield %q2\n"
      "  } : tile<int32>\n"
      "  yield\n"));
  EXPECT_EQ(out, func("%x: array<int32, 1>, %n: tile<int32>",
      "  %z = constant {dtype = int32, value = 0} : tile<int32>\n"
      "  %one = constant {dtype = int32, value = 1} : tile<int32>\n"
      "  %w = while %z {\n"
      "  ^(%p: tile<int32>):\n"
      "    %go = lt %p, %n : tile<bool>\n"
      "    yield %go, %p\n"
      "  } {\n"
      "  ^(%q: tile<int32>):\n"
      "    %t = expand_dims %q {axis = 0} : tile<int32, 1>\n"
      "    store %x, %q, %t\n"
      "    %q2 = add %q, %one : tile<int32>\n"
      "    yield %q2\n"
      "  } : tile<int32>\n"
      "  yield\n"));
}

TEST(PassDce, UsedResultsKeepTheirRegionAlive) {
  const std::string in = func("%n: tile<int32>",
      "  %id = constant {dtype = int32, value = 0} : tile<int32>\n"
      "  %t = arange {n = 8} : tile<int32, 8>\n"
      "  %r = reduce %t, %id {axis = 0, keepdims = 0} {\n"
      "  ^(%a: tile<int32>, %b: tile<int32>):\n"
      "    %s = add %a, %b : tile<int32>\n"
      "    yield %s\n"
      "  } : tile<int32>\n"
      "  print %r {format = \"{}\"}\n"
      "  yield\n");
  EXPECT_EQ(run_pass(dce, in), ir::print(ir::parse(in)));
}

}  // namespace
}  // namespace tegula::passes
