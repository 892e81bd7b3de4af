// The IR builder: appends ops to a function, inferring result types and checking operands.
// The Python front end (through bindings) and the C++ front end both build IR only through this.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tegula/ir/ir.hpp"
#include "tegula/support/error.hpp"

namespace tegula::ir {

class builder {
 public:
  explicit builder(function& f);  // appends to f.body (or to the innermost open region)

  // Ops created from now on carry `l`; errors thrown by the builder start with "file:line: ".
  void set_location(location l) { loc_ = std::move(l); }
  const location& current_location() const { return loc_; }

  value_id add_param(const std::string& name, type t);

  // The generic entry point: infers result types (infer.hpp), appends the op, returns its results.
  // Errors are tegula::error (type_error / invalid_argument) prefixed with the current location.
  std::vector<value_id> create(op_kind k, std::vector<value_id> operands,
                               std::vector<std::pair<std::string, attribute>> attrs = {});
  value_id create1(op_kind k, std::vector<value_id> operands,
                   std::vector<std::pair<std::string, attribute>> attrs = {});  // exactly one result

  value_id constant(std::int64_t v, type t);  // t: any tile type (splat); v converted to t.elem
  value_id constant(double v, type t);

  // NumPy-semantics helpers used by front ends (they insert astype / expand_dims / broadcast_to):
  value_id cast(value_id v, dtype to);                         // no-op when already `to`
  value_id broadcast(value_id v, const std::vector<std::int64_t>& shape);  // no-op when already that shape
  // a <op> b with NumPy promotion (both tile operands: promote(a, b)) and broadcasting.
  // Comparisons return bool; div of integers first casts both to float64 (true division).
  value_id binary(op_kind k, value_id a, value_id b);
  // A Python scalar as a tile operand next to `like` (NEP 50 "weak" scalar): takes like's dtype,
  // except a float scalar next to an integer/bool tile becomes float64, and an int next to bool
  // becomes int64. Result is a scalar tile (rank 0).
  value_id weak_scalar(double v, bool is_int, value_id like);
  value_id where(value_id cond, value_id a, value_id b);       // broadcasts all three, promotes a/b

  // Control flow. Each begin_* opens a region; ops go there until the matching end_*.
  struct loop_args {
    value_id iv = -1;                // for_: the induction variable
    std::vector<value_id> carried;   // the region's carried-value arguments
  };
  loop_args begin_for(value_id lb, value_id ub, value_id step, std::vector<value_id> init);
  std::vector<value_id> end_for(std::vector<value_id> yielded);  // results (types = init types)

  void begin_if(value_id cond);                                   // opens the then-region
  void begin_else(std::vector<value_id> then_yielded);            // closes then, opens else
  std::vector<value_id> end_if(std::vector<value_id> else_yielded);  // results (types from then)

  loop_args begin_while(std::vector<value_id> init);              // "before" region args
  loop_args while_do(value_id cond, std::vector<value_id> forwarded);  // closes before; "after" args
  std::vector<value_id> end_while(std::vector<value_id> yielded);

  // Custom reduce/scan: region args (acc, x) are scalar tiles of the input dtype.
  loop_args begin_reduce(op_kind reduce_or_scan, value_id tile, value_id identity, std::int64_t axis,
                         bool keepdims_or_reverse);
  value_id end_reduce(value_id combined);

  // Closes the function body with `yield` (no values). Call once, at the end.
  void finish();

  function& func() { return f_; }

 private:
  struct open_region {
    std::size_t op_index;  // index of the region-holding op in the parent op list
    int region;            // which of its regions is being filled
    std::vector<op>* parent;
  };
  std::vector<op>& current_ops();
  value_id push(op o, std::vector<type> result_types);
  [[noreturn]] void error(error_kind kind, const std::string& message) const;

  function& f_;
  location loc_;
  std::vector<open_region> stack_;
};

}  // namespace tegula::ir
