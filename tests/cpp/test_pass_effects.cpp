// Tests of passes/effects and passes/value_map: effect classes, recursive side effects, traps, replacement.
#include "tegula/passes/effects.hpp"

#include <gtest/gtest.h>

#include "tegula/ir/parser.hpp"
#include "tegula/passes/value_map.hpp"

namespace tegula::passes {
namespace {

using ir::op_kind;

TEST(PassEffects, Classes) {
  EXPECT_EQ(effect_of(op_kind::add), effect::pure);
  EXPECT_EQ(effect_of(op_kind::block_id), effect::pure);
  EXPECT_EQ(effect_of(op_kind::cumsum), effect::pure);
  EXPECT_EQ(effect_of(op_kind::load), effect::reads_memory);
  EXPECT_EQ(effect_of(op_kind::gather), effect::reads_memory);
  for (op_kind k : {op_kind::store, op_kind::scatter, op_kind::atomic_add, op_kind::atomic_cas, op_kind::print, op_kind::assert_})
    EXPECT_EQ(effect_of(k), effect::writes) << ir::info(k).text;
  for (op_kind k : {op_kind::for_, op_kind::if_, op_kind::while_, op_kind::reduce, op_kind::scan})
    EXPECT_EQ(effect_of(k), effect::regions) << ir::info(k).text;
  EXPECT_EQ(effect_of(op_kind::yield), effect::terminator);
}

TEST(PassEffects, SideEffectsLookInsideRegions) {
  ir::function f = ir::parse(
      "func @f(%c: tile<bool>, %n: tile<int32>) {\n"
      "  if %c { if %c { print %n {format = \"{}\"} yield } { yield } yield } { yield }\n"
      "  %r = if %c { %a = add %n, %n : tile<int32> yield %a } { yield %n } : tile<int32>\n"
      "  %q = div %n, %n : tile<int32>\n"
      "  %c2 = astype %n {dtype = float32} : tile<float32>\n"
      "  %d = div %c2, %c2 : tile<float32>\n"
      "  yield\n}");
  EXPECT_TRUE(has_side_effects(f.body.ops[0]));
  EXPECT_FALSE(has_side_effects(f.body.ops[1]));
  EXPECT_FALSE(has_side_effects(f.body.ops[2]));
  EXPECT_TRUE(may_trap(f, f.body.ops[2]));   // integer division by zero
  EXPECT_FALSE(may_trap(f, f.body.ops[4]));  // float division gives inf/nan
  EXPECT_FALSE(may_trap(f, f.body.ops[1]));
}

TEST(PassValueMap, FollowsChains) {
  value_map m(5);
  EXPECT_EQ(m(3), 3);
  m.replace(4, 2);
  m.replace(2, 0);
  EXPECT_EQ(m(4), 0);
  m.replace(99, 1);  // out of range: ignored
  EXPECT_EQ(m(99), 99);
  m.grow(7);
  EXPECT_EQ(m(6), 6);
  ir::op o{op_kind::add, {4, 3}, {}, {}, {}, {}};
  m.apply(o);
  EXPECT_EQ(o.operands, (std::vector<ir::value_id>{0, 3}));
}

}  // namespace
}  // namespace tegula::passes
