// Basic-index views of pending arrays (see pending_view.hpp).
#include "tegula/array/pending_view.hpp"

#include <algorithm>
#include <optional>
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

// Rebuilds a small elementwise graph with every leaf seen through `see` (a leaf broadcast to the viewed node's
// shape -> its view, or nullopt: the view cannot be pushed down, and push returns null).
template <class See>
struct pusher {
  const dims& shape;  // the view's shape
  See see;
  std::vector<std::pair<const node*, node_ptr>> done;  // each pending node pushed once (a DAG stays one)

  node_ptr push(const node_ptr& n) {
    if (n->kind == node_kind::scalar) return n;
    if (n->kind == node_kind::leaf) {
      std::optional<layout> l = see(n->lay);
      return l ? make_leaf(n->data, std::move(*l), n->t) : nullptr;
    }
    for (const auto& [from, to] : done)
      if (from == n.get()) return to;
    node_ptr c = detached_copy(*n);
    c->shape = shape;
    for (std::size_t i = 0; i < c->inputs.size(); ++i)
      if (!(c->inputs[i] = push(n->inputs[i]))) return nullptr;
    done.emplace_back(n.get(), c);
    return c;
  }

  // Readers are noted once the whole graph is pushed (a graph that fails halfway registers nothing).
  void note_readers() {
    for (auto& d : done) note_reader(d.second);
  }
};

template <class See>
pusher<See> make_pusher(const dims& shape, See see) {
  return pusher<See>{shape, std::move(see), {}};
}

void link_view(const node_ptr& x, const node_ptr& v) {
  v->view_base = x;
  std::erase_if(x->views, [](const std::weak_ptr<node>& w) { return w.expired(); });
  x->views.push_back(v);
}

}  // namespace

node_ptr detached_copy(const node& n) {
  auto c = std::make_shared<node>(n);
  c->consumers.clear();
  c->views.clear();
  c->view_base.reset();
  c->view_items.clear();
  c->view_reshape = false;
  return c;
}

node_ptr make_pending_view(const node_ptr& x, const std::vector<index_item>& items) {
  if (!x->pending()) return nullptr;
  std::vector<const node*> seen;
  if (!small_elementwise(x, seen, max_pending_view_graph)) return nullptr;
  const layout at = subscript(contiguous(x->shape), items);  // NumPy's IndexError here, and the view's shape
  const dims& whole = x->shape;
  auto p = make_pusher(at.shape, [&](const layout& l) -> std::optional<layout> {
    return subscript(broadcast_to(l, whole), items);
  });
  node_ptr v = p.push(x);  // a new node: x is pending
  p.note_readers();
  link_view(x, v);
  v->view_items = items;
  return v;
}

node_ptr make_pending_reshape(const node_ptr& x, const dims& shape) {
  if (!x->pending() || shape == x->shape) return nullptr;
  std::vector<const node*> seen;
  if (!small_elementwise(x, seen, max_pending_view_graph)) return nullptr;
  const dims& whole = x->shape;
  auto p = make_pusher(shape, [&](const layout& l) { return reshape_view(broadcast_to(l, whole), shape); });
  node_ptr v = p.push(x);
  if (!v) return nullptr;  // nothing was registered: x stays as it was
  p.note_readers();
  link_view(x, v);
  v->view_reshape = true;
  return v;
}

}  // namespace tegula::array
