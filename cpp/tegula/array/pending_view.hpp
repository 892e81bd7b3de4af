// Basic-index views of pending arrays (x[1:, :-1] of x = a + b): NumPy's view of memory x does not have yet.
// Materialising x for the view costs a kernel and a round trip of x's bytes through memory; a stencil of a
// stencil (hdiff's lap[1:] - lap[:-1]) pays it for every intermediate. Instead the view is x's elementwise graph
// pushed down to its leaves, each leaf seen through the same index (after broadcasting to x's shape), so the
// kernel that reads the view computes those elements where it needs them (recomputing x's few operations, not
// reading them back). It stays NumPy's view: materialising it (a read of its memory, a write into it) materialises
// x and makes it the view of x's memory, and so does materialising x (become_leaf in materialize.cpp).
#pragma once
#include <vector>

#include "tegula/array/expr.hpp"

namespace tegula::array {

// Pending nodes a view's graph may hold: a bigger graph is materialised and viewed (recomputing it per view
// would cost more than reading it back).
constexpr std::size_t max_pending_view_graph = 48;

// The view x[items] of pending x as a pending node, or null when x's graph is not elementwise (a reduction, a scan,
// an iota) or holds more than max_pending_view_graph pending nodes: the caller then views x's memory. Raises
// NumPy's IndexError for a bad index, as subscript() does.
node_ptr make_pending_view(const node_ptr& x, const std::vector<index_item>& items);

// x.reshape(shape) of pending x as a pending view (x's graph with every leaf, broadcast to x's shape, reshaped as a
// view of its memory: stockham_fft's `reshape(a * b, (R, N // R))` is read by the product after it, not stored),
// or null when x is not such a small elementwise graph or some leaf does not reshape without a copy (a broadcast
// row: the caller then materialises x and reshapes its memory). `shape` is resolved (no -1).
node_ptr make_pending_reshape(const node_ptr& x, const dims& shape);

// A copy of pending node n to evaluate on its own (n unchanged): no consumers, views or view base of its own.
node_ptr detached_copy(const node& n);

}  // namespace tegula::array
