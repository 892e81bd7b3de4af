// The lazy expression graph: an ndarray's value is a node, either materialised (storage + layout)
// or pending (an op over other nodes). Elementwise ops, casts, where and reductions build pending
// nodes; materialising a node (materialize.hpp) turns it into a leaf in place, so every graph that
// shares it sees the stored result from then on. A node's dtype and shape never change.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <vector>

#include "tegula/array/layout.hpp"
#include "tegula/array/promotion.hpp"
#include "tegula/array/storage.hpp"
#include "tegula/ir/ir.hpp"
#include "tegula/ir/op_traits.hpp"

namespace tegula::array {

// part: the real (ivalue 0) or imaginary (1) part of a pending complex node; compose: re + im*1j; library: a value a
// library call computes (library_node.hpp: `library` names the op).
enum class node_kind : std::uint8_t { leaf, scalar, unary, binary, where, cast, reduce, scan, iota, part, compose,
                                      library };

class library_op;

struct node;
using node_ptr = std::shared_ptr<node>;

// A node's inputs (at most three, where's): held inline, so building a node allocates nothing for them.
class node_inputs {
 public:
  node_inputs() = default;
  node_inputs(std::initializer_list<node_ptr> l) { *this = l; }
  node_inputs& operator=(std::initializer_list<node_ptr> l) {
    clear();
    for (const auto& x : l) v_[n_++] = x;  // callers pass at most three
    return *this;
  }
  const node_ptr* begin() const { return v_; }
  const node_ptr* end() const { return v_ + n_; }
  const node_ptr& operator[](std::size_t i) const { return v_[i]; }
  node_ptr& operator[](std::size_t i) { return v_[i]; }
  std::size_t size() const { return n_; }
  bool empty() const { return n_ == 0; }
  void clear() {
    for (std::uint8_t i = 0; i < n_; ++i) v_[i].reset();
    n_ = 0;
  }

 private:
  node_ptr v_[3];
  std::uint8_t n_ = 0;
};

// Where a deferred in-place update writes its value (deferred_update.hpp): a view of memory the update's target
// array owned alone.
struct update_target {
  std::shared_ptr<storage> data;
  layout lay;
};
// A node's update target, which copies of the node never carry: a copy (detached_copy, a pending view's
// pushed-down graph) is the value, not the write, and writing the value twice would apply the update twice.
class home_slot {
 public:
  home_slot() = default;
  home_slot(const home_slot&) {}
  home_slot& operator=(const home_slot&) = delete;
  const update_target* get() const { return target_.get(); }
  explicit operator bool() const { return bool(target_); }
  void set(update_target t) { target_ = std::make_shared<const update_target>(std::move(t)); }
  std::shared_ptr<const update_target> take() { return std::move(target_); }

 private:
  std::shared_ptr<const update_target> target_;
};

struct node {
  node_kind kind = node_kind::leaf;
  dtype t = dtype::f32;
  dims shape;
  device_kind device = device_kind::cpu;
  rt::device* gpu = nullptr;  // the CUDA device (cuda nodes)

  // unary / binary / reduce: the IR op; where: (cond, a, b); cast: (x)
  ir::op_kind op = ir::op_kind::add;
  dtype compute = dtype::f32;  // binary: the dtype both operands are cast to (comparisons: their promotion)
  node_inputs inputs;

  // scalar: a value of dtype t, passed to kernels as a parameter (not part of the compiled kernel;
  // complex: fvalue + fimag*1j); iota: start (fvalue, ivalue) and step (fstep, istep)
  double fvalue = 0, fstep = 0, fimag = 0;
  std::int64_t ivalue = 0, istep = 0;

  // reduce: sorted normalised axes of inputs[0] and keepdims
  std::vector<int> axes;
  // library: the op that computes it (library_node.hpp)
  std::shared_ptr<const library_op> library;
  bool keepdims = false;

  // leaf: the data
  std::shared_ptr<storage> data;
  layout lay;

  // Pending nodes with this (pending) node as a direct input: when it materialises they become
  // readers of its storage (note_reader), so a later write into it materialises them first.
  std::vector<std::weak_ptr<node>> consumers;

  // Pending: the longest chain of pending nodes down to leaves, this one included (note_reader sets it).
  std::uint32_t depth = 0;

  // A basic-index view of a pending node (pending_view.hpp): `view_base` is the node viewed and `view_items` the
  // index, or with `view_reshape` the base reshaped to this node's shape; the node's own graph is the base's,
  // pushed down to its leaves. `views`: the live views of this node. Materialising either side makes the view the
  // view of the base's memory that NumPy's view is.
  node_ptr view_base;
  std::vector<index_item> view_items;
  bool view_reshape = false;
  std::vector<std::weak_ptr<node>> views;

  // A deferred in-place update (deferred_update.hpp): computing this node writes its value into `home`'s view and
  // makes it a leaf over that memory.
  home_slot home;

  bool pending() const { return kind != node_kind::leaf && kind != node_kind::scalar; }
  // A pending node whose elements each depend on its inputs' elements at the same position (after broadcasting):
  // not a reduction, scan, iota or library call (sibling outputs and views of pending nodes rely on it).
  bool elementwise() const {
    return pending() && kind != node_kind::reduce && kind != node_kind::scan && kind != node_kind::iota &&
           kind != node_kind::library;
  }
  std::int64_t size() const;
};

// A pending graph deeper than this is cut where it is built: on the new node's deepest chain, the node most
// others read is materialised first (note_reader). A loop that grows one expression (z = z * z + c, n times) then runs a
// kernel every few dozen iterations instead of compiling one kernel of thousands of operations.
constexpr std::uint32_t max_graph_depth = 64;

// Called on every new pending node once its inputs are set: cuts the graph at max_graph_depth, sets its depth,
// and registers it with its inputs: as a consumer of each pending input, as a reader of each leaf's storage, so a
// write into the storage first materialises it (NumPy semantics: an expression sees the values as of when it
// was written).
void note_reader(const node_ptr& pending);
// Before a write into bytes [lo, hi) of `s` (all of it by default): materialises every live pending node that
// something outside the graph holds and that reads those bytes (directly or through other pending nodes),
// except `keep`; nodes that read only other bytes of `s` keep their values as they are and stay registered.
struct byte_range {
  std::int64_t lo = 0, hi = INT64_MAX;
};
// The bytes [lo, hi) of its storage that view `l` of items of `item` bytes touches.
byte_range byte_extent(const layout& l, int item);
void flush_readers(const storage& s, const node* keep = nullptr, byte_range written = {});

// Sibling outputs of pending `root` (at most `max`): other pending nodes of its shape and device that
// something outside the graph holds (a Python array) and that read one of the storages root reads, with
// elementwise graphs like root's (no reduction, scan or iota). Materialising root computes them in the same
// kernel, one pass over the shared inputs (Black-Scholes' call and put). Empty when root is not elementwise.
std::vector<node_ptr> sibling_outputs(const node_ptr& root, std::size_t max);

// True when `target` is in n's pending graph (n itself included).
bool graph_contains(const node_ptr& n, const node* target);
// True when something besides pending consumers' inputs holds n (a Python array, a caller): its value must be
// kept. `ours`: the references the caller itself holds.
bool held_outside_graph(const node_ptr& n, long ours);

// True when the caller's one reference is all that holds materialised n and n alone holds its memory: no view,
// pending expression (a reader holds the leaf it reads) or other array shares either.
bool sole_owner(const node_ptr& n);

node_ptr make_leaf(std::shared_ptr<storage> data, layout lay, dtype t);
// The address of a leaf's element [0, ...]: its storage's device address (or host pointer) plus its offset.
std::uintptr_t element_address(const node& leaf);
node_ptr make_scalar(double value, dtype t, const node_ptr& like);          // float dtypes
node_ptr make_scalar_int(std::int64_t value, dtype t, const node_ptr& like);  // bool/int dtypes
node_ptr make_scalar_complex(double re, double im, dtype t, const node_ptr& like);  // complex dtypes

// The real (which 0) or imaginary (1) part of complex x: a view of a materialised x (writes go
// through, as NumPy's .real/.imag), else a pending part node. Real x: x itself (real) / zeros (imag).
node_ptr make_part(const node_ptr& x, int which);
// re + im*1j of two real nodes, in the complex dtype holding both parts (NumPy's complex(re, im)).
node_ptr make_complex(const node_ptr& re, const node_ptr& im);

// Elementwise ops with NumPy's dtype rules (the caller resolves Python scalars to scalar nodes
// first, with result_type). Unary math on ints computes in float_loop(t).
node_ptr make_unary(ir::op_kind op, const node_ptr& x);
// NumPy true_divide: ints -> float64. Comparisons -> bool. Shifts/bitwise need ints or bools.
node_ptr make_binary(ir::op_kind op, const node_ptr& a, const node_ptr& b);
node_ptr make_where(const node_ptr& cond, const node_ptr& a, const node_ptr& b);
node_ptr make_cast(const node_ptr& x, dtype t);  // a no-op returns x
// op: reduce_sum/prod/max/min, argmax/argmin; axes empty = all. Result dtypes as NumPy: sum/prod
// of bool/signed -> int64, unsigned -> uint64, floats keep; argmax -> int64. max/min of an empty
// axis is a ValueError as in NumPy ("zero-size array to reduction operation maximum which has no identity").
node_ptr make_reduce(ir::op_kind op, const node_ptr& x, const std::vector<std::int64_t>& axes, bool all_axes,
                     bool keepdims);

// op: cumsum/cumprod along one axis (NumPy's dtypes, as sum/prod). The result has x's shape; its
// materialised layout may be a transposed view (the scan runs along the kernel's columns).
node_ptr make_scan(ir::op_kind op, const node_ptr& x, std::int64_t axis);

// start + i * step for i in [0, n), of dtype t (arange, linspace): materialised at once (its values
// depend on the element's position, which only a 1-D space gives).
node_ptr make_iota(std::int64_t n, double start, double step, dtype t, device_kind device, rt::device* gpu);

// eq ne lt le gt ge: the ops whose result is bool.
using ir::is_comparison;  // ops.def category (bind_array.cpp asks array::is_comparison)

// The dtype NumPy gives this unary op for an input of dtype t.
dtype unary_result(ir::op_kind op, dtype t);

}  // namespace tegula::array
