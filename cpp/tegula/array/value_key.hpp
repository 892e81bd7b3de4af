// The identity of an array's value, for reusing what was derived from it (a mask's compaction positions).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "tegula/array/expr.hpp"

namespace tegula::array {

// Two arrays with equal keys hold equal values while each of `leaves` keeps its storage's write count
// (storage::writes) as it was when the key was made. The key names the graph's structure (kinds, ops, dtypes,
// shapes), its scalars by value and its leaves by storage serial and layout; the counts are not in it, so a
// caller compares them itself (and may update them after launches it knows only read).
struct value_key {
  std::string key;
  std::vector<node_ptr> leaves;  // each leaf once, in first-seen order
};

// nullopt for graphs with reductions or scans, or of more than max_value_key_nodes nodes.
constexpr std::size_t max_value_key_nodes = 256;
std::optional<value_key> make_value_key(const node_ptr& n);

}  // namespace tegula::array
