// canonicalize: folds constant arithmetic on scalar/splat constants and removes no-op ops.
#include "tegula/passes/canonicalize.hpp"

#include <cmath>
#include <optional>

#include "tegula/ir/op_traits.hpp"
#include "tegula/passes/fold.hpp"
#include "tegula/passes/value_map.hpp"

namespace tegula::passes {
namespace {

using ir::op_kind;

bool is_identity_perm(const std::vector<std::int64_t>& p) {
  for (std::size_t i = 0; i < p.size(); ++i)
    if (p[i] != std::int64_t(i)) return false;
  return true;
}

class canonicalizer {
 public:
  explicit canonicalizer(const ir::function& f) : out_(f), map_(f.values.size()), const_(f.values.size()) {}

  ir::function run() {
    out_.body.ops = rewrite(out_.body.ops);
    return std::move(out_);
  }

 private:
  const ir::type& type_of(ir::value_id v) const { return out_.type_of(v); }
  const std::optional<ir::attribute>& known(ir::value_id v) const { return const_[std::size_t(v)]; }

  ir::op make_constant(const ir::op& from, ir::attribute value) {
    const ir::value_id r = from.results[0];
    const ir::type& t = type_of(r);
    ir::op c{op_kind::constant, {}, {r}, {}, {}, from.loc};
    c.set_attr("dtype", t.elem);
    if (!t.shape.empty()) c.set_attr("shape", t.shape);
    c.set_attr("value", value);
    const_[std::size_t(r)] = std::move(value);
    return c;
  }

  // The op with its uses rewritten, or nothing when it is replaced by an existing value.
  std::vector<ir::op> rewrite(const std::vector<ir::op>& ops) {
    std::vector<ir::op> out;
    for (const ir::op& in : ops) {
      ir::op o = in;
      map_.apply(o);
      for (ir::region& r : o.regions) r.ops = rewrite(r.ops);
      simplify(std::move(o), out);
    }
    return out;
  }

  void simplify(ir::op o, std::vector<ir::op>& out) {
    const auto operand_is = [&](std::size_t i) { return i < o.operands.size() && known(o.operands[i]); };
    switch (o.kind) {
      case op_kind::constant: {
        const ir::value_id r = o.results[0];
        const ir::attribute* a = o.attr("value");
        const ir::dtype t = type_of(r).elem;
        if (a && ir::is_float(t) && std::holds_alternative<std::int64_t>(*a)) {
          if (auto d = read_constant(*a, t)) o.set_attr("value", *d);  // float constants hold doubles
          a = o.attr("value");
        }
        if (a) const_[std::size_t(r)] = read_constant(*a, t);
        out.push_back(std::move(o));
        return;
      }
      case op_kind::astype:
      case op_kind::broadcast_to:
      case op_kind::reshape:
        if (type_of(o.results[0]) == type_of(o.operands[0])) return map_.replace(o.results[0], o.operands[0]);
        break;
      case op_kind::permute:
        if (is_identity_perm(o.ints_attr("perm"))) return map_.replace(o.results[0], o.operands[0]);
        break;
      case op_kind::where:
        if (operand_is(0)) return map_.replace(o.results[0], o.operands[std::get<std::int64_t>(*known(o.operands[0])) ? 1 : 2]);
        break;
      case op_kind::if_:
        if (operand_is(0)) return inline_region(o, std::get<std::int64_t>(*known(o.operands[0])) ? 0 : 1, out);
        break;
      case op_kind::for_:
        if (operand_is(0) && operand_is(1) && operand_is(2) && type_of(o.operands[0]).elem != ir::dtype::u64) {
          const auto lb = std::get<std::int64_t>(*known(o.operands[0])), ub = std::get<std::int64_t>(*known(o.operands[1])),
                     st = std::get<std::int64_t>(*known(o.operands[2]));
          if (st > 0 && lb >= ub) {  // runs zero times: the results are the initial values
            for (std::size_t i = 0; i < o.results.size(); ++i) map_.replace(o.results[i], o.operands[3 + i]);
            return;
          }
        }
        break;
      case op_kind::add: case op_kind::sub: case op_kind::mul: case op_kind::div:
        if (auto kept = identity_operand(o)) return map_.replace(o.results[0], *kept);
        break;
      default: break;
    }
    // Shape ops and extremes of a splat are the same splat in the result's shape.
    if ((o.kind == op_kind::expand_dims || o.kind == op_kind::broadcast_to || o.kind == op_kind::reshape ||
         o.kind == op_kind::permute || o.kind == op_kind::reduce_max || o.kind == op_kind::reduce_min) && operand_is(0)) {
      out.push_back(make_constant(o, *known(o.operands[0])));
      return;
    }
    if ((o.kind == op_kind::argmax || o.kind == op_kind::argmin) && operand_is(0)) {
      out.push_back(make_constant(o, std::int64_t(0)));  // the first index of a splat's extreme
      return;
    }
    // fold() keeps only the elementwise ops every target computes exactly (fold.cpp's foldable).
    if (ir::is_elementwise(o.kind) && o.results.size() == 1) {
      std::vector<ir::dtype> dtypes;
      std::vector<ir::attribute> values;
      for (std::size_t i = 0; i < o.operands.size(); ++i) {
        if (!operand_is(i)) break;
        dtypes.push_back(type_of(o.operands[i]).elem);
        values.push_back(*known(o.operands[i]));
      }
      if (values.size() == o.operands.size())
        if (auto v = fold(o, dtypes, values, type_of(o.results[0]).elem)) {
          out.push_back(make_constant(o, *v));
          return;
        }
    }
    out.push_back(std::move(o));
  }

  // x + 0, 0 + x, x - 0, x * 1, 1 * x, x / 1 -> x, where that is exact: integers always; floats
  // for * 1, / 1 and - 0 (x + 0.0 is not: -0.0 + 0.0 is +0.0). Only when the result has x's type
  // (no broadcast, no promotion).
  std::optional<ir::value_id> identity_operand(const ir::op& o) const {
    const ir::type& rt = type_of(o.results[0]);
    const bool fl = ir::is_float(rt.elem);
    auto is_value = [&](std::size_t i, std::int64_t want) {
      const auto& k = known(o.operands[i]);
      if (!k) return false;
      if (const auto* d = std::get_if<double>(&*k)) return *d == double(want) && !(want == 0 && std::signbit(*d));
      if (const auto* n = std::get_if<std::int64_t>(&*k)) return *n == want;
      return false;
    };
    auto keep = [&](std::size_t i) -> std::optional<ir::value_id> {
      if (type_of(o.operands[i]) != rt) return std::nullopt;
      return o.operands[i];
    };
    switch (o.kind) {
      case op_kind::add:
        if (fl) return std::nullopt;
        if (is_value(1, 0)) return keep(0);
        if (is_value(0, 0)) return keep(1);
        return std::nullopt;
      case op_kind::sub: return is_value(1, 0) ? keep(0) : std::nullopt;
      case op_kind::mul:
        if (is_value(1, 1)) return keep(0);
        if (is_value(0, 1)) return keep(1);
        return std::nullopt;
      case op_kind::div: return fl && is_value(1, 1) ? keep(0) : std::nullopt;  // int div is C division: also exact, but rare
      default: return std::nullopt;
    }
  }

  // Replaces an op by the (already rewritten) ops of one of its regions; results take the yield's values.
  void inline_region(ir::op& o, std::size_t which, std::vector<ir::op>& out) {
    std::vector<ir::op>& ops = o.regions[which].ops;
    const std::vector<ir::value_id> yielded = ops.back().operands;
    for (std::size_t i = 0; i + 1 < ops.size(); ++i) out.push_back(std::move(ops[i]));
    for (std::size_t i = 0; i < o.results.size() && i < yielded.size(); ++i) map_.replace(o.results[i], yielded[i]);
  }

  ir::function out_;
  value_map map_;
  std::vector<std::optional<ir::attribute>> const_;  // by value id: the splat value of a known constant
};

}  // namespace

ir::function canonicalize(const ir::function& f) { return canonicalizer(f).run(); }

}  // namespace tegula::passes
