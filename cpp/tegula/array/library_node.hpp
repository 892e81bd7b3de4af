// Library calls as nodes of the lazy graph (issue #27's ground): a pending node whose value a library computes
// (libs/ implements the op; the engine knows only this interface, so array/ does not depend on libs/). Like any
// pending node it registers as a reader of its inputs (a write into them first computes it) and is computed when
// something needs its value; then the held pending nodes of the same op that the op can compute in the same call
// join it (products over one matrix in memory: bicg's r @ A and A @ p, one pass over A instead of two).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "tegula/array/expr.hpp"

namespace tegula::array {

// A library node's result: its memory and layout.
struct library_result {
  std::shared_ptr<storage> data;
  layout lay;
};

class library_op {
 public:
  virtual ~library_op() = default;
  // What explain and the profile call it ("matrix pass: r @ A").
  virtual std::string describe(const node& self) const = 0;
  // Whether `other` (a pending node of this same op, held outside the graph, independent of `self`'s) can be
  // computed by the call that computes `group`, whose first member is the node asked for.
  virtual bool joins(const std::vector<node_ptr>& group, const node& other) const = 0;
  // Computes every member of `group` (inputs are theirs to materialise), one result per member.
  virtual std::vector<library_result> evaluate(const std::vector<node_ptr>& group) const = 0;
};

// A pending library node of dtype t and shape over `inputs` (at most three), registered as their reader.
node_ptr make_library_node(std::shared_ptr<const library_op> op, std::initializer_list<node_ptr> inputs, dtype t,
                           dims shape);

// The nodes one call computes with pending library node `root` (root first): held pending nodes of root's op that
// read a storage root reads, that neither depends on the other and that the op's joins() accepts (at most `max`).
std::vector<node_ptr> library_group(const node_ptr& root, std::size_t max);

// What computed the most recent library group on this thread (explain and tests): its describe() and size.
struct library_last_run {
  std::string what;
  std::size_t joined = 0;
};
library_last_run& library_last();

}  // namespace tegula::array
