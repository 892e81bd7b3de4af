// Library calls as nodes of the lazy graph (see library_node.hpp).
#include "tegula/array/library_node.hpp"

#include <algorithm>

#include "tegula/support/error.hpp"

namespace tegula::array {

node_ptr make_library_node(std::shared_ptr<const library_op> op, std::initializer_list<node_ptr> inputs, dtype t,
                           dims shape) {
  if (!op || inputs.size() == 0 || inputs.size() > 3)
    fail(error_kind::internal, "a library node needs its op and one to three inputs");
  const node_ptr& like = *inputs.begin();
  for (const auto& in : inputs)
    if (in->device != like->device || in->gpu != like->gpu)
      fail(error_kind::invalid_argument, "a library call's arrays must be on one device; move one with .to_device()");
  checked_nbytes(shape, size_bytes(t));
  auto n = std::make_shared<node>();
  n->kind = node_kind::library;
  n->t = t;
  n->shape = std::move(shape);
  n->device = like->device;
  n->gpu = like->gpu;
  n->library = std::move(op);
  n->inputs = inputs;
  note_reader(n);
  return n;
}

namespace {

// Whether something will read n's value: an array holds it, or a deferred in-place update that an array holds
// reads it (mvt's `x2 += y_2 @ A`: the product's value goes into x2's memory when x2 is read, deferred_update.hpp).
bool wanted(const node_ptr& n) {
  if (held_outside_graph(n, 1)) return true;
  for (const auto& w : n->consumers)
    if (auto c = w.lock(); c && c->home && held_outside_graph(c, 1)) return true;
  return false;
}

// The storages of the leaves among n's direct inputs.
std::vector<const storage*> leaf_storages(const node& n) {
  std::vector<const storage*> out;
  for (const auto& in : n.inputs)
    if (in->kind == node_kind::leaf && in->data && std::find(out.begin(), out.end(), in->data.get()) == out.end())
      out.push_back(in->data.get());
  return out;
}

}  // namespace

std::vector<node_ptr> library_group(const node_ptr& root, std::size_t max) {
  std::vector<node_ptr> group{root};
  if (root->kind != node_kind::library) fail(error_kind::internal, "library_group of a node no library computes");
  constexpr std::size_t max_walk = 64;  // readers looked at: a bounded search per call
  std::size_t walked = 0;
  for (const storage* s : leaf_storages(*root)) {
    for (const auto& w : s->readers) {
      if (group.size() >= max || ++walked > max_walk) return group;
      node_ptr n = w.lock();
      if (!n || n == root || n->kind != node_kind::library || n->library.get() != root->library.get()) continue;
      if (n->device != root->device || n->gpu != root->gpu || n->view_base) continue;
      if (std::find(group.begin(), group.end(), n) != group.end()) continue;
      if (!wanted(n)) continue;  // only what someone will read; the rest is computed where it is read
      bool independent = true;
      for (const auto& g : group)
        independent = independent && !graph_contains(n, g.get()) && !graph_contains(g, n.get());
      if (!independent || !root->library->joins(group, *n)) continue;
      group.push_back(std::move(n));
    }
  }
  return group;
}

library_last_run& library_last() {
  static thread_local library_last_run last;
  return last;
}

}  // namespace tegula::array
