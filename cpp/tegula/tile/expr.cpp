// Expression trees of the C++ tile language (see expr.hpp). Operators on two static numbers fold here, with
// Python's rules, as the Python front end folds them; anything involving a tile becomes a node.
#include "tegula/tile/expr.hpp"

#include <cmath>

#include "tegula/support/error.hpp"

namespace tegula::tile {
namespace {

expr num(number n) {
  auto p = std::make_shared<node>();
  p->k = node::kind::number;
  p->num = n;
  return expr(p);
}

bool both_numbers(const expr& a, const expr& b) { return a.is_number() && b.is_number(); }

std::int64_t py_floordiv(std::int64_t a, std::int64_t b) {
  if (b == 0) fail(error_kind::invalid_argument, "integer division or modulo by zero (in a constant expression)");
  std::int64_t q = a / b;
  if ((a % b != 0) && ((a < 0) != (b < 0))) --q;
  return q;
}

// Python's result of a op b for two static numbers.
expr fold(const std::string& op, const number& a, const number& b) {
  const bool ints = a.is_int() && b.is_int();
  if (op == "add") return ints ? num(number::of(a.i + b.i)) : num(number::of(a.f + b.f));
  if (op == "sub") return ints ? num(number::of(a.i - b.i)) : num(number::of(a.f - b.f));
  if (op == "mul") return ints ? num(number::of(a.i * b.i)) : num(number::of(a.f * b.f));
  if (op == "div") {
    if (b.f == 0) fail(error_kind::invalid_argument, "division by zero (in a constant expression)");
    return num(number::of(a.f / b.f));
  }
  if (op == "floordiv") {
    if (ints) return num(number::of(py_floordiv(a.i, b.i)));
    if (b.f == 0) fail(error_kind::invalid_argument, "float floor division by zero (in a constant expression)");
    return num(number::of(std::floor(a.f / b.f)));
  }
  if (op == "mod") {
    if (ints) return num(number::of(a.i - b.i * py_floordiv(a.i, b.i)));
    if (b.f == 0) fail(error_kind::invalid_argument, "float modulo (in a constant expression)");
    return num(number::of(a.f - b.f * std::floor(a.f / b.f)));
  }
  if (op == "lt") return num(number::of(a.f < b.f));
  if (op == "le") return num(number::of(a.f <= b.f));
  if (op == "gt") return num(number::of(a.f > b.f));
  if (op == "ge") return num(number::of(a.f >= b.f));
  if (op == "eq") return num(number::of(ints ? a.i == b.i : a.f == b.f));
  if (op == "ne") return num(number::of(ints ? a.i != b.i : a.f != b.f));
  if (op == "and" || op == "or") {
    if (!ints) fail(error_kind::type_error, "& and | need integers or bools, not floats");
    std::int64_t r = op == "and" ? (a.i & b.i) : (a.i | b.i);
    if (a.k == number::kind::boolean && b.k == number::kind::boolean) return num(number::of(r != 0));
    return num(number::of(r));
  }
  fail(error_kind::internal, "no constant folding for '", op, "'");
}

expr binary(const std::string& op, const expr& a, const expr& b) {
  if (both_numbers(a, b)) return fold(op, a.as_number(), b.as_number());
  return op_expr(op, {a, b});
}

}  // namespace

expr::expr(bool v) : expr(num(number::of(v))) {}
expr::expr(int v) : expr(num(number::of(std::int64_t(v)))) {}
expr::expr(long v) : expr(num(number::of(std::int64_t(v)))) {}
expr::expr(long long v) : expr(num(number::of(std::int64_t(v)))) {}
expr::expr(unsigned v) : expr(num(number::of(std::int64_t(v)))) {}
expr::expr(double v) : expr(num(number::of(v))) {}

bool expr::is_number() const { return n_ && n_->k == node::kind::number; }

const number& expr::as_number() const {
  if (!is_number()) fail(error_kind::internal, "not a static number");
  return n_->num;
}

expr value_expr(ir::value_id id) {
  auto p = std::make_shared<node>();
  p->k = node::kind::value;
  p->id = id;
  p->emitted = id;
  return expr(p);
}

expr op_expr(std::string op, std::vector<expr> args) {
  auto p = std::make_shared<node>();
  p->k = node::kind::op;
  p->op = std::move(op);
  p->args = std::move(args);
  return expr(p);
}

expr expr::astype(ir::dtype to) const {
  expr e = op_expr("astype", {*this});
  e.get()->dtype = to;
  return e;
}

namespace {
expr reduction(const char* op, const expr& x, bool has_axis, std::int64_t axis, bool keepdims) {
  expr e = op_expr(op, {x});
  e.get()->ints = has_axis ? std::vector<std::int64_t>{axis} : std::vector<std::int64_t>{};
  e.get()->flag = keepdims;
  e.get()->text = has_axis ? "axis" : "";
  return e;
}
}  // namespace

expr expr::sum(std::int64_t axis, bool keepdims) const { return reduction("sum", *this, true, axis, keepdims); }
expr expr::sum() const { return reduction("sum", *this, false, 0, false); }
expr expr::max(std::int64_t axis, bool keepdims) const { return reduction("max", *this, true, axis, keepdims); }
expr expr::min(std::int64_t axis, bool keepdims) const { return reduction("min", *this, true, axis, keepdims); }

expr expr::reshape(std::vector<std::int64_t> shape) const {
  expr e = op_expr("reshape", {*this});
  e.get()->ints = std::move(shape);
  return e;
}

expr expr::transpose() const { return op_expr("transpose", {*this}); }

expr operator+(const expr& a, const expr& b) { return binary("add", a, b); }
expr operator-(const expr& a, const expr& b) { return binary("sub", a, b); }
expr operator*(const expr& a, const expr& b) { return binary("mul", a, b); }
expr operator/(const expr& a, const expr& b) { return binary("div", a, b); }
expr operator%(const expr& a, const expr& b) { return binary("mod", a, b); }
expr floordiv(const expr& a, const expr& b) { return binary("floordiv", a, b); }
expr operator<(const expr& a, const expr& b) { return binary("lt", a, b); }
expr operator<=(const expr& a, const expr& b) { return binary("le", a, b); }
expr operator>(const expr& a, const expr& b) { return binary("gt", a, b); }
expr operator>=(const expr& a, const expr& b) { return binary("ge", a, b); }
expr operator==(const expr& a, const expr& b) { return binary("eq", a, b); }
expr operator!=(const expr& a, const expr& b) { return binary("ne", a, b); }
expr operator&(const expr& a, const expr& b) { return binary("and", a, b); }
expr operator|(const expr& a, const expr& b) { return binary("or", a, b); }

expr operator-(const expr& a) {
  if (a.is_number()) {
    const number& n = a.as_number();
    return n.is_int() ? num(number::of(-n.i)) : num(number::of(-n.f));
  }
  return op_expr("neg", {a});
}

}  // namespace tegula::tile
