// Emission of C++ tile expressions (see emitter.hpp). Each branch names the Python function it mirrors.
#include "tegula/tile/emitter.hpp"

#include <algorithm>
#include <optional>

#include "tegula/ir/op_traits.hpp"
#include "tegula/support/error.hpp"

namespace tegula::tile {
namespace {

thread_local emitter* active = nullptr;

ir::op_kind kind_of(const std::string& text) {
  auto k = ir::op_from_text(text);
  if (!k) fail(error_kind::internal, "unknown tile IR op '", text, "'");
  return *k;
}


std::int64_t numel(const std::vector<std::int64_t>& s) {
  std::int64_t n = 1;
  for (auto e : s) n *= e;
  return n;
}

}  // namespace

emitter& emitter::current() {
  if (!active) fail(error_kind::invalid_argument, "tile statements (let, store, for_range, ...) run only inside a "
                    "kernel body while the kernel is built");
  return *active;
}

emitter::scope::scope(emitter& e) : previous(active) { active = &e; }
emitter::scope::~scope() { active = previous; }

// Emitter.as_tile(v): numbers become constants: bool, float32 for floats, int32 (int64 when out of range).
ir::value_id emitter::as_tile(const emitted& v) {
  if (!v.is_number) return v.id;
  const number& n = v.num;
  if (n.k == number::kind::boolean) return b_.constant(n.i, ir::type::tile(ir::dtype::b1));
  if (n.k == number::kind::floating) return b_.constant(n.f, ir::type::tile(ir::dtype::f32));
  const bool small = n.i >= -(std::int64_t(1) << 31) && n.i < (std::int64_t(1) << 31);
  return b_.constant(n.i, ir::type::tile(small ? ir::dtype::i32 : ir::dtype::i64));
}

// Emitter.as_tile(v, like): a number next to a tile is a weak scalar (NEP 50).
ir::value_id emitter::as_tile(const emitted& v, ir::value_id like) {
  if (!v.is_number) return v.id;
  return b_.weak_scalar(v.num.f, v.num.is_int(), like);
}

// Emitter.index_scalar.
ir::value_id emitter::index_scalar(const emitted& v) {
  if (v.is_number) {
    if (v.num.k != number::kind::integer) fail(error_kind::type_error, "tile indices must be integers");
    return b_.constant(v.num.i, ir::type::tile(ir::dtype::i32));
  }
  const ir::type& t = type_of(v.id);
  if (!t.is_scalar() || !ir::is_int(t.elem))
    fail(error_kind::type_error, "tile indices must be integer scalars, got ", ir::to_string(t));
  return v.id;
}

emitted emitter::emit(const expr& e) {
  node& n = *e.get();
  if (n.k == node::kind::number) return {true, n.num, -1};
  if (n.emitted >= 0) return {false, {}, n.emitted};
  ir::value_id id = emit_op(n);
  n.emitted = id;
  if (!regions_.empty()) regions_.back().push_back(&n);
  return {false, {}, id};
}

void emitter::open_region() { regions_.emplace_back(); }

void emitter::close_region() {
  // Nodes first emitted inside the region are not visible after it: emit them again if used later.
  for (node* n : regions_.back()) n->emitted = -1;
  regions_.pop_back();
}

// Translator.operands + builder.binary: weak scalars on either side, NumPy promotion and broadcasting.
ir::value_id emitter::binary(const std::string& op, const emitted& a, const emitted& b) {
  ir::value_id x = a.id, y = b.id;
  if (a.is_number && b.is_number) x = as_tile(a);  // Emitter._binary (tt.maximum(2, 3))
  if (a.is_number && !b.is_number) x = as_tile(a, y);
  if (b.is_number) y = as_tile(b, x);
  return b_.binary(kind_of(op), x, y);
}

// Emitter.op_unary.
ir::value_id emitter::unary(const std::string& op, const emitted& x) {
  ir::value_id t = as_tile(x);
  // Float math (ops.def) on an integer or bool tile computes in NumPy's float loop dtype (array/promotion).
  if (ir::is_float_math(kind_of(op))) t = cast(t, ir::float_loop(type_of(t).elem));
  return b_.create1(kind_of(op), {t});
}

std::int64_t emitter::axis_of(const std::string& op, ir::value_id t, std::int64_t axis) {
  const int nd = type_of(t).rank();
  if (axis < -nd || axis >= nd)
    fail(error_kind::axis_error, "tt.", op, ": axis ", axis, " is out of bounds for a tile of rank ", nd);
  return axis < 0 ? axis + nd : axis;
}

// Emitter._reduce.
ir::value_id emitter::reduce(const std::string& op, node& n, const emitted& x) {
  ir::value_id t = as_tile(x);
  const ir::type ty = type_of(t);
  if (n.text != "axis") {
    if (ir::traits_of(kind_of(op)).result == ir::result_dtype::index && ty.rank() != 1)  // argmax, argmin
      fail(error_kind::invalid_argument, "tt.", op, " needs an axis for a rank-", ty.rank(), " tile");
    ir::value_id flat = t;
    if (ty.rank() != 1)
      flat = b_.create1(ir::op_kind::reshape, {t}, {{"shape", std::vector<std::int64_t>{std::max<std::int64_t>(1, numel(ty.shape))}}});
    ir::value_id r = b_.create1(kind_of(op), {flat}, {{"axis", std::int64_t(0)}, {"keepdims", std::int64_t(0)}});
    if (n.flag && ty.rank() > 0)
      r = b_.create1(ir::op_kind::reshape, {r}, {{"shape", std::vector<std::int64_t>(std::size_t(ty.rank()), 1)}});
    return r;
  }
  const std::int64_t axis = axis_of(op, t, n.ints.at(0));
  return b_.create1(kind_of(op), {t}, {{"axis", axis}, {"keepdims", std::int64_t(n.flag ? 1 : 0)}});
}

ir::value_id emitter::emit_op(node& n) {
  const std::string& op = n.op;
  // The IR op the node's text names, if any (the front end also has nodes such as "full", "matmul", "bid").
  const std::optional<ir::op_kind> k = ir::op_from_text(op);
  if (k && ir::is_elementwise_binary(*k)) {
    emitted a = emit(n.args.at(0));
    emitted b = emit(n.args.at(1));
    return binary(op, a, b);
  }
  // neg, abs and float math (astype and bitcast take a dtype: not here).
  if (k && ir::is_elementwise_unary(*k) && ir::traits_of(*k).result == ir::result_dtype::same)
    return unary(op, emit(n.args.at(0)));
  if (op == "where") {  // Emitter.where
    emitted c = emit(n.args.at(0)), a = emit(n.args.at(1)), b = emit(n.args.at(2));
    ir::value_id x = a.is_number ? (b.is_number ? as_tile(a) : as_tile(a, b.id)) : a.id;
    ir::value_id y = as_tile(b, x);
    ir::value_id cond = as_tile(c);
    if (!ir::is_bool(type_of(cond).elem)) cond = b_.binary(ir::op_kind::ne, cond, b_.weak_scalar(0.0, true, cond));
    return b_.where(cond, x, y);
  }
  if (op == "astype") return cast(as_tile(emit(n.args.at(0))), n.dtype);
  // The built-in reductions and scans (the custom reduce and scan have a combine region).
  if (k && ir::is_reduction(*k) && ir::info(*k).regions == 0) return reduce(op, n, emit(n.args.at(0)));
  if (k && ir::is_scan(*k) && ir::info(*k).regions == 0) {
    ir::value_id t = as_tile(emit(n.args.at(0)));
    return b_.create1(kind_of(op), {t}, {{"axis", axis_of(op, t, n.axis)}, {"reverse", std::int64_t(n.flag ? 1 : 0)}});
  }
  if (op == "reshape") return b_.create1(ir::op_kind::reshape, {as_tile(emit(n.args.at(0)))}, {{"shape", n.ints}});
  if (op == "permute") return b_.create1(ir::op_kind::permute, {as_tile(emit(n.args.at(0)))}, {{"perm", n.ints}});
  if (op == "transpose") {
    ir::value_id t = as_tile(emit(n.args.at(0)));
    std::vector<std::int64_t> perm;
    for (int i = type_of(t).rank() - 1; i >= 0; --i) perm.push_back(i);
    return b_.create1(ir::op_kind::permute, {t}, {{"perm", perm}});
  }
  if (op == "expand_dims") return b_.create1(ir::op_kind::expand_dims, {as_tile(emit(n.args.at(0)))}, {{"axis", n.axis}});
  if (op == "broadcast_to") return b_.broadcast(as_tile(emit(n.args.at(0))), n.ints);
  if (op == "bid") return b_.create1(ir::op_kind::block_id, {}, {{"axis", n.axis}});
  if (op == "num_blocks") return b_.create1(ir::op_kind::num_blocks, {}, {{"axis", n.axis}});
  if (op == "num_tiles")
    return b_.create1(ir::op_kind::num_tiles, {n.arr_copy.id}, {{"axis", n.axis}, {"tile", n.ints.at(std::size_t(n.axis))}});
  if (op == "arange") return b_.create1(ir::op_kind::arange, {}, {{"n", n.axis}});
  if (op == "full") {  // Emitter.op_full: b.constant(value, dtype, shape)
    const number& v = n.args.at(0).as_number();
    ir::type t = ir::type::tile(n.dtype, n.ints);
    return v.k == number::kind::floating ? b_.constant(v.f, t) : b_.constant(v.i, t);
  }
  if (op == "load") {  // Emitter.op_load (the index expressions are evaluated first, as Python's arguments)
    std::vector<emitted> idx;
    for (const expr& i : n.args) idx.push_back(emit(i));
    if (int(idx.size()) != n.arr_copy.rank)
      fail(error_kind::invalid_argument, "tt.load of a ", n.arr_copy.rank, "-d array needs ", n.arr_copy.rank,
           " tile indices, got ", idx.size());
    std::vector<ir::value_id> operands = {n.arr_copy.id};
    for (const emitted& i : idx) operands.push_back(index_scalar(i));
    return b_.create1(ir::op_kind::load, operands, {{"shape", n.ints}, {"padding", n.text}});
  }
  if (op == "mma") {
    emitted a = emit(n.args.at(0)), b = emit(n.args.at(1)), acc = emit(n.args.at(2));
    return b_.create1(ir::op_kind::mma, {as_tile(a), as_tile(b), as_tile(acc)}, {{"tf32", std::int64_t(n.flag ? 1 : 0)}});
  }
  if (op == "matmul") {  // Emitter.op_matmul
    emitted ea = emit(n.args.at(0)), eb = emit(n.args.at(1));
    if (ea.is_number || eb.is_number) fail(error_kind::type_error, "a @ b needs two tiles");
    const ir::type ta = type_of(ea.id), tb = type_of(eb.id);
    if (ta.rank() != 2 || tb.rank() != 2) fail(error_kind::invalid_argument, "a @ b needs 2-D tiles");
    if (ta.elem != tb.elem) fail(error_kind::type_error, "a @ b needs tiles of one dtype");
    const ir::dtype d = ta.elem;
    if (ir::is_bool(d)) fail(error_kind::type_error, "a @ b of bool tiles is not supported");
    const ir::dtype acc = d == ir::dtype::f64 ? ir::dtype::f64
                          : ir::is_float(d) ? ir::dtype::f32
                          : (d == ir::dtype::i64 || d == ir::dtype::u64 || d == ir::dtype::u32) ? ir::dtype::i64
                                                                                               : ir::dtype::i32;
    ir::value_id zero = b_.constant(std::int64_t(0), ir::type::tile(acc, {ta.shape[0], tb.shape[1]}));
    ir::value_id r = b_.create1(ir::op_kind::mma, {ea.id, eb.id, zero}, {{"tf32", std::int64_t(n.flag ? 1 : 0)}});
    return cast(r, d);
  }
  fail(error_kind::internal, "the C++ tile front end has no emitter for '", op, "'");
}

}  // namespace tegula::tile
