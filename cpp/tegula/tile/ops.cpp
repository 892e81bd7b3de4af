// The tt:: operations and statements of the C++ tile language (see ops.hpp).
#include "tegula/tile/ops.hpp"

#include "tegula/support/error.hpp"
#include "tegula/tile/emitter.hpp"

namespace tegula::tile {
namespace {

expr unary_node(const char* op, const expr& x) { return op_expr(op, {x}); }

expr with_axis(expr e, std::int64_t axis, bool flag = false) {
  e.get()->axis = axis;
  e.get()->flag = flag;
  return e;
}

expr reduction(const char* op, const expr& x, bool has_axis, std::int64_t axis, bool keepdims) {
  expr e = op_expr(op, {x});
  if (has_axis) e.get()->ints = {axis};
  e.get()->text = has_axis ? "axis" : "";
  e.get()->flag = keepdims;
  return e;
}

void check_shape(const shape_t& shape, const char* what) {
  for (auto s : shape)
    if (s <= 0) fail(error_kind::invalid_argument, what, " must be positive constant extents");
}

}  // namespace

expr bid(std::int64_t axis) { return with_axis(op_expr("bid", {}), axis); }
expr num_blocks(std::int64_t axis) { return with_axis(op_expr("num_blocks", {}), axis); }

expr num_tiles(const array& a, std::int64_t axis, shape_t tile_shape) {
  check_shape(tile_shape, "num_tiles' tile shape");
  if (axis < 0 || axis >= std::int64_t(tile_shape.size()))
    fail(error_kind::axis_error, "tt.num_tiles: axis ", axis, " is outside the tile shape");
  expr e = with_axis(op_expr("num_tiles", {}), axis);
  e.get()->ints = std::move(tile_shape);
  e.get()->arr_copy = a;
  return e;
}

expr arange(std::int64_t n) {
  if (n <= 0) fail(error_kind::invalid_argument, "arange's size must be a positive constant");
  return with_axis(op_expr("arange", {}), n);
}

expr full(shape_t shape, expr value, dtype t) {
  check_shape(shape, "full's shape");
  if (!value.is_number()) fail(error_kind::type_error, "tt.full's value must be a constant number");
  expr e = op_expr("full", {value});
  e.get()->ints = std::move(shape);
  e.get()->dtype = t;
  return e;
}

expr full(shape_t shape, expr value) {
  const bool is_float = value.is_number() && value.as_number().k == number::kind::floating;
  return full(std::move(shape), value, is_float ? float32 : int32);
}

expr zeros(shape_t shape, dtype t) { return full(std::move(shape), expr(0), t); }
expr ones(shape_t shape, dtype t) { return full(std::move(shape), expr(1), t); }

expr load(const array& a, index_t index, shape_t shape, const std::string& padding) {
  if (padding != "zero" && padding != "neg_inf" && padding != "pos_inf" && padding != "nan")
    fail(error_kind::invalid_argument, "padding must be one of zero, neg_inf, pos_inf, nan; got '", padding, "'");
  check_shape(shape, "tt.load's shape");
  expr e = op_expr("load", std::move(index));
  e.get()->ints = std::move(shape);
  e.get()->text = padding;
  e.get()->arr_copy = a;
  return e;
}

void store(const array& a, index_t index, const expr& tile) {  // Emitter.op_store
  emitter& em = emitter::current();
  if (int(index.size()) != a.rank)
    fail(error_kind::invalid_argument, "tt.store into a ", a.rank, "-d array needs ", a.rank, " tile indices, got ",
         index.size());
  std::vector<emitted> idx;
  for (const expr& i : index) idx.push_back(em.emit(i));
  emitted v = em.emit(tile);
  ir::value_id t = em.cast(em.as_tile(v), a.elem);
  if (em.type_of(t).rank() != a.rank)
    fail(error_kind::invalid_argument, "tt.store of a rank-", em.type_of(t).rank(), " tile into a ", a.rank,
         "-d array; reshape the tile to the array's rank");
  std::vector<ir::value_id> operands = {a.id};
  for (const emitted& i : idx) operands.push_back(em.index_scalar(i));
  operands.push_back(t);
  em.builder().create(ir::op_kind::store, operands);
}

expr exp(const expr& x) { return unary_node("exp", x); }
expr exp2(const expr& x) { return unary_node("exp2", x); }
expr log(const expr& x) { return unary_node("log", x); }
expr log2(const expr& x) { return unary_node("log2", x); }
expr sqrt(const expr& x) { return unary_node("sqrt", x); }
expr rsqrt(const expr& x) { return unary_node("rsqrt", x); }
expr sin(const expr& x) { return unary_node("sin", x); }
expr cos(const expr& x) { return unary_node("cos", x); }
expr tanh(const expr& x) { return unary_node("tanh", x); }
expr floor(const expr& x) { return unary_node("floor", x); }
expr ceil(const expr& x) { return unary_node("ceil", x); }
expr abs(const expr& x) { return unary_node("abs", x); }
expr maximum(const expr& a, const expr& b) { return op_expr("maximum", {a, b}); }
expr minimum(const expr& a, const expr& b) { return op_expr("minimum", {a, b}); }
expr where(const expr& cond, const expr& a, const expr& b) { return op_expr("where", {cond, a, b}); }
expr astype(const expr& x, dtype t) { return x.astype(t); }

expr reshape(const expr& x, shape_t shape) { return x.reshape(std::move(shape)); }
expr permute(const expr& x, shape_t axes) {
  expr e = op_expr("permute", {x});
  e.get()->ints = std::move(axes);
  return e;
}
expr transpose(const expr& x) { return x.transpose(); }
expr expand_dims(const expr& x, std::int64_t axis) { return with_axis(op_expr("expand_dims", {x}), axis); }
expr broadcast_to(const expr& x, shape_t shape) {
  expr e = op_expr("broadcast_to", {x});
  e.get()->ints = std::move(shape);
  return e;
}

expr sum(const expr& x, std::int64_t axis, bool keepdims) { return reduction("sum", x, true, axis, keepdims); }
expr sum(const expr& x) { return reduction("sum", x, false, 0, false); }
expr prod(const expr& x, std::int64_t axis, bool keepdims) { return reduction("prod", x, true, axis, keepdims); }
expr max(const expr& x, std::int64_t axis, bool keepdims) { return reduction("max", x, true, axis, keepdims); }
expr min(const expr& x, std::int64_t axis, bool keepdims) { return reduction("min", x, true, axis, keepdims); }
expr argmax(const expr& x, std::int64_t axis, bool keepdims) { return reduction("argmax", x, true, axis, keepdims); }
expr argmin(const expr& x, std::int64_t axis, bool keepdims) { return reduction("argmin", x, true, axis, keepdims); }
expr cumsum(const expr& x, std::int64_t axis, bool reverse) { return with_axis(op_expr("cumsum", {x}), axis, reverse); }
expr cumprod(const expr& x, std::int64_t axis, bool reverse) { return with_axis(op_expr("cumprod", {x}), axis, reverse); }

expr mma(const expr& a, const expr& b, const expr& acc, bool allow_tf32) {
  expr e = op_expr("mma", {a, b, acc});
  e.get()->flag = allow_tf32;
  return e;
}

expr matmul(const expr& a, const expr& b, bool allow_tf32) {
  expr e = op_expr("matmul", {a, b});
  e.get()->flag = allow_tf32;
  return e;
}

expr let(const std::string& name, const expr& value) {  // Translator.bind
  emitter& em = emitter::current();
  emitted v = em.emit(value);
  if (v.is_number) return value;
  em.set_name(v.id, name);
  return value_expr(v.id);
}

var::var(std::string name, const expr& value) : name_(std::move(name)), current_(let(name_, value)) {}

var& var::operator=(const expr& value) {
  current_ = let(name_, value);
  return *this;
}

namespace {

// Translator.to_bool: a non-bool tile compared with zero.
ir::value_id to_bool(emitter& em, const emitted& v) {
  ir::value_id t = em.as_tile(v);
  if (ir::is_bool(em.type_of(t).elem)) return t;
  return em.builder().binary(ir::op_kind::ne, t, em.builder().weak_scalar(0.0, true, t));
}

// Translator.check_carried: each new value in its initial dtype (a promotion-free cast), or a type error.
std::vector<ir::value_id> check_carried(emitter& em, std::initializer_list<var*> vars, const std::vector<ir::value_id>& init,
                                        const char* what) {
  std::vector<ir::value_id> out;
  std::size_t k = 0;
  for (var* v : vars) {
    const ir::value_id first = init.at(k++);
    const ir::type want = em.type_of(first);
    ir::value_id y = em.as_tile(em.emit(*v), first);
    const ir::type got = em.type_of(y);
    if (got.elem != want.elem || got.shape != want.shape) {
      if (got.shape == want.shape && em.type_of(em.builder().binary(ir::op_kind::add, first, y)).elem == want.elem)
        y = em.cast(y, want.elem);
      else
        fail(error_kind::type_error, what, " variable '", v->name(), "' changes from ", ir::to_string(want), " to ",
             ir::to_string(got), "; initialise it with its final dtype and shape");
    }
    out.push_back(y);
  }
  return out;
}

}  // namespace

namespace {

// Translator._combine: the tile, the identity cast to its dtype, then the combine function inlined in the region.
expr combine_op(ir::op_kind kind, const expr& x, std::int64_t axis, const combine_fn& combine, const expr& identity,
                bool flag) {
  if (!combine) fail(error_kind::type_error, "tt.reduce/tt.scan need a combine function");
  emitter& em = emitter::current();
  ir::builder& b = em.builder();
  const ir::value_id t = em.as_tile(em.emit(x));
  const ir::dtype elem = em.type_of(t).elem;
  const emitted id = em.emit(identity);
  const ir::value_id ident = em.cast(id.is_number ? em.as_tile(id, t) : em.as_tile(id), elem);
  const auto args = b.begin_reduce(kind, t, ident, axis, flag);
  em.open_region();
  const emitted combined = em.emit(combine(value_expr(args.carried.at(0)), value_expr(args.carried.at(1))));
  const ir::value_id c = em.cast(combined.is_number ? em.as_tile(combined, t) : em.as_tile(combined), elem);
  em.close_region();
  return value_expr(b.end_reduce(c));
}

}  // namespace

expr reduce(const expr& x, std::int64_t axis, const combine_fn& combine, const expr& identity, bool keepdims) {
  return combine_op(ir::op_kind::reduce, x, axis, combine, identity, keepdims);
}

expr scan(const expr& x, std::int64_t axis, const combine_fn& combine, const expr& identity, bool reverse) {
  return combine_op(ir::op_kind::scan, x, axis, combine, identity, reverse);
}

void for_range(const expr& lb, const expr& ub, const expr& step, std::initializer_list<var*> carried,
               const std::function<void(const expr& i)>& body) {  // Translator.for_
  emitter& em = emitter::current();
  ir::builder& b = em.builder();
  emitted bounds[3] = {em.emit(lb), em.emit(ub), em.emit(step)};
  bool wide = false;
  for (const emitted& x : bounds)
    if (!x.is_number && em.type_of(x.id).elem == ir::dtype::i64) wide = true;
  const ir::dtype idx = wide ? ir::dtype::i64 : ir::dtype::i32;
  ir::value_id ids[3];
  for (int i = 0; i < 3; ++i) ids[i] = em.cast(em.as_tile(bounds[i]), idx);
  std::vector<ir::value_id> init;
  for (var* v : carried) init.push_back(em.as_tile(em.emit(*v)));  // Translator.carry
  auto args = b.begin_for(ids[0], ids[1], ids[2], init);
  std::size_t k = 0;
  for (var* v : carried) v->rebind(value_expr(args.carried.at(k++)));
  em.open_region();
  body(value_expr(args.iv));
  std::vector<ir::value_id> yielded = check_carried(em, carried, init, "loop-carried");
  em.close_region();
  auto results = b.end_for(yielded);
  k = 0;
  for (var* v : carried) v->rebind(value_expr(results.at(k++)));
}

void if_(const expr& cond, std::initializer_list<var*> outs, const std::function<void()>& then_body,
         const std::function<void()>& else_body) {  // Translator.if_
  emitter& em = emitter::current();
  emitted test = em.emit(cond);
  if (test.is_number) {  // decided now: only one branch exists
    if (test.num.i != 0 || test.num.f != 0) then_body();
    else if (else_body) else_body();
    return;
  }
  ir::value_id c = to_bool(em, test);
  std::vector<expr> before;
  for (var* v : outs) before.push_back(*v);
  em.builder().begin_if(c);
  em.open_region();
  then_body();
  std::vector<ir::value_id> then_vals;
  for (var* v : outs) then_vals.push_back(em.as_tile(em.emit(*v)));
  em.close_region();
  em.builder().begin_else(then_vals);
  std::size_t k = 0;
  for (var* v : outs) v->rebind(before.at(k++));  // the else branch starts from the values before the if
  em.open_region();
  if (else_body) else_body();
  std::vector<ir::value_id> else_vals = check_carried(em, outs, then_vals, "if/else");
  em.close_region();
  auto results = em.builder().end_if(else_vals);
  k = 0;
  for (var* v : outs) v->rebind(value_expr(results.at(k++)));
}

void while_(const std::function<expr()>& cond, std::initializer_list<var*> carried, const std::function<void()>& body) {
  emitter& em = emitter::current();  // Translator.while_
  ir::builder& b = em.builder();
  std::vector<ir::value_id> init;
  for (var* v : carried) init.push_back(em.as_tile(em.emit(*v)));
  std::vector<ir::value_id> args = b.begin_while(init).carried;
  std::size_t k = 0;
  for (var* v : carried) v->rebind(value_expr(args.at(k++)));
  em.open_region();
  ir::value_id c = to_bool(em, em.emit(cond()));
  em.close_region();
  std::vector<ir::value_id> after = b.while_do(c, args).carried;
  k = 0;
  for (var* v : carried) v->rebind(value_expr(after.at(k++)));
  em.open_region();
  body();
  std::vector<ir::value_id> ys = check_carried(em, carried, init, "loop-carried");
  em.close_region();
  auto results = b.end_while(ys);
  k = 0;
  for (var* v : carried) v->rebind(value_expr(results.at(k++)));
}

void for_range(const expr& ub, std::initializer_list<var*> carried, const std::function<void(const expr& i)>& body) {
  // range(ub): Python evaluates ub only; lb = 0 and step = 1 are static numbers.
  for_range(expr(0), ub, expr(1), carried, body);
}

}  // namespace tegula::tile
