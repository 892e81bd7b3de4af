// cse: merges pure ops equal to one that dominates them (same kind, operands, attributes, types).
#include "tegula/passes/cse.hpp"

#include <map>
#include <string>

#include "tegula/ir/printer.hpp"
#include "tegula/passes/effects.hpp"
#include "tegula/passes/value_map.hpp"

namespace tegula::passes {
namespace {

class cse_rewriter {
 public:
  explicit cse_rewriter(const ir::function& f) : out_(f), map_(f.values.size()) {}

  ir::function run() {
    out_.body.ops = rewrite(out_.body.ops);
    return std::move(out_);
  }

 private:
  // Equal keys mean equal results: operands are value ids after replacement, attributes print
  // exactly (floats round-trip, so -0.0 and 0.0 differ), and result types are included.
  std::string key(const ir::op& o) const {
    std::string k = std::to_string(int(o.kind)) + "(";
    for (ir::value_id v : o.operands) k += std::to_string(v) + ",";
    k += "){";
    for (const auto& [n, a] : o.attrs) k += n + "=" + ir::print_attribute(a) + ",";
    k += "}:";
    for (ir::value_id v : o.results) k += ir::to_string(out_.type_of(v)) + ",";
    return k;
  }

  const std::vector<ir::value_id>* lookup(const std::string& k) const {
    for (auto s = scopes_.rbegin(); s != scopes_.rend(); ++s)
      if (auto it = s->find(k); it != s->end()) return &it->second;
    return nullptr;
  }

  std::vector<ir::op> rewrite(const std::vector<ir::op>& ops) {
    scopes_.emplace_back();
    std::vector<ir::op> out;
    for (const ir::op& in : ops) {
      ir::op o = in;
      map_.apply(o);
      for (ir::region& r : o.regions) r.ops = rewrite(r.ops);
      if (effect_of(o.kind) == effect::pure) {
        std::string k = key(o);
        if (const std::vector<ir::value_id>* earlier = lookup(k)) {
          for (std::size_t i = 0; i < o.results.size(); ++i) map_.replace(o.results[i], (*earlier)[i]);
          continue;
        }
        scopes_.back().emplace(std::move(k), o.results);
      }
      out.push_back(std::move(o));
    }
    scopes_.pop_back();
    return out;
  }

  ir::function out_;
  value_map map_;
  std::vector<std::map<std::string, std::vector<ir::value_id>>> scopes_;  // one per open region
};

}  // namespace

ir::function cse(const ir::function& f) { return cse_rewriter(f).run(); }

}  // namespace tegula::passes
