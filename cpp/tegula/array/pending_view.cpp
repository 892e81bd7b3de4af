// Basic-index views of pending arrays (see pending_view.hpp).
#include "tegula/array/pending_view.hpp"

#include <algorithm>
#include <utility>

namespace tegula::array {
namespace {

// True when n's pending graph is elementwise (no reduction, scan or iota) with at most `limit` pending nodes;
// `seen` collects them.
bool small_elementwise(const node_ptr& n, std::vector<const node*>& seen, std::size_t limit) {
  if (!n->pending() || std::find(seen.begin(), seen.end(), n.get()) != seen.end()) return true;
  if (!n->elementwise()) return false;
  seen.push_back(n.get());
  if (seen.size() > limit) return false;
  for (const auto& in : n->inputs)
    if (!small_elementwise(in, seen, limit)) return false;
  return true;
}

struct pusher {
  const dims& whole;                      // the viewed node's shape: every leaf is broadcast to it first
  const std::vector<index_item>& items;
  const dims& shape;                      // the view's shape
  std::vector<std::pair<const node*, node_ptr>> done;  // each pending node pushed once (a DAG stays one)

  node_ptr push(const node_ptr& n) {
    if (n->kind == node_kind::scalar) return n;
    if (n->kind == node_kind::leaf) return make_leaf(n->data, subscript(broadcast_to(n->lay, whole), items), n->t);
    for (const auto& [from, to] : done)
      if (from == n.get()) return to;
    node_ptr c = detached_copy(*n);
    c->shape = shape;
    for (std::size_t i = 0; i < c->inputs.size(); ++i) c->inputs[i] = push(n->inputs[i]);
    note_reader(c);
    done.emplace_back(n.get(), c);
    return c;
  }
};

}  // namespace

node_ptr detached_copy(const node& n) {
  auto c = std::make_shared<node>(n);
  c->consumers.clear();
  c->views.clear();
  c->view_base.reset();
  c->view_items.clear();
  return c;
}

node_ptr make_pending_view(const node_ptr& x, const std::vector<index_item>& items) {
  if (!x->pending()) return nullptr;
  std::vector<const node*> seen;
  if (!small_elementwise(x, seen, max_pending_view_graph)) return nullptr;
  const layout at = subscript(contiguous(x->shape), items);  // NumPy's IndexError here, and the view's shape
  pusher p{x->shape, items, at.shape, {}};
  node_ptr v = p.push(x);  // a new node: x is pending
  v->view_base = x;
  v->view_items = items;
  std::erase_if(x->views, [](const std::weak_ptr<node>& w) { return w.expired(); });
  x->views.push_back(v);
  return v;
}

}  // namespace tegula::array
