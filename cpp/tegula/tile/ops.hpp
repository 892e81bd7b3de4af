// The tt:: operations of the C++ tile language: the same names and meanings as the Python tile language
// (docs/tile.md). Functions returning expr build expression nodes; store, let, var and for_range are statements
// and emit at once, so they must run inside a kernel's body (kernel.hpp).
#pragma once
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "tegula/tile/expr.hpp"

namespace tegula::tile {

using ir::dtype;
inline constexpr dtype bool_ = dtype::b1, int8 = dtype::i8, int16 = dtype::i16, int32 = dtype::i32,
                       int64 = dtype::i64, uint8 = dtype::u8, uint16 = dtype::u16, uint32 = dtype::u32,
                       uint64 = dtype::u64, float16 = dtype::f16, bfloat16 = dtype::bf16, float32 = dtype::f32,
                       float64 = dtype::f64;

using shape_t = std::vector<std::int64_t>;
using index_t = std::vector<expr>;

// ---- sources ------------------------------------------------------------------------------------------------
expr bid(std::int64_t axis = 0);
expr num_blocks(std::int64_t axis = 0);
expr num_tiles(const array& a, std::int64_t axis, shape_t tile_shape);
expr arange(std::int64_t n);
expr full(shape_t shape, expr value, dtype t);
expr full(shape_t shape, expr value);  // float32 for a float value, int32 otherwise
expr zeros(shape_t shape, dtype t = float32);
expr ones(shape_t shape, dtype t = float32);

// ---- memory -------------------------------------------------------------------------------------------------
// padding: "zero", "neg_inf", "pos_inf" or "nan"
expr load(const array& a, index_t index, shape_t shape, const std::string& padding = "zero");
void store(const array& a, index_t index, const expr& tile);

// ---- elementwise --------------------------------------------------------------------------------------------
expr exp(const expr& x);
expr exp2(const expr& x);
expr log(const expr& x);
expr log2(const expr& x);
expr sqrt(const expr& x);
expr rsqrt(const expr& x);
expr sin(const expr& x);
expr cos(const expr& x);
expr tanh(const expr& x);
expr floor(const expr& x);
expr ceil(const expr& x);
expr abs(const expr& x);
expr maximum(const expr& a, const expr& b);
expr minimum(const expr& a, const expr& b);
expr where(const expr& cond, const expr& a, const expr& b);
expr astype(const expr& x, dtype t);

// ---- shape --------------------------------------------------------------------------------------------------
expr reshape(const expr& x, shape_t shape);
expr permute(const expr& x, shape_t axes);
expr transpose(const expr& x);
expr expand_dims(const expr& x, std::int64_t axis);
expr broadcast_to(const expr& x, shape_t shape);

// ---- reductions and scans -----------------------------------------------------------------------------------
expr sum(const expr& x, std::int64_t axis, bool keepdims = false);
expr sum(const expr& x);  // over every element
expr prod(const expr& x, std::int64_t axis, bool keepdims = false);
expr max(const expr& x, std::int64_t axis, bool keepdims = false);
expr min(const expr& x, std::int64_t axis, bool keepdims = false);
expr argmax(const expr& x, std::int64_t axis, bool keepdims = false);
expr argmin(const expr& x, std::int64_t axis, bool keepdims = false);
expr cumsum(const expr& x, std::int64_t axis = 0, bool reverse = false);
expr cumprod(const expr& x, std::int64_t axis = 0, bool reverse = false);

// Custom reductions and scans (Python's tt.reduce / tt.scan): `combine(acc, item)` builds the combination of two
// scalar tiles of x's dtype; it must be associative (and, for reduce, commutative), with `identity` its neutral
// element. Unlike the expressions above these emit at once (x, then identity, then the combine region), which is
// the order Python evaluates tt.reduce(x, axis, combine, identity) in; name the result with let() as in Python.
using combine_fn = std::function<expr(const expr& acc, const expr& item)>;
expr reduce(const expr& x, std::int64_t axis, const combine_fn& combine, const expr& identity, bool keepdims = false);
expr scan(const expr& x, std::int64_t axis, const combine_fn& combine, const expr& identity, bool reverse = false);

// ---- matrix products ----------------------------------------------------------------------------------------
expr mma(const expr& a, const expr& b, const expr& acc, bool allow_tf32 = false);
expr matmul(const expr& a, const expr& b, bool allow_tf32 = false);  // Python's a @ b

// ---- statements ---------------------------------------------------------------------------------------------
// Python's `name = value`: emits the value and names it (the name shows in the IR).
expr let(const std::string& name, const expr& value);

// A variable that is assigned again (a loop-carried accumulator): `var acc("acc", zeros(...)); acc = ...;`.
class var {
 public:
  var(std::string name, const expr& value);
  var& operator=(const expr& value);  // Python's `acc = value` (emits and names it)
  operator expr() const { return current_; }  // NOLINT(google-explicit-constructor)
  const std::string& name() const { return name_; }
  void rebind(const expr& value) { current_ = value; }  // for loops: the region argument or result (no name)

 private:
  std::string name_;
  expr current_;
};

// `for i in range(lb, ub, step):` whose body updates the variables in `carried` (in the order the body first
// assigns them, which is the order Python uses for the loop's carried values).
void for_range(const expr& lb, const expr& ub, const expr& step, std::initializer_list<var*> carried,
               const std::function<void(const expr& i)>& body);
void for_range(const expr& ub, std::initializer_list<var*> carried, const std::function<void(const expr& i)>& body);

// A run-time `if cond: ... else: ...` (a C++ `if` decides at build time). `outs` are the variables either branch
// assigns, in Python's order (first assignment in then, then in else); each branch starts from their values before
// the if.
void if_(const expr& cond, std::initializer_list<var*> outs, const std::function<void()>& then_body,
         const std::function<void()>& else_body = {});

// `while cond(): body()`, carrying `carried` (the variables the body assigns that exist before the loop).
void while_(const std::function<expr()>& cond, std::initializer_list<var*> carried, const std::function<void()>& body);

}  // namespace tegula::tile
