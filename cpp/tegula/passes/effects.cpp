// What each op may do besides computing its results: the facts CSE, DCE and LICM rely on.
#include "tegula/passes/effects.hpp"

#pragma GCC diagnostic error "-Wswitch"

namespace tegula::passes {

bool has_side_effects(const ir::op& o) {
  switch (effect_of(o.kind)) {
    case effect::writes: return true;
    case effect::regions:
      for (const ir::region& r : o.regions)
        for (const ir::op& inner : r.ops)
          if (has_side_effects(inner)) return true;
      return false;
    case effect::pure: case effect::reads_memory: case effect::terminator: return false;
  }
  return true;
}

bool may_trap(const ir::function& f, const ir::op& o) {
  bool divides = o.kind == ir::op_kind::div || o.kind == ir::op_kind::floordiv || o.kind == ir::op_kind::mod;
  return divides && !o.operands.empty() && !ir::is_float(f.type_of(o.operands[0]).elem);
}

}  // namespace tegula::passes
