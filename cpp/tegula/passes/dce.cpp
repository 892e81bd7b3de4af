// dce: removes unused ops without side effects, recursively inside regions (a backward liveness walk).
#include "tegula/passes/dce.hpp"

#include "tegula/passes/effects.hpp"

namespace tegula::passes {
namespace {

class dce_rewriter {
 public:
  explicit dce_rewriter(const ir::function& f) : out_(f), live_(f.values.size(), false) {}

  ir::function run() {
    sweep(out_.body.ops);
    return std::move(out_);
  }

 private:
  bool needed(const ir::op& o) const {
    if (o.kind == ir::op_kind::yield || has_side_effects(o)) return true;
    for (ir::value_id v : o.results)
      if (live_[std::size_t(v)]) return true;
    return false;
  }

  // Walks backwards: an op is kept when something after it needs it; a kept op makes its operands
  // (and, through its regions, the values its body uses) live. Uses always follow definitions, so
  // one backward walk sees every use of a value before its definition.
  void sweep(std::vector<ir::op>& ops) {
    std::vector<ir::op> kept;
    for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
      if (!needed(*it)) continue;
      for (ir::region& r : it->regions) sweep(r.ops);
      for (ir::value_id v : it->operands) live_[std::size_t(v)] = true;
      kept.push_back(std::move(*it));
    }
    ops.assign(std::make_move_iterator(kept.rbegin()), std::make_move_iterator(kept.rend()));
  }

  ir::function out_;
  std::vector<bool> live_;  // by value id
};

}  // namespace

ir::function dce(const ir::function& f) { return dce_rewriter(f).run(); }

}  // namespace tegula::passes
