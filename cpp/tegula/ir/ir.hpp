// The tile IR: typed SSA values, ops with attributes and nested regions, and functions.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "tegula/ir/dtype.hpp"

namespace tegula::ir {

enum class op_kind : std::uint8_t {
#define TEGULA_OP(id, text, operands, results, regions, ...) id,
#include "tegula/ir/ops.def"
#undef TEGULA_OP
};

struct op_info {
  const char* text;
  int operands;  // -1: variadic
  int results;   // -1: variadic
  int regions;
};
const op_info& info(op_kind k);
std::optional<op_kind> op_from_text(const std::string& text);

// A tile of static shape (rank 0: a scalar), or an array: a kernel parameter in global memory
// with a dtype and a rank whose extents and strides are known only at run time.
struct type {
  enum class kind : std::uint8_t { tile, array };
  kind k = kind::tile;
  dtype elem = dtype::f32;
  std::vector<std::int64_t> shape;  // tile: the extents; array: size() is the rank, entries unused (-1)

  static type tile(dtype e, std::vector<std::int64_t> shape = {}) { return {kind::tile, e, std::move(shape)}; }
  static type array(dtype e, int rank) { return {kind::array, e, std::vector<std::int64_t>(rank, -1)}; }
  bool is_tile() const { return k == kind::tile; }
  bool is_array() const { return k == kind::array; }
  bool is_scalar() const { return is_tile() && shape.empty(); }
  int rank() const { return int(shape.size()); }
  std::int64_t numel() const;  // tiles only
  bool operator==(const type& o) const { return k == o.k && elem == o.elem && shape == o.shape; }
  bool operator!=(const type& o) const { return !(*this == o); }
};
std::string to_string(const type& t);  // "tile<float32, 128x64>", "tile<int32>", "array<float32, 2>"

// Where an op came from in the user's source (for error messages).
struct location {
  std::string file;
  int line = 0;
  int column = 0;
  bool known() const { return line > 0; }
};
std::string to_string(const location& l);  // "file.py:12:5", or "" when unknown

using value_id = std::int32_t;  // index into function::values

// Attribute values. Lists of ints are shapes, permutations and axes.
using attribute = std::variant<std::int64_t, double, std::string, std::vector<std::int64_t>, dtype>;

struct region;

struct op {
  op_kind kind;
  std::vector<value_id> operands;
  std::vector<value_id> results;
  std::vector<std::pair<std::string, attribute>> attrs;  // kept sorted by name (printer order)
  std::vector<region> regions;
  location loc;

  const attribute* attr(const std::string& name) const;
  std::int64_t int_attr(const std::string& name) const;  // throws internal error when absent or not an int
  double float_attr(const std::string& name) const;       // accepts an int attribute too
  const std::string& string_attr(const std::string& name) const;
  const std::vector<std::int64_t>& ints_attr(const std::string& name) const;
  dtype dtype_attr(const std::string& name) const;
  void set_attr(const std::string& name, attribute value);  // keeps attrs sorted
};

struct region {
  std::vector<value_id> args;  // block arguments (loop induction variable, carried values)
  std::vector<op> ops;         // the last op is a yield
};

struct value_info {
  type t;
  std::string name;  // optional: the user's variable name, for printing and messages
};

struct param {
  value_id value;
  std::string name;
};

// Functions are values: passes take one and return a new one (DESIGN.md rule 2).
struct function {
  std::string name;
  std::vector<param> params;
  std::vector<value_info> values;  // every SSA value's type, indexed by value_id
  region body;                     // args unused; ends with yield of nothing
  location loc;

  value_id new_value(type t, std::string name = {});
  const type& type_of(value_id v) const { return values.at(std::size_t(v)).t; }
};

}  // namespace tegula::ir
