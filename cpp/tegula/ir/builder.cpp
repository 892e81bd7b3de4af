// The IR builder: appends ops to a function, inferring result types and checking operands.
#include "tegula/ir/builder.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "tegula/ir/infer.hpp"
#include "tegula/ir/op_traits.hpp"

namespace tegula::ir {
namespace {

// An int64 value wrapped to the width of integer dtype t (C conversion), in canonical form:
// sign-extended for signed types, zero-extended for unsigned (uint64: the bit pattern).
std::int64_t wrap_int(std::int64_t v, dtype t) {
  if (is_bool(t)) return v != 0;
  int bits = size_bits(t);
  if (bits == 64) return v;
  std::uint64_t u = std::uint64_t(v) & ((std::uint64_t(1) << bits) - 1);
  if (is_signed_int(t) && (u >> (bits - 1))) u |= ~((std::uint64_t(1) << bits) - 1);
  return std::int64_t(u);
}

}  // namespace

builder::builder(function& f) : f_(f) {}

value_id builder::add_param(const std::string& name, type t) {
  if (!t.is_array() && !t.is_scalar())
    error(error_kind::type_error, str("parameter '", name, "' must be an array or a scalar, got ", to_string(t)));
  value_id v = f_.new_value(std::move(t), name);
  f_.params.push_back({v, name});
  return v;
}

std::vector<op>& builder::current_ops() {
  if (stack_.empty()) return f_.body.ops;
  const open_region& r = stack_.back();
  return (*r.parent)[r.op_index].regions[std::size_t(r.region)].ops;
}

value_id builder::push(op o, std::vector<type> result_types) {
  for (auto& t : result_types) o.results.push_back(f_.new_value(std::move(t)));
  value_id first = o.results.empty() ? -1 : o.results.front();
  current_ops().push_back(std::move(o));
  return first;
}

void builder::error(error_kind kind, const std::string& message) const {
  throw tegula::error(kind, loc_.known() ? to_string(loc_) + ": " + message : message);
}

std::vector<value_id> builder::create(op_kind k, std::vector<value_id> operands,
                                      std::vector<std::pair<std::string, attribute>> attrs) {
  if (info(k).regions > 0 || k == op_kind::yield)
    error(error_kind::invalid_argument, str("'", info(k).text, "' is built with begin_/end_ calls, not create"));
  op o{k, {}, {}, {}, {}, loc_};
  for (auto& [n, a] : attrs) o.set_attr(n, std::move(a));
  std::vector<type> types;
  for (value_id v : operands) {
    if (v < 0 || std::size_t(v) >= f_.values.size())
      error(error_kind::invalid_argument, str(info(k).text, ": operand ", v, " is not a value of this function"));
    types.push_back(f_.type_of(v));
  }
  o.operands = std::move(operands);
  std::vector<type> results;
  try {
    results = infer_results(o, types);
  } catch (const tegula::error& e) {
    error(e.kind(), e.what());
  }
  std::size_t n = results.size();
  value_id first = push(std::move(o), std::move(results));
  std::vector<value_id> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(first + value_id(i));
  return out;
}

value_id builder::create1(op_kind k, std::vector<value_id> operands, std::vector<std::pair<std::string, attribute>> attrs) {
  auto r = create(k, std::move(operands), std::move(attrs));
  if (r.size() != 1) error(error_kind::internal, str(info(k).text, " has ", r.size(), " results, expected one"));
  return r[0];
}

value_id builder::constant(std::int64_t v, type t) {
  if (!t.is_tile()) error(error_kind::type_error, str("constant: ", to_string(t), " is not a tile type"));
  std::vector<std::pair<std::string, attribute>> attrs{{"dtype", t.elem}};
  if (!t.shape.empty()) attrs.push_back({"shape", t.shape});
  attrs.push_back({"value", is_float(t.elem) ? attribute(double(v)) : attribute(wrap_int(v, t.elem))});
  return create1(op_kind::constant, {}, std::move(attrs));
}

value_id builder::constant(double v, type t) {
  if (!t.is_tile()) error(error_kind::type_error, str("constant: ", to_string(t), " is not a tile type"));
  if (is_float(t.elem)) {
    std::vector<std::pair<std::string, attribute>> attrs{{"dtype", t.elem}, {"value", v}};
    if (!t.shape.empty()) attrs.push_back({"shape", t.shape});
    return create1(op_kind::constant, {}, std::move(attrs));
  }
  if (is_bool(t.elem)) return constant(std::int64_t(v != 0), t);
  // Float to integer truncates toward zero, as astype does; values outside int64 are an error.
  if (!(std::fabs(v) < 9.2233720368547758e18))
    error(error_kind::invalid_argument, str("constant: ", v, " cannot be converted to ", name(t.elem)));
  return constant(std::int64_t(v), t);
}

value_id builder::cast(value_id v, dtype to) {
  if (f_.type_of(v).elem == to) return v;
  return create1(op_kind::astype, {v}, {{"dtype", to}});
}

value_id builder::broadcast(value_id v, const std::vector<std::int64_t>& shape) {
  const type t = f_.type_of(v);
  if (!t.is_tile()) error(error_kind::type_error, str("cannot broadcast ", to_string(t)));
  if (t.shape == shape) return v;
  bool ok = shape.size() >= t.shape.size();
  for (std::size_t i = 0; ok && i < t.shape.size(); ++i) {
    std::int64_t from = t.shape[t.shape.size() - 1 - i];
    ok = from == 1 || from == shape[shape.size() - 1 - i];
  }
  if (!ok) error(error_kind::invalid_argument, str("cannot broadcast shape ", shape_string(t.shape), " to ", shape_string(shape)));
  for (std::size_t r = t.shape.size(); r < shape.size(); ++r)
    v = create1(op_kind::expand_dims, {v}, {{"axis", std::int64_t(0)}});
  if (f_.type_of(v).shape == shape) return v;
  return create1(op_kind::broadcast_to, {v}, {{"shape", shape}});
}

value_id builder::binary(op_kind k, value_id a, value_id b) {
  if (!is_elementwise_binary(k)) error(error_kind::invalid_argument, str("'", info(k).text, "' is not a binary elementwise op"));
  const type ta = f_.type_of(a), tb = f_.type_of(b);
  if (!ta.is_tile() || !tb.is_tile())
    error(error_kind::type_error, str(info(k).text, ": operands must be tiles, got ", to_string(ta), " and ", to_string(tb)));
  dtype r = promote(ta.elem, tb.elem);
  if (k == op_kind::div && !is_float(r)) r = dtype::f64;  // true division of integers and bools
  std::vector<std::int64_t> shape;
  try {
    shape = broadcast_shapes(ta.shape, tb.shape);
  } catch (const tegula::error& e) {
    error(e.kind(), str(info(k).text, ": ", e.what()));
  }
  a = broadcast(cast(a, r), shape);
  b = broadcast(cast(b, r), shape);
  return create1(k, {a, b});
}

value_id builder::weak_scalar(double v, bool integral, value_id like) {
  const type t = f_.type_of(like);
  if (!t.is_tile()) error(error_kind::type_error, str("a Python scalar cannot combine with ", to_string(t)));
  dtype d = t.elem;
  if (integral && is_bool(d)) d = dtype::i64;
  if (!integral && !is_float(d)) d = dtype::f64;
  if (integral && is_int(d)) {
    // NEP 50: a Python int that the weak dtype cannot hold is an error, not a wrap.
    bool fits;
    if (is_unsigned_int(d)) fits = v >= 0 && (size_bits(d) == 64 ? v < 18446744073709551616.0 : v < std::ldexp(1.0, size_bits(d)));
    else fits = v >= -std::ldexp(1.0, size_bits(d) - 1) && v < std::ldexp(1.0, size_bits(d) - 1);
    if (!fits) error(error_kind::invalid_argument, str("Python integer ", v, " out of bounds for ", name(d)));
    if (is_unsigned_int(d) && v >= 9223372036854775808.0) return constant(std::int64_t(std::uint64_t(v)), type::tile(d));
    return constant(std::int64_t(v), type::tile(d));
  }
  return constant(v, type::tile(d));
}

value_id builder::where(value_id cond, value_id a, value_id b) {
  const type tc = f_.type_of(cond), ta = f_.type_of(a), tb = f_.type_of(b);
  if (!tc.is_tile() || !ta.is_tile() || !tb.is_tile()) error(error_kind::type_error, "where: operands must be tiles");
  if (!is_bool(tc.elem)) cond = binary(op_kind::ne, cond, constant(std::int64_t(0), type::tile(tc.elem)));
  dtype r = promote(ta.elem, tb.elem);
  std::vector<std::int64_t> shape;
  try {
    shape = broadcast_shapes(broadcast_shapes(tc.shape, ta.shape), tb.shape);
  } catch (const tegula::error& e) {
    error(e.kind(), str("where: ", e.what()));
  }
  cond = broadcast(cond, shape);
  a = broadcast(cast(a, r), shape);
  b = broadcast(cast(b, r), shape);
  return create1(op_kind::where, {cond, a, b});
}

}  // namespace tegula::ir
