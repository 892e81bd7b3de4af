// Deferred in-place updates (see deferred_update.hpp).
#include "tegula/array/deferred_update.hpp"

#include <algorithm>
#include <vector>

#include "tegula/support/error.hpp"

namespace tegula::array {
namespace {

// Whether n's pending graph holds a library node among its first few nodes (a bounded look: a cast or a scale of
// the product, not a search of a large expression).
bool reads_library_call(const node_ptr& n) {
  constexpr std::size_t max_nodes = 8;
  std::vector<const node*> stack{n.get()}, seen;
  while (!stack.empty() && seen.size() < max_nodes) {
    const node* x = stack.back();
    stack.pop_back();
    if (!x->pending() || std::find(seen.begin(), seen.end(), x) != seen.end()) continue;
    if (x->kind == node_kind::library) return true;
    seen.push_back(x);
    for (const auto& in : x->inputs) stack.push_back(in.get());
  }
  return false;
}

}  // namespace

bool may_defer_update(const node_ptr& target, const node_ptr& operand) {
  // The caller's array holds target once; nothing else may (a view, a pending reader, another array).
  if (!target || !operand || target->kind != node_kind::leaf || !sole_owner(target)) return false;
  if (target->data->address_shown || target->lay.size() == 0) return false;
  return reads_library_call(operand);  // false for an operand in memory or a scalar
}

node_ptr defer_update(const node_ptr& target, const node_ptr& value) {
  if (value->shape != target->shape || value->t != target->t || !value->pending() || value->home)
    fail(error_kind::internal, "a deferred update whose value is not a new pending node of its target's shape and dtype");
  value->home.set(update_target{target->data, target->lay});
  return value;
}

}  // namespace tegula::array
