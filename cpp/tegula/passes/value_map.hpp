// Value replacement for passes that drop ops: uses of a dropped result read its replacement.
#pragma once
#include <vector>

#include "tegula/ir/ir.hpp"

namespace tegula::passes {

// Identity at first; replace(a, b) makes every later lookup of a answer b's replacement.
// Invariant: chains end (a value is only replaced by one defined before it, or by a fresh one).
class value_map {
 public:
  explicit value_map(std::size_t values) : to_(values) {
    for (std::size_t i = 0; i < values; ++i) to_[i] = ir::value_id(i);
  }
  void replace(ir::value_id from, ir::value_id to) {
    if (from >= 0 && std::size_t(from) < to_.size()) to_[std::size_t(from)] = to;
  }
  ir::value_id operator()(ir::value_id v) const {
    while (v >= 0 && std::size_t(v) < to_.size() && to_[std::size_t(v)] != v) v = to_[std::size_t(v)];
    return v;
  }
  void apply(ir::op& o) const {  // the op's own operands; its regions are rewritten separately
    for (ir::value_id& v : o.operands) v = (*this)(v);
  }
  void grow(std::size_t values) {  // after new values were added to the function
    for (std::size_t i = to_.size(); i < values; ++i) to_.push_back(ir::value_id(i));
  }

 private:
  std::vector<ir::value_id> to_;
};

}  // namespace tegula::passes
