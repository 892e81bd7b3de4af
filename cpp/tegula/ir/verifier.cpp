// The tile IR verifier: SSA scoping, op arity, inferred result types and region structure.
#include "tegula/ir/verifier.hpp"

#include "tegula/ir/infer.hpp"
#include "tegula/ir/op_traits.hpp"
#include "tegula/ir/printer.hpp"
#include "tegula/support/error.hpp"

#pragma GCC diagnostic error "-Wswitch"

namespace tegula::ir {
namespace {

std::string types_string(const std::vector<type>& ts) {
  std::string s;
  for (std::size_t i = 0; i < ts.size(); ++i) s += (i ? ", " : "") + to_string(ts[i]);
  return "(" + s + ")";
}

class verifier {
 public:
  explicit verifier(const function& f) : f_(f), state_(f.values.size(), unseen) {}

  void run() {
    scopes_.emplace_back();
    for (const param& p : f_.params) {
      if (p.value < 0 || std::size_t(p.value) >= f_.values.size())
        fail_at(f_.loc, str("parameter '", p.name, "' has no value (id ", p.value, ")"));
      const type& t = f_.type_of(p.value);
      if (is_complex(t.elem))
        fail_at(f_.loc, str("parameter '", p.name, "' is ", name(t.elem), ": tile kernels have no complex values ",
                            "(pass the real and imaginary parts as float arrays)"));
      if (!t.is_array() && !t.is_scalar())
        fail_at(f_.loc, str("parameter ", print_value(f_, p.value), " must be an array or a scalar, got ", to_string(t)));
      if (state_[std::size_t(p.value)] != unseen) fail_at(f_.loc, str("parameter ", print_value(f_, p.value), " is listed twice"));
      state_[std::size_t(p.value)] = in_scope;
    }
    std::vector<type> yielded = walk(nullptr, f_.body, {});
    if (!yielded.empty()) bad(f_.body.ops.back(), str("the function body must yield nothing, yields ", types_string(yielded)));
  }

 private:
  enum : char { unseen, in_scope, out_of_scope };

  [[noreturn]] void fail_at(const location& l, const std::string& message) const {
    fail(error_kind::invalid_argument, l.known() ? to_string(l) + ": " : std::string(), message);
  }
  [[noreturn]] void bad(const op& o, const std::string& message) const {
    std::string text = std::size_t(o.kind) < op_count ? print_op(f_, o) : "<invalid op kind>";
    fail(error_kind::invalid_argument, o.loc.known() ? to_string(o.loc) + ": " : std::string(), message, "\n  in: ", text);
  }
  std::string opname(const op& o) const { return info(o.kind).text; }

  const type& type_of(const op& o, value_id v) const {
    if (v < 0 || std::size_t(v) >= f_.values.size()) bad(o, str(opname(o), ": value id ", v, " is out of range"));
    return f_.type_of(v);
  }
  void define(const op& o, value_id v) {
    const type& t = type_of(o, v);
    if (state_[std::size_t(v)] != unseen) bad(o, str(opname(o), ": value ", print_value(f_, v), " is defined twice"));
    if (is_complex(t.elem)) bad(o, str(opname(o), ": tile kernels have no complex values (", name(t.elem), ")"));
    for (auto d : t.shape)
      if (t.is_tile() && d <= 0) bad(o, str(opname(o), ": ", print_value(f_, v), " has type ", to_string(t), " with a non-positive extent"));
    state_[std::size_t(v)] = in_scope;
    scopes_.back().push_back(v);
  }
  void use(const op& o, value_id v) {
    type_of(o, v);
    if (state_[std::size_t(v)] == unseen) bad(o, str(opname(o), ": uses ", print_value(f_, v), " before its definition"));
    if (state_[std::size_t(v)] == out_of_scope)
      bad(o, str(opname(o), ": uses ", print_value(f_, v), " outside the region that defines it"));
  }
  std::vector<type> types(const op& o, const std::vector<value_id>& vs) const {
    std::vector<type> t;
    for (value_id v : vs) t.push_back(type_of(o, v));
    return t;
  }

  // Checks a region's ops with `args` of the expected types in scope; returns the yielded types.
  std::vector<type> walk(const op* owner, const region& r, const std::vector<type>& expected_args) {
    if (!owner && !r.args.empty()) fail_at(f_.loc, "the function body must have no region arguments");
    if (owner && r.args.size() != expected_args.size())
      bad(*owner, str(opname(*owner), ": region has ", r.args.size(), " arguments, expected ", expected_args.size()));
    scopes_.emplace_back();
    for (std::size_t i = 0; i < r.args.size(); ++i) {
      define(*owner, r.args[i]);
      if (f_.type_of(r.args[i]) != expected_args[i])
        bad(*owner, str(opname(*owner), ": region argument ", print_value(f_, r.args[i]), " has type ", to_string(f_.type_of(r.args[i])),
                        ", expected ", to_string(expected_args[i])));
    }
    if (r.ops.empty() || r.ops.back().kind != op_kind::yield) {
      if (!owner) fail_at(f_.loc, "the function body does not end with yield");
      bad(*owner, str(opname(*owner), ": region does not end with yield"));
    }
    for (std::size_t i = 0; i < r.ops.size(); ++i) {
      if (r.ops[i].kind == op_kind::yield && i + 1 != r.ops.size()) bad(r.ops[i], "yield must be the last op of its region");
      check(r.ops[i]);
    }
    std::vector<type> yielded = types(r.ops.back(), r.ops.back().operands);
    for (value_id v : scopes_.back()) state_[std::size_t(v)] = out_of_scope;
    scopes_.pop_back();
    return yielded;
  }

  void expect_types(const op& o, const std::vector<type>& got, const std::vector<type>& want, const char* what) const {
    if (got != want) bad(o, str(opname(o), ": ", what, " ", types_string(got), ", expected ", types_string(want)));
  }

  void check(const op& o) {
    if (std::size_t(o.kind) >= op_count) bad(o, str("invalid op kind ", int(o.kind)));
    const op_info& in = info(o.kind);
    if (in.operands >= 0 && o.operands.size() != std::size_t(in.operands))
      bad(o, str(opname(o), ": expected ", in.operands, " operands, got ", o.operands.size()));
    if (in.results >= 0 && o.results.size() != std::size_t(in.results))
      bad(o, str(opname(o), ": expected ", in.results, " results, got ", o.results.size()));
    if (o.regions.size() != std::size_t(in.regions))
      bad(o, str(opname(o), ": expected ", in.regions, " regions, got ", o.regions.size()));
    for (value_id v : o.operands) use(o, v);
    const std::vector<type> operands = types(o, o.operands);
    switch (o.kind) {
      case op_kind::for_: check_for(o, operands); break;
      case op_kind::if_: check_if(o, operands); break;
      case op_kind::while_: check_while(o, operands); break;
      case op_kind::reduce:
      case op_kind::scan: check_reduce(o, operands); break;
      case op_kind::yield: break;  // its types are checked by the op that owns the region
      default: {
        std::vector<type> want;
        try {
          want = infer_results(o, operands);
        } catch (const tegula::error& e) {
          bad(o, e.what());
        }
        expect_types(o, types(o, o.results), want, "result types");
      }
    }
    for (value_id v : o.results) define(o, v);
  }

  void check_for(const op& o, const std::vector<type>& in) {
    if (in.size() < 3) bad(o, "for: expected lb, ub, step and the carried values");
    if (!in[0].is_scalar() || !is_int(in[0].elem) || in[1] != in[0] || in[2] != in[0])
      bad(o, str("for: lb, ub and step must be integer scalars of one dtype, got ", types_string({in[0], in[1], in[2]})));
    std::vector<type> init(in.begin() + 3, in.end());
    for (const type& t : init)
      if (!t.is_tile()) bad(o, str("for: carried values must be tiles, got ", to_string(t)));
    std::vector<type> args{in[0]};
    args.insert(args.end(), init.begin(), init.end());
    expect_types(o, walk(&o, o.regions[0], args), init, "the body yields");
    expect_types(o, types(o, o.results), init, "result types");
  }

  void check_if(const op& o, const std::vector<type>& in) {
    if (in.size() != 1 || in[0] != type::tile(dtype::b1)) bad(o, str("if: expected one bool scalar condition, got ", types_string(in)));
    std::vector<type> then_types = walk(&o, o.regions[0], {});
    expect_types(o, walk(&o, o.regions[1], {}), then_types, "the else branch yields");
    expect_types(o, types(o, o.results), then_types, "result types");
  }

  void check_while(const op& o, const std::vector<type>& init) {
    for (const type& t : init)
      if (!t.is_tile()) bad(o, str("while: carried values must be tiles, got ", to_string(t)));
    std::vector<type> before = walk(&o, o.regions[0], init);
    if (before.empty() || before[0] != type::tile(dtype::b1))
      bad(o, str("while: the before region must yield a bool scalar condition first, yields ", types_string(before)));
    std::vector<type> forwarded(before.begin() + 1, before.end());
    expect_types(o, walk(&o, o.regions[1], forwarded), init, "the after region yields");
    expect_types(o, types(o, o.results), forwarded, "result types");
  }

  void check_reduce(const op& o, const std::vector<type>& in) {
    const char* name = info(o.kind).text;
    const type& t = in[0];
    if (!t.is_tile() || t.rank() < 1) bad(o, str(name, ": input must be a tile of rank >= 1, got ", to_string(t)));
    const type scalar = type::tile(t.elem);
    if (in[1] != scalar) bad(o, str(name, ": identity ", to_string(in[1]), " must be ", to_string(scalar)));
    const attribute* axis = o.attr("axis");
    if (!axis || !std::holds_alternative<std::int64_t>(*axis)) bad(o, str(name, ": missing int attribute 'axis'"));
    auto a = normalize_axis(std::get<std::int64_t>(*axis), t.rank());
    if (!a) bad(o, str(name, ": axis ", std::get<std::int64_t>(*axis), " is out of range for rank ", t.rank()));
    const char* flag_name = o.kind == op_kind::reduce ? "keepdims" : "reverse";
    const attribute* flag = o.attr(flag_name);
    if (!flag || !std::holds_alternative<std::int64_t>(*flag) || (std::get<std::int64_t>(*flag) != 0 && std::get<std::int64_t>(*flag) != 1))
      bad(o, str(name, ": attribute '", flag_name, "' must be 0 or 1"));
    expect_types(o, walk(&o, o.regions[0], {scalar, scalar}), {scalar}, "the combiner yields");
    type result = t;
    if (o.kind == op_kind::reduce) result.shape = reduced_shape(t.shape, *a, std::get<std::int64_t>(*flag) == 1);
    expect_types(o, types(o, o.results), {result}, "result types");
  }

  const function& f_;
  std::vector<char> state_;                     // by value id: unseen, in scope, or out of scope
  std::vector<std::vector<value_id>> scopes_;   // values defined in each open region
};

}  // namespace

void verify(const function& f) { verifier(f).run(); }

}  // namespace tegula::ir
