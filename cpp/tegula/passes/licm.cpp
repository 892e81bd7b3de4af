// licm: hoists pure, non-trapping, loop-invariant ops out of for/while bodies (innermost loops first).
#include "tegula/passes/licm.hpp"

#include "tegula/passes/effects.hpp"

namespace tegula::passes {
namespace {

class licm_rewriter {
 public:
  explicit licm_rewriter(const ir::function& f) : out_(f), inside_(f.values.size(), false) {}

  ir::function run() {
    out_.body.ops = rewrite(std::move(out_.body.ops));
    return std::move(out_);
  }

 private:
  void mark(const ir::region& r, bool v) {  // every value defined in r, at any depth
    for (ir::value_id a : r.args) inside_[std::size_t(a)] = v;
    for (const ir::op& o : r.ops) {
      for (ir::value_id x : o.results) inside_[std::size_t(x)] = v;
      for (const ir::region& inner : o.regions) mark(inner, v);
    }
  }

  bool hoistable(const ir::op& o) const {
    if (effect_of(o.kind) != effect::pure || may_trap(out_, o)) return false;
    for (ir::value_id v : o.operands)
      if (inside_[std::size_t(v)]) return false;
    return true;
  }

  // Returns `ops` with loops rewritten; invariants of a loop are placed just before it.
  std::vector<ir::op> rewrite(std::vector<ir::op> ops) {
    std::vector<ir::op> out;
    for (ir::op& o : ops) {
      for (ir::region& r : o.regions) r.ops = rewrite(std::move(r.ops));
      if (o.kind == ir::op_kind::for_ || o.kind == ir::op_kind::while_) {
        for (const ir::region& r : o.regions) mark(r, true);
        for (ir::region& r : o.regions) {
          std::vector<ir::op> stay;
          for (ir::op& inner : r.ops) {
            if (hoistable(inner)) {
              for (ir::value_id x : inner.results) inside_[std::size_t(x)] = false;  // now defined outside
              out.push_back(std::move(inner));
            } else {
              stay.push_back(std::move(inner));
            }
          }
          r.ops = std::move(stay);
        }
        for (const ir::region& r : o.regions) mark(r, false);
      }
      out.push_back(std::move(o));
    }
    return out;
  }

  ir::function out_;
  std::vector<bool> inside_;  // by value id: defined inside the loop being processed
};

}  // namespace

ir::function licm(const ir::function& f) { return licm_rewriter(f).run(); }

}  // namespace tegula::passes
