// The C++ tile language's expressions. C++ operators and the tt:: functions build a tree; nothing is emitted
// until a statement (let, assign, store, a loop) needs the value. The tree is then emitted depth first, left to
// right, each node once: the order in which Python evaluates the same expression. So a C++ kernel and its Python
// twin drive the IR builder through the same calls and give the same IR (C++ leaves the order in which function
// arguments are evaluated unspecified; the tree removes that freedom).
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "tegula/ir/ir.hpp"

namespace tegula::tile {

// A kernel array parameter (a view in global memory with a dtype and a rank).
struct array {
  ir::value_id id = -1;
  ir::dtype elem = ir::dtype::f32;
  int rank = 0;
  std::string name;
  ir::dtype dtype() const { return elem; }
};

// A number known when the kernel is built (a C++ literal or a constant parameter): Python's static numbers.
struct number {
  enum class kind { boolean, integer, floating } k = kind::integer;
  std::int64_t i = 0;
  double f = 0;
  static number of(bool v) { return {kind::boolean, v ? 1 : 0, v ? 1.0 : 0.0}; }
  static number of(std::int64_t v) { return {kind::integer, v, double(v)}; }
  static number of(double v) { return {kind::floating, std::int64_t(v), v}; }
  bool is_int() const { return k != kind::floating; }
};

struct node;
using node_ptr = std::shared_ptr<node>;

// A value of the tile language: a tile expression or a static number.
class expr {
 public:
  expr(bool v);                          // NOLINT(google-explicit-constructor): literals read like Python's
  expr(int v);                           // NOLINT
  expr(long v);                          // NOLINT
  expr(long long v);                     // NOLINT
  expr(unsigned v);                      // NOLINT
  expr(double v);                        // NOLINT
  explicit expr(node_ptr n) : n_(std::move(n)) {}

  const node_ptr& get() const { return n_; }
  bool is_number() const;
  const number& as_number() const;       // static numbers only

  // Methods of tiles, as in Python.
  expr astype(ir::dtype to) const;
  expr sum(std::int64_t axis, bool keepdims = false) const;
  expr sum() const;
  expr max(std::int64_t axis, bool keepdims = false) const;
  expr min(std::int64_t axis, bool keepdims = false) const;
  expr reshape(std::vector<std::int64_t> shape) const;
  expr transpose() const;

 private:
  node_ptr n_;
};

// A tree node: an IR value already emitted (a leaf), a static number, or an operation on child expressions.
struct node {
  enum class kind { value, number, op } k = kind::op;
  ir::value_id id = -1;  // value: the IR value
  number num;            // number
  std::string op;        // op: the operation ("add", "exp", "load", "sum", ...)
  std::vector<expr> args;
  std::vector<std::int64_t> ints;  // shapes, axes
  std::int64_t axis = 0;
  bool flag = false;               // keepdims / allow_tf32
  ir::dtype dtype = ir::dtype::f32;
  std::string text;                // padding
  const array* arr = nullptr;      // load / num_tiles
  array arr_copy;
  ir::value_id emitted = -1;       // memo: the value once emitted (each node is emitted once)
};

expr value_expr(ir::value_id id);
expr op_expr(std::string op, std::vector<expr> args);

// Arithmetic and comparisons, with NumPy's promotion and Python's weak scalars.
expr operator+(const expr& a, const expr& b);
expr operator-(const expr& a, const expr& b);
expr operator*(const expr& a, const expr& b);
expr operator/(const expr& a, const expr& b);
expr operator%(const expr& a, const expr& b);
expr operator-(const expr& a);
expr operator<(const expr& a, const expr& b);
expr operator<=(const expr& a, const expr& b);
expr operator>(const expr& a, const expr& b);
expr operator>=(const expr& a, const expr& b);
expr operator==(const expr& a, const expr& b);
expr operator!=(const expr& a, const expr& b);
expr operator&(const expr& a, const expr& b);
expr operator|(const expr& a, const expr& b);
expr floordiv(const expr& a, const expr& b);  // Python's //

}  // namespace tegula::tile
