// Emission of structured control flow (for, if, while over uniform scalars) and combine regions.
// Every thread evaluates the same (uniform) conditions, so block-wide barriers inside stay legal.
#include <algorithm>

#include "tegula/codegen/c_types.hpp"
#include "tegula/codegen/emitter.hpp"
#include "tegula/support/error.hpp"

namespace tegula::codegen {
namespace {

// The value of a scalar constant defined in `r` (searched recursively), if `v` is one.
const ir::op* defining_constant(const ir::region& r, ir::value_id v) {
  for (const ir::op& o : r.ops) {
    if (o.kind == ir::op_kind::constant && !o.results.empty() && o.results[0] == v) return &o;
    for (const ir::region& inner : o.regions)
      if (const ir::op* c = defining_constant(inner, v)) return c;
  }
  return nullptr;
}

}  // namespace

std::string emitter::for_header(const ir::op& o, const std::string& it) {
  const ir::value_id iv = o.regions.at(0).args.at(0);
  const std::string IV = reg_type(dtype_of(iv));
  auto bound = [&](int i) { return cvt(dtype_of(o.operands[std::size_t(i)]), dtype_of(iv), name(o.operands[std::size_t(i)])); };
  // A constant step fixes the direction; otherwise it is tested at run time (Python's range).
  std::string cond = str("(", bound(2), " > 0) ? (", it, " < ", bound(1), ") : (", it, " > ", bound(1), ")");
  if (const ir::op* c = defining_constant(f_.body, o.operands[2])) {
    const ir::attribute* a = c->attr("value");
    double s = 0;
    if (a && std::holds_alternative<std::int64_t>(*a)) s = double(std::get<std::int64_t>(*a));
    else if (a && std::holds_alternative<double>(*a)) s = std::get<double>(*a);
    if (s > 0) cond = str(it, " < ", bound(1));
    else if (s < 0) cond = str(it, " > ", bound(1));
  }
  return str("for (", IV, " ", it, " = ", bound(0), "; ", cond, "; ", it, " += ", bound(2), ")");
}

void emitter::emit_for(const ir::op& o) {
  if (o.operands.size() < 3 || o.regions.size() != 1) unsupported(o, "for takes lb, ub, step and one region");
  const ir::region& body = o.regions[0];
  const std::size_t carried = o.operands.size() - 3;
  if (body.args.size() != carried + 1 || o.results.size() != carried)
    unsupported(o, "its region arguments and results do not match the carried values");
  for (int i = 0; i < 3; ++i)
    if (!layout(o.operands[std::size_t(i)]).replicated) unsupported(o, "its bounds and step must be scalars");
  const ir::value_id iv = body.args[0];
  const std::string IV = reg_type(dtype_of(iv));
  const std::string it = fresh("it");
  for (std::size_t i = 0; i < carried; ++i) {
    declare(o.results[i]);
    assign(o.results[i], o.operands[3 + i]);
  }
  open(for_header(o, it));
  line(str(IV, " ", name(iv), " = ", it, ";"));
  for (std::size_t i = 0; i < carried; ++i) {
    declare(body.args[i + 1]);
    assign(body.args[i + 1], o.results[i]);
  }
  emit_region(body, [&](const ir::op& y) {
    if (y.operands.size() != carried) unsupported(o, "its region yields a different number of values than it carries");
    for (std::size_t i = 0; i < carried; ++i) assign(o.results[i], y.operands[i]);
  });
  close();
}

void emitter::emit_if(const ir::op& o) {
  if (o.operands.size() != 1 || o.regions.size() != 2) unsupported(o, "if takes one condition and two regions");
  const ir::value_id c = o.operands[0];
  if (!layout(c).replicated) unsupported(o, "its condition must be a scalar");
  for (ir::value_id r : o.results) declare(r, true);
  auto yield_to_results = [&](const ir::op& y) {
    if (y.operands.size() != o.results.size()) unsupported(o, "a branch yields a different number of values than the if has results");
    for (std::size_t i = 0; i < o.results.size(); ++i) assign(o.results[i], y.operands[i]);
  };
  open(str("if (", cvt(dtype_of(c), ir::dtype::b1, name(c)), ")"));
  emit_region(o.regions[0], yield_to_results);
  if (!o.regions[1].ops.empty()) {
    otherwise();
    emit_region(o.regions[1], yield_to_results);
  }
  close();
}

void emitter::emit_while(const ir::op& o) {
  if (o.regions.size() != 2) unsupported(o, "while takes a before and an after region");
  const ir::region& before = o.regions[0];
  const ir::region& after = o.regions[1];
  if (before.args.size() != o.operands.size()) unsupported(o, "its before-region arguments do not match its operands");
  if (after.args.size() != o.results.size()) unsupported(o, "its after-region arguments do not match its results");
  // The before-region arguments are the loop's carried variables.
  for (std::size_t i = 0; i < o.operands.size(); ++i) {
    declare(before.args[i]);
    assign(before.args[i], o.operands[i]);
  }
  for (ir::value_id r : o.results) declare(r, true);
  open("while (true)");
  emit_region(before, [&](const ir::op& y) {
    if (y.operands.size() != o.results.size() + 1) unsupported(o, "its before region must yield a condition and the forwarded values");
    const ir::value_id c = y.operands[0];
    if (!layout(c).replicated) unsupported(o, "its condition must be a scalar");
    open(str("if (!", cvt(dtype_of(c), ir::dtype::b1, name(c)), ")"));
    for (std::size_t i = 0; i < o.results.size(); ++i) assign(o.results[i], y.operands[i + 1]);
    line("break;");
    close();
    for (std::size_t i = 0; i < after.args.size(); ++i) {
      declare(after.args[i]);
      assign(after.args[i], y.operands[i + 1]);
    }
  });
  emit_region(after, [&](const ir::op& y) {
    if (y.operands.size() != before.args.size()) unsupported(o, "its after region yields a different number of values than it carries");
    // Through temporaries when a yielded value is itself a carried variable (no clobbering).
    bool alias = false;
    for (ir::value_id v : y.operands) alias = alias || std::count(before.args.begin(), before.args.end(), v) > 0;
    if (!alias) {
      for (std::size_t i = 0; i < before.args.size(); ++i) assign(before.args[i], y.operands[i]);
      return;
    }
    std::vector<std::string> tmp;
    for (std::size_t i = 0; i < before.args.size(); ++i) {
      tile_layout l = layout(y.operands[i]);
      std::string t = fresh("next");
      tmp.push_back(t);
      if (l.replicated) {
        line(str(reg_type(dtype_of(y.operands[i])), " ", t, " = ", name(y.operands[i]), ";"));
      } else {
        line(str(reg_type(dtype_of(y.operands[i])), " ", t, "[", l.slots(), "];"));
        line(str("for (int i_ = 0; i_ < ", l.slots(), "; ++i_) ", t, "[i_] = ", name(y.operands[i]), "[i_];"));
      }
    }
    for (std::size_t i = 0; i < before.args.size(); ++i) {
      tile_layout l = layout(before.args[i]);
      if (l.replicated) line(str(name(before.args[i]), " = ", tmp[i], ";"));
      else line(str("for (int i_ = 0; i_ < ", l.slots(), "; ++i_) ", name(before.args[i]), "[i_] = ", tmp[i], "[i_];"));
    }
  });
  close();
}

std::string emitter::emit_combine_lambda(const ir::op& o, ir::dtype t) {
  if (o.regions.size() != 1 || o.regions[0].args.size() != 2) unsupported(o, "its combine region must take (acc, x)");
  const ir::region& r = o.regions[0];
  for (ir::value_id a : r.args)
    if (!layout(a).replicated) unsupported(o, "its combine region's arguments must be scalars");
  const std::string R = reg_type(t), n = fresh("combine");
  open(str("auto ", n, " = [&](const ", reg_type(dtype_of(r.args[0])), " ", name(r.args[0]), ", const ",
           reg_type(dtype_of(r.args[1])), " ", name(r.args[1]), ") -> ", R));
  ++lambda_depth_;
  emit_region(r, [&](const ir::op& y) {
    if (y.operands.size() != 1) unsupported(o, "its combine region must yield one value");
    line(str("return ", cvt(dtype_of(y.operands[0]), t, name(y.operands[0])), ";"));
  });
  --lambda_depth_;
  close(";");
  return n;
}

}  // namespace tegula::codegen
