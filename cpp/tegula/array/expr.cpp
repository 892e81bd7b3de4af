// Building pending nodes with NumPy's dtype and shape rules (see expr.hpp).
#include "tegula/array/expr.hpp"

#include <algorithm>
#include <string>

#include "tegula/array/emit_complex.hpp"
#include "tegula/array/materialize.hpp"
#include "tegula/array/ufunc_names.hpp"
#include "tegula/ir/infer.hpp"
#include "tegula/support/error.hpp"

namespace tegula::array {
namespace {

using ir::op_kind;

node_ptr new_node(node_kind k, dtype t, dims shape, const node_ptr& like) {
  checked_nbytes(shape, size_bytes(t));  // a broadcast result may be too big to exist
  auto n = std::make_shared<node>();
  n->kind = k;
  n->t = t;
  n->shape = std::move(shape);
  n->device = like->device;
  n->gpu = like->gpu;
  return n;
}

void same_device(const node_ptr& a, const node_ptr& b) {
  if (a->device != b->device || a->gpu != b->gpu)
    fail(error_kind::invalid_argument, "arrays on different devices (",
         a->device == device_kind::cpu ? "cpu" : "cuda", " and ", b->device == device_kind::cpu ? "cpu" : "cuda",
         ") cannot be combined; move one with .to_device()");
}

[[noreturn]] void unsupported_types(op_kind op) {
  fail(error_kind::type_error, "ufunc '", ufunc_name(op), "' not supported for the input types, and the inputs could not be "
       "safely coerced to any supported types according to the casting rule ''safe''");
}

// NumPy raises at the operation for an integer power with a negative exponent; a lazy kernel would raise
// only when the value is used. A scalar is checked as it is; an array exponent costs one fused min
// reduction and a read-back (a synchronisation), paid only by integer powers with integer array exponents.
void no_negative_exponent(const node_ptr& b, const dims& result_shape) {
  if (std::find(result_shape.begin(), result_shape.end(), 0) != result_shape.end() || b->size() == 0) return;
  const bool negative = b->kind == node_kind::scalar
                            ? b->ivalue < 0
                            : int64_value(make_reduce(op_kind::reduce_min, b, {}, true, false)) < 0;
  if (negative) fail(error_kind::invalid_argument, "Integers to negative integer powers are not allowed.");
}

}  // namespace

std::int64_t node::size() const {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}

namespace {

// The deepest pending input of n (null when none).
node_ptr deepest_input(const node& n) {
  node_ptr best;
  for (const auto& in : n.inputs)
    if (in->pending() && (!best || in->depth > best->depth)) best = in;
  return best;
}

// Recomputes the depth of n's pending graph (after a cut made part of it a leaf); `done`: nodes already redone.
std::uint32_t redepth(const node_ptr& n, std::vector<const node*>& done) {
  if (!n->pending()) return 0;
  if (std::find(done.begin(), done.end(), n.get()) != done.end()) return n->depth;
  std::uint32_t d = 0;
  for (const auto& in : n->inputs) d = std::max(d, redepth(in, done));
  n->depth = d + 1;
  done.push_back(n.get());
  return n->depth;
}

std::size_t live_consumers(const node& n) {
  std::size_t k = 0;
  for (const auto& w : n.consumers) k += !w.expired();
  return k;
}

// Cuts the graph under a new node whose inputs reach max_graph_depth: on the deepest chain, between a quarter
// and half of the limit, the node most others read (in a loop z = f(z): the z of an earlier iteration, which every
// branch of the later ones shares) is materialised, and the depths above it recomputed.
void cut_deep_graph(const node& n) {
  for (int round = 0; round < 16; ++round) {
    node_ptr cur = deepest_input(n);
    if (!cur || cur->depth < max_graph_depth) return;
    node_ptr best;
    std::size_t best_uses = 0;
    for (; cur; cur = deepest_input(*cur)) {
      if (cur->depth <= max_graph_depth / 2) {
        const std::size_t uses = live_consumers(*cur);
        if (!best || uses > best_uses) best = cur, best_uses = uses;
        if (cur->depth <= max_graph_depth / 4) break;
      }
    }
    materialize(best ? best : deepest_input(n));
    std::vector<const node*> done;
    for (const auto& in : n.inputs) redepth(in, done);
  }
}

}  // namespace

void note_reader(const node_ptr& pending) {
  cut_deep_graph(*pending);
  std::uint32_t d = 0;
  for (const auto& in : pending->inputs)
    if (in->pending()) d = std::max(d, in->depth);
  pending->depth = d + 1;
  for (const auto& in : pending->inputs) {
    if (in->pending()) {
      in->consumers.push_back(pending);
      continue;
    }
    if (in->kind != node_kind::leaf || !in->data) continue;
    auto& r = in->data->readers;
    r.push_back(pending);
    if (r.size() > 2 * in->data->readers_pruned_at + 16) {  // drop dead entries now and then: O(1) amortised
      std::erase_if(r, [](const std::weak_ptr<node>& w) { return w.expired(); });
      in->data->readers_pruned_at = r.size();
    }
  }
}

namespace {

// How many of pending c's input slots hold n.
int holds(const node& c, const node* n) {
  int k = 0;
  for (const auto& in : c.inputs) k += in.get() == n;
  return k;
}


// True when n's graph reads bytes [w.lo, w.hi) of s. `seen`: pending nodes already walked.
bool reads_bytes(const node_ptr& n, const storage& s, byte_range w, std::vector<const node*>& seen) {
  if (n->kind == node_kind::leaf) {
    if (n->data.get() != &s) return false;
    const byte_range r = byte_extent(n->lay, size_bytes(n->t));
    return r.lo < r.hi && r.lo < w.hi && w.lo < r.hi;
  }
  if (!n->pending() || std::find(seen.begin(), seen.end(), n.get()) != seen.end()) return false;
  seen.push_back(n.get());
  for (const auto& in : n->inputs)
    if (reads_bytes(in, s, w, seen)) return true;
  return false;
}

}  // namespace

// A node held only by consumers is computed inside whichever held node above it is materialised, so it needs no
// kernel of its own.
bool held_outside_graph(const node_ptr& n, long ours) {
  long by_graph = 0;
  for (const auto& w : n->consumers)
    if (auto c = w.lock(); c && c->pending()) by_graph += holds(*c, n.get());
  return n.use_count() - ours > by_graph;
}

bool sole_owner(const node_ptr& n) {
  return n.use_count() == 1 && !n->pending() && n->data && n->data.use_count() == 1 && n->consumers.empty() &&
         n->views.empty();
}

bool graph_contains(const node_ptr& n, const node* target) {
  std::vector<const node*> seen;
  std::vector<const node*> stack{n.get()};
  while (!stack.empty()) {
    const node* x = stack.back();
    stack.pop_back();
    if (x == target) return true;
    if (!x->pending() || std::find(seen.begin(), seen.end(), x) != seen.end()) continue;
    seen.push_back(x);
    for (const auto& in : x->inputs) stack.push_back(in.get());
  }
  return false;
}

byte_range byte_extent(const layout& l, int item) {
  auto [lo, hi] = l.extent();
  return {lo * item, hi * item};
}

void flush_readers(const storage& s, const node* keep, byte_range written) {
  // Materialising may add readers of other storages, never of `s` (results get new storage).
  ++const_cast<storage&>(s).writes;
  auto& list = const_cast<storage&>(s).readers;
  auto readers = std::move(list);
  list.clear();
  const_cast<storage&>(s).readers_pruned_at = 0;
  // Every live pending node that reads s directly or through other pending nodes, each once, direct readers
  // first and consumers after their inputs. `keep` (and what only it holds) is not materialised.
  std::vector<node_ptr> found;
  auto add = [&](node_ptr n) {
    if (!n || !n->pending() || n.get() == keep) return;
    for (const auto& f : found)  // a handful of nodes: a linear scan beats hashing
      if (f == n) return;
    found.push_back(std::move(n));
  };
  for (auto& w : readers) add(w.lock());
  for (std::size_t i = 0; i < found.size(); ++i)
    for (const auto& c : found[i]->consumers) add(c.lock());
  // Materialise those that something outside the graph holds (their value as of now is what they must keep),
  // inputs before consumers, so a held consumer reads its held inputs' results instead of recomputing them.
  // One held at the top of a chain computes the chain's unheld nodes in its own kernel, once.
  const bool whole = written.lo <= 0 && written.hi == INT64_MAX;
  std::vector<const node*> seen;
  for (const auto& n : found) {
    if (!n->pending() || !held_outside_graph(n, 1)) continue;
    seen.clear();
    if (whole || reads_bytes(n, s, written, seen)) materialize(n);
  }
  // What still reads s (under `keep`, or held only by it) stays registered.
  for (auto& w : readers)
    if (auto n = w.lock(); n && n->pending()) list.push_back(std::move(w));
}

namespace {

// Adds to `leaves` the storages n's pending graph reads; false when the graph holds a reduction, scan or iota.
bool elementwise_graph(const node_ptr& n, std::vector<const storage*>& leaves, std::vector<const node*>& seen) {
  if (n->kind == node_kind::leaf) {
    if (n->data && std::find(leaves.begin(), leaves.end(), n->data.get()) == leaves.end()) leaves.push_back(n->data.get());
    return true;
  }
  if (!n->pending() || std::find(seen.begin(), seen.end(), n.get()) != seen.end()) return true;
  if (!n->elementwise()) return false;
  seen.push_back(n.get());
  for (const auto& in : n->inputs)
    if (!elementwise_graph(in, leaves, seen)) return false;
  return true;
}

}  // namespace

std::vector<node_ptr> sibling_outputs(const node_ptr& root, std::size_t max) {
  std::vector<node_ptr> out;
  std::vector<const storage*> storages, scratch_storages;
  std::vector<const node*> seen;
  if (max == 0 || root->shape.empty() || !elementwise_graph(root, storages, seen)) return out;
  constexpr std::size_t max_walk = 64;  // readers and consumers looked at: a bounded search per materialisation
  std::vector<node_ptr> walk;
  auto add = [&](node_ptr n) {
    if (!n || !n->pending() || n == root || walk.size() >= max_walk) return;
    for (const auto& w : walk)
      if (w == n) return;
    walk.push_back(std::move(n));
  };
  for (const storage* s : storages) {
    std::size_t k = 0;
    for (const auto& w : s->readers) {
      if (++k > max_walk) break;
      add(w.lock());
    }
  }
  for (std::size_t i = 0; i < walk.size(); ++i)
    for (const auto& c : walk[i]->consumers) add(c.lock());
  for (const auto& n : walk) {
    if (out.size() >= max) break;
    if (n->shape != root->shape || n->device != root->device || n->gpu != root->gpu) continue;
    if (n->view_base) continue;  // a view of a pending node is that node's memory once materialised, not its own
    if (n->home) continue;       // a deferred update is computed into its own memory (deferred_update.hpp)
    if (!held_outside_graph(n, 1)) continue;
    scratch_storages.clear();
    seen.clear();
    if (!elementwise_graph(n, scratch_storages, seen)) continue;
    out.push_back(n);
  }
  return out;
}

node_ptr make_leaf(std::shared_ptr<storage> data, layout lay, dtype t) {
  checked_nbytes(lay.shape, size_bytes(t));  // a broadcast view may be too big to index
  auto n = std::make_shared<node>();
  n->kind = node_kind::leaf;
  n->t = t;
  n->shape = lay.shape;
  n->device = data->kind();
  n->gpu = data->dev();
  n->data = std::move(data);
  n->lay = std::move(lay);
  return n;
}

std::uintptr_t element_address(const node& leaf) {
  return leaf.data->address() + static_cast<std::uintptr_t>(leaf.lay.offset * size_bytes(leaf.t));
}

node_ptr make_scalar(double value, dtype t, const node_ptr& like) {
  auto n = new_node(node_kind::scalar, t, {}, like);
  n->fvalue = value;
  n->ivalue = static_cast<std::int64_t>(value);
  return n;
}

node_ptr make_scalar_int(std::int64_t value, dtype t, const node_ptr& like) {
  auto n = new_node(node_kind::scalar, t, {}, like);
  n->ivalue = value;
  n->fvalue = static_cast<double>(value);
  return n;
}

node_ptr make_scalar_complex(double re, double im, dtype t, const node_ptr& like) {
  auto n = make_scalar(re, t, like);
  n->fimag = im;
  return n;
}

node_ptr make_part(const node_ptr& x, int which) {
  if (!ir::is_complex(x->t)) {
    if (which == 0) return x;
    fail(error_kind::internal, "make_part: the imaginary part of a real array");
  }
  const dtype part = ir::component(x->t);
  if (x->kind == node_kind::leaf) {  // a view: the parts interleave, so strides double
    layout l = x->lay;
    for (auto& st : l.strides) st *= 2;
    l.offset = 2 * l.offset + which;
    return make_leaf(x->data, std::move(l), part);
  }
  if (x->kind == node_kind::scalar) return make_scalar(which ? x->fimag : x->fvalue, part, x);
  auto n = new_node(node_kind::part, part, x->shape, x);
  n->ivalue = which;
  n->compute = part;
  n->inputs = {x};
  note_reader(n);
  return n;
}

node_ptr make_complex(const node_ptr& re, const node_ptr& im) {
  same_device(re, im);
  if (ir::is_complex(re->t) || ir::is_complex(im->t))
    fail(error_kind::type_error, "the parts of a complex number must be real");
  dtype part = float_loop(ir::promote(float_loop(re->t), float_loop(im->t)));
  dtype t = ir::complex_of(part);
  auto n = new_node(node_kind::compose, t, broadcast_shapes({re->shape, im->shape}), re);
  n->compute = t;
  n->inputs = {re, im};
  note_reader(n);
  return n;
}

dtype unary_result(op_kind op, dtype t) {
  if (ir::is_complex(t)) {
    if (op == op_kind::floor || op == op_kind::ceil || op == op_kind::trunc || op == op_kind::logical_not)
      unsupported_types(op);
    if (!has_complex_loop(op))
      fail(error_kind::not_implemented, "ufunc '", ufunc_name(op), "' of complex arrays is not implemented yet");
    return op == op_kind::abs ? ir::component(t) : t;
  }
  switch (op) {
    case op_kind::neg:
      if (ir::is_bool(t))
        fail(error_kind::type_error, "The numpy boolean negative, the `-` operator, is not supported, use the `~` "
                                     "operator or the logical_not function instead.");
      return t;
    case op_kind::abs: return t;
    case op_kind::logical_not:
      if (ir::is_float(t))
        fail(error_kind::type_error, "ufunc 'invert' not supported for the input types, and the inputs could not be "
                                     "safely coerced to any supported types according to the casting rule ''safe''");
      return t;
    default: return float_loop(t);  // float math (ops.def), floor and ceil too: NumPy's floating loops only
  }
}

node_ptr make_unary(op_kind op, const node_ptr& x) {
  dtype t = unary_result(op, x->t);
  auto n = new_node(node_kind::unary, t, x->shape, x);
  n->op = op;
  n->compute = ir::is_complex(x->t) ? x->t : t;  // complex abs computes on the complex value
  n->inputs = {x};
  note_reader(n);
  return n;
}

// The common fast cases (equal shapes, a scalar operand) without building a list of shapes.
static dims broadcast2(const dims& a, const dims& b) {
  if (a == b || b.empty()) return a;
  if (a.empty()) return b;
  return broadcast_shapes({a, b});
}

node_ptr make_binary(op_kind op, const node_ptr& a, const node_ptr& b) {
  same_device(a, b);
  dims shape = broadcast2(a->shape, b->shape);
  dtype common = a->t == b->t ? a->t : result_type({operand_kind::of(a->t), operand_kind::of(b->t)});
  dtype result = common, compute = common;
  if (ir::is_complex(common)) {
    if (!has_complex_loop(op)) unsupported_types(op);  // floor_divide, remainder, bitwise, atan2, hypot, copysign
    if (is_comparison(op)) result = dtype::b1;
  } else if (is_comparison(op)) {
    result = dtype::b1;
  } else if (op == op_kind::div) {
    if (!ir::is_float(common)) result = compute = dtype::f64;  // NumPy true_divide of ints/bools
  } else if (ir::is_float_math(op)) {  // atan2, hypot, copysign
    // float-only ufuncs: NumPy's loop is the smallest float both inputs cast to safely, so each goes to its own
    // float loop dtype first (int8 with uint8 computes in float16, not in the float32 of their int16)
    const dtype fa = float_loop(a->t), fb = float_loop(b->t);
    result = compute = fa == fb ? fa : result_type({operand_kind::of(fa), operand_kind::of(fb)});
  } else if (ir::is_int_only(op)) {  // bitwise ops and shifts
    if (ir::is_float(common))
      fail(error_kind::type_error, "ufunc '", ufunc_name(op), "' not supported for the input types, and the inputs "
           "could not be safely coerced to any supported types according to the casting rule ''safe''");
    if ((op == op_kind::shl || op == op_kind::shr) && ir::is_bool(common)) result = compute = dtype::i8;
  } else if (op == op_kind::sub && ir::is_bool(common)) {
    fail(error_kind::type_error, "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, "
                                 "the `^` operator, or the logical_xor function instead.");
  } else if ((op == op_kind::floordiv || op == op_kind::mod || op == op_kind::pow) && ir::is_bool(common)) {
    result = compute = dtype::i8;  // NumPy: bool // bool -> int8
  }
  auto n = new_node(node_kind::binary, result, std::move(shape), a);  // checks the shape first
  if (op == op_kind::pow && ir::is_signed_int(compute) && ir::is_signed_int(b->t)) no_negative_exponent(b, n->shape);
  n->op = op;
  n->compute = compute;
  n->inputs = {a, b};
  note_reader(n);
  return n;
}

node_ptr make_where(const node_ptr& cond, const node_ptr& a, const node_ptr& b) {
  same_device(cond, a);
  same_device(a, b);
  dims shape = broadcast_shapes({cond->shape, a->shape, b->shape});
  auto n = new_node(node_kind::where, result_type({operand_kind::of(a->t), operand_kind::of(b->t)}), std::move(shape), a);
  n->compute = n->t;
  n->inputs = {make_cast(cond, dtype::b1), a, b};
  note_reader(n);
  return n;
}

node_ptr make_cast(const node_ptr& x, dtype t) {
  if (x->t == t) return x;
  if (x->kind == node_kind::scalar) {
    const bool real_from = ir::is_float(x->t) || ir::is_complex(x->t);  // fvalue holds the (real part's) value
    const bool real_to = ir::is_float(t) || ir::is_complex(t);
    auto s = real_to ? make_scalar(x->fvalue, t, x) : make_scalar_int(x->ivalue, t, x);
    if (ir::is_complex(t)) s->fimag = x->fimag;
    if (!real_to && real_from) s->ivalue = static_cast<std::int64_t>(x->fvalue);
    if (ir::is_bool(t)) s->ivalue = real_from ? (x->fvalue != 0 || x->fimag != 0) : (x->ivalue != 0);
    return s;
  }
  auto n = new_node(node_kind::cast, t, x->shape, x);
  n->compute = t;
  n->inputs = {x};
  note_reader(n);
  return n;
}

node_ptr make_reduce(op_kind op, const node_ptr& x, const std::vector<std::int64_t>& axes, bool all_axes,
                     bool keepdims) {
  int nd = static_cast<int>(x->shape.size());
  std::vector<int> ax;
  if (all_axes) {
    for (int i = 0; i < nd; ++i) ax.push_back(i);
  } else {
    ax = normalize_axes(axes, nd);
  }
  bool empty = false;
  for (int a : ax) empty = empty || x->shape[a] == 0;
  if (empty && x->size() == 0 && op != op_kind::reduce_sum && op != op_kind::reduce_prod) {
    const char* name = op == op_kind::reduce_max ? "maximum" : op == op_kind::reduce_min ? "minimum"
                       : op == op_kind::argmax   ? "argmax" : "argmin";
    if (op == op_kind::argmax || op == op_kind::argmin)
      fail(error_kind::invalid_argument, "attempt to get ", name, " of an empty sequence");
    fail(error_kind::invalid_argument, "zero-size array to reduction operation ", name, " which has no identity");
  }
  dims shape;
  for (int i = 0; i < nd; ++i) {
    bool reduced = std::find(ax.begin(), ax.end(), i) != ax.end();
    if (!reduced) shape.push_back(x->shape[i]);
    else if (keepdims) shape.push_back(1);
  }
  dtype t = x->t;
  if (ir::is_complex(t) && op != op_kind::reduce_sum)
    fail(error_kind::not_implemented, ir::info(op).text, " of complex arrays is not implemented yet");
  if (op == op_kind::reduce_sum || op == op_kind::reduce_prod) {
    if (ir::is_bool(t) || ir::is_signed_int(t)) t = dtype::i64;
    else if (ir::is_unsigned_int(t)) t = dtype::u64;
  } else if (op == op_kind::argmax || op == op_kind::argmin) {
    t = dtype::i64;
  }
  auto n = new_node(node_kind::reduce, t, std::move(shape), x);
  n->op = op;
  // Half-precision sums and products accumulate in float32 (as NumPy's pairwise loops do).
  n->compute = (op == op_kind::reduce_sum || op == op_kind::reduce_prod) && ir::is_float(t) && size_bytes(t) == 2
                   ? dtype::f32 : t;
  if (op == op_kind::argmax || op == op_kind::argmin) n->compute = x->t;
  n->inputs = {x};
  n->axes = std::move(ax);
  n->keepdims = keepdims;
  note_reader(n);
  return n;
}

node_ptr make_scan(op_kind op, const node_ptr& x, std::int64_t axis) {
  int a = normalize_axis(axis, static_cast<int>(x->shape.size()));
  dtype t = x->t;
  if (ir::is_complex(t) && op != op_kind::cumsum)
    fail(error_kind::not_implemented, ir::info(op).text, " of complex arrays is not implemented yet");
  if (ir::is_bool(t) || ir::is_signed_int(t)) t = dtype::i64;
  else if (ir::is_unsigned_int(t)) t = dtype::u64;
  auto n = new_node(node_kind::scan, t, x->shape, x);
  n->op = op;
  n->compute = ir::is_float(t) && size_bytes(t) == 2 ? dtype::f32 : t;
  n->inputs = {x};
  n->axes = {a};
  note_reader(n);
  return n;
}

node_ptr make_iota(std::int64_t n, double start, double step, dtype t, device_kind device, rt::device* gpu) {
  checked_nbytes({n}, size_bytes(t));
  auto x = std::make_shared<node>();
  x->kind = node_kind::iota;
  x->t = x->compute = t;
  x->shape = {n};
  x->device = device;
  x->gpu = gpu;
  x->fvalue = start, x->fstep = step;
  x->ivalue = static_cast<std::int64_t>(start), x->istep = static_cast<std::int64_t>(step);
  materialize(x);
  return x;
}

}  // namespace tegula::array
