// The interpreter's machine: SSA values of one block's run, region execution and op dispatch.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "tegula/interp/arguments.hpp"
#include "tegula/interp/interpreter.hpp"
#include "tegula/interp/tile_value.hpp"
#include "tegula/ir/ir.hpp"

namespace tegula::interp {

class executor {
 public:
  executor(const ir::function& f, std::array<std::int64_t, 3> grid);

  void bind(const bound_param& p);                  // parameter values (once, for all blocks)
  void run_block(std::array<std::int64_t, 3> block);  // runs the function body

  // Binds the region's arguments, runs its ops, returns the operands of its final yield
  // (nothing when it has none). Each op's op_failure becomes a located tegula::error.
  std::vector<tile_ptr> run_region(const ir::region& r, const std::vector<tile_ptr>& args);

 private:
  void exec(const ir::op& o);  // the one switch over ir::op_kind (op_dispatch.cpp)

  // Control flow and region combiners (control_flow.cpp).
  void exec_for(const ir::op& o);
  void exec_if(const ir::op& o);
  void exec_while(const ir::op& o);
  void exec_custom_fold(const ir::op& o, bool scan);
  void exec_print(const ir::op& o);
  void exec_assert(const ir::op& o);

  const tile_ptr& tile_ptr_of(ir::value_id v) const;
  const tile_value& tile(ir::value_id v) const { return *tile_ptr_of(v); }
  const tile_value& operand(const ir::op& o, std::size_t i) const;
  const array_arg& array(ir::value_id v) const;
  // Sets a value after checking its dtype and shape against the IR's type (internal error if not).
  void set(ir::value_id v, tile_ptr t);
  void set_result(const ir::op& o, tile_value t);

  std::string block_string() const;  // "(3, 0, 0)"
  // "<loc>: <text>", as tegula::error(invalid_argument); "<loc>: " is left out when unknown.
  [[noreturn]] void fail_located(const ir::op& o, const std::string& text) const;
  // "<loc>: <op>: <what> in block (x, y, z)"
  [[noreturn]] void fail_at(const ir::op& o, const std::string& what) const;

  const ir::function& f_;
  std::array<std::int64_t, 3> grid_;
  std::array<std::int64_t, 3> block_{0, 0, 0};
  std::vector<tile_ptr> tiles_;             // by value_id; null for arrays and unset values
  std::vector<const array_arg*> arrays_;    // by value_id; null for tiles
};

}  // namespace tegula::interp
