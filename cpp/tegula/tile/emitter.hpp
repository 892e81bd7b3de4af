// Emission of C++ tile-language expressions into tile IR, mirroring python/tegula/tile/_emit.py and the Python
// front end call for call (weak scalars, the float rule of unary functions, index constants, casts before stores,
// the carried values of loops), so both front ends give the same IR.
#pragma once
#include <string>
#include <vector>

#include "tegula/ir/builder.hpp"
#include "tegula/tile/expr.hpp"

namespace tegula::tile {

// What emitting an expression gave: a static number, or an IR value.
struct emitted {
  bool is_number = false;
  number num;
  ir::value_id id = -1;
};

class emitter {
 public:
  explicit emitter(ir::builder& b) : b_(b) {}
  ir::builder& builder() { return b_; }

  emitted emit(const expr& e);
  ir::value_id as_tile(const emitted& v);                        // a number becomes a constant (int32/int64/float32/bool)
  ir::value_id as_tile(const emitted& v, ir::value_id like);     // a number becomes a weak scalar next to `like`
  ir::value_id cast(ir::value_id v, ir::dtype to) { return b_.cast(v, to); }
  const ir::type& type_of(ir::value_id v) const { return b_.func().type_of(v); }
  ir::value_id index_scalar(const emitted& v);                   // a tile index: an integer scalar (int32 constant)
  void set_name(ir::value_id v, const std::string& name) { b_.func().values.at(std::size_t(v)).name = name; }
  // Loop bodies: expressions first emitted inside a region are emitted again when used after it.
  void open_region();
  void close_region();

  // The current emitter (set while a kernel body runs); statements and emission use it.
  static emitter& current();
  struct scope {
    explicit scope(emitter& e);
    ~scope();
    emitter* previous;
  };

 private:
  ir::value_id emit_op(node& n);
  ir::value_id binary(const std::string& op, const emitted& a, const emitted& b);
  ir::value_id unary(const std::string& op, const emitted& x);
  ir::value_id reduce(const std::string& op, node& n, const emitted& x);
  std::int64_t axis_of(const std::string& op, ir::value_id t, std::int64_t axis);

  ir::builder& b_;
  std::vector<std::vector<node*>> regions_;
};

}  // namespace tegula::tile
