// Tests of passes/licm: invariant pure ops leave for/while bodies; loads, effects and traps stay.
#include "tegula/passes/licm.hpp"

#include "pass_check.hpp"

namespace tegula::passes {
namespace {

using testing_util::func;
using testing_util::run_pass;

TEST(PassLicm, HoistsInvariantChains) {
  const std::string out = run_pass(licm, func("%n: tile<int32>, %m: tile<float32>",
      "  %z = constant {dtype = int32, value = 0} : tile<int32>\n"
      "  %one = constant {dtype = int32, value = 1} : tile<int32>\n"
      "  %r = for %z, %n, %one, %m {\n"
      "  ^(%i: tile<int32>, %a: tile<float32>):\n"
      "    %e = exp %m : tile<float32>\n"
      "    %e2 = mul %e, %e : tile<float32>\n"
      "    %fi = astype %i {dtype = float32} : tile<float32>\n"
      "    %s = add %a, %e2 : tile<float32>\n"
      "    %s2 = add %s, %fi : tile<float32>\n"
      "    yield %s2\n"
      "  } : tile<float32>\n"
      "  print %r {format = \"{}\"}\n"
      "  yield\n"));
  EXPECT_EQ(out, func("%n: tile<int32>, %m: tile<float32>",
      "  %z = constant {dtype = int32, value = 0} : tile<int32>\n"
      "  %one = constant {dtype = int32, value = 1} : tile<int32>\n"
      "  %e = exp %m : tile<float32>\n"
      "  %e2 = mul %e, %e : tile<float32>\n"
      "  %r = for %z, %n, %one, %m {\n"
      "  ^(%i: tile<int32>, %a: tile<float32>):\n"
      "    %fi = astype %i {dtype = float32} : tile<float32>\n"
      "    %s = add %a, %e2 : tile<float32>\n"
      "    %s2 = add %s, %fi : tile<float32>\n"
      "    yield %s2\n"
      "  } : tile<float32>\n"
      "  print %r {format = \"{}\"}\n"
      "  yield\n"));
}

TEST(PassLicm, KeepsLoadsEffectsTrapsAndNonLoops) {
  const std::string in = func("%x: array<int32, 1>, %n: tile<int32>, %d: tile<int32>, %c: tile<bool>",
      "  %z = constant {dtype = int32, value = 0} : tile<int32>\n"
      "  %one = constant {dtype = int32, value = 1} : tile<int32>\n"
      "  for %z, %n, %one {\n"
      "  ^(%i: tile<int32>):\n"
      "    %v = load %x, %z {padding = \"zero\", shape = [4]} : tile<int32, 4>\n"
      "    %q = floordiv %n, %d : tile<int32>\n"
      "    %m = mod %n, %d : tile<int32>\n"
      "    %qq = div %n, %d : tile<int32>\n"
      "    print %q, %m, %qq {format = \"{}{}{}\"}\n"
      "    store %x, %i, %v\n"
      "    yield\n"
      "  }\n"
      "  %r = if %c {\n"
      "    %s = mul %n, %n : tile<int32>\n"
      "    yield %s\n"
      "  } {\n"
      "    yield %n\n"
      "  } : tile<int32>\n"
      "  print %r {format = \"{}\"}\n"
      "  yield\n");
  EXPECT_EQ(run_pass(licm, in), ir::print(ir::parse(in)));
}

TEST(PassLicm, FloatDivisionIsHoisted) {
  const std::string out = run_pass(licm, func("%n: tile<int32>, %a: tile<float32>, %b: tile<float32>",
      "  %z = constant {dtype = int32, value = 0} : tile<int32>\n"
      "  for %z, %n, %n {\n"
      "  ^(%i: tile<int32>):\n"
      "    %q = div %a, %b : tile<float32>\n"
      "    print %q {format = \"{}\"}\n"
      "    yield\n"
      "  }\n"
      "  yield\n"));
  EXPECT_LT(out.find("%q = div"), out.find("for %z"));
}

TEST(PassLicm, NestsAndWhileLoops) {
  const std::string out = run_pass(licm, func("%n: tile<int32>",
      "  %z = constant {dtype = int32, value = 0} : tile<int32>\n"
      "  %w = while %z {\n"
      "  ^(%p: tile<int32>):\n"
      "    %lim = add %n, %n : tile<int32>\n"
      "    %go = lt %p, %lim : tile<bool>\n"
      "    yield %go, %p\n"
      "  } {\n"
      "  ^(%q: tile<int32>):\n"
      "    %r = for %z, %n, %n, %q {\n"
      "    ^(%i: tile<int32>, %a: tile<int32>):\n"
      "      %k = mul %n, %n : tile<int32>\n"
      "      %kq = add %k, %q : tile<int32>\n"
      "      %a2 = add %a, %kq : tile<int32>\n"
      "      yield %a2\n"
      "    } : tile<int32>\n"
      "    yield %r\n"
      "  } : tile<int32>\n"
      "  print %w {format = \"{}\"}\n"
      "  yield\n"));
  EXPECT_EQ(out, func("%n: tile<int32>",
      "  %z = constant {dtype = int32, value = 0} : tile<int32>\n"
      "  %lim = add %n, %n : tile<int32>\n"
      "  %k = mul %n, %n : tile<int32>\n"
      "  %w = while %z {\n"
      "  ^(%p: tile<int32>):\n"
      "    %go = lt %p, %lim : tile<bool>\n"
      "    yield %go, %p\n"
      "  } {\n"
      "  ^(%q: tile<int32>):\n"
      "    %kq = add %k, %q : tile<int32>\n"
      "    %r = for %z, %n, %n, %q {\n"
      "    ^(%i: tile<int32>, %a: tile<int32>):\n"
      "      %a2 = add %a, %kq : tile<int32>\n"
      "      yield %a2\n"
      "    } : tile<int32>\n"
      "    yield %r\n"
      "  } : tile<int32>\n"
      "  print %w {format = \"{}\"}\n"
      "  yield\n"));
}

}  // namespace
}  // namespace tegula::passes
