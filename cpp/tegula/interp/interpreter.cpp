// The CPU interpreter's entry point and machine core: values, regions, located errors.
#include "tegula/interp/interpreter.hpp"

#include <chrono>

#include "tegula/interp/executor.hpp"
#include "tegula/interp/op_failure.hpp"
#include "tegula/support/error.hpp"

namespace tegula::interp {

executor::executor(const ir::function& f, std::array<std::int64_t, 3> grid)
    : f_(f), grid_(grid), tiles_(f.values.size()), arrays_(f.values.size(), nullptr) {}

void executor::bind(const bound_param& p) {
  if (p.array) arrays_.at(std::size_t(p.value)) = p.array;
  else set(p.value, p.scalar);
}

void executor::run_block(std::array<std::int64_t, 3> block) {
  block_ = block;
  run_region(f_.body, {});
}

std::vector<tile_ptr> executor::run_region(const ir::region& r, const std::vector<tile_ptr>& args) {
  if (args.size() != r.args.size())
    fail(error_kind::internal, "region takes ", r.args.size(), " arguments, given ", args.size());
  for (std::size_t i = 0; i < args.size(); ++i) set(r.args[i], args[i]);
  for (const ir::op& o : r.ops) {
    try {
      if (o.kind == ir::op_kind::yield) {
        std::vector<tile_ptr> out;
        out.reserve(o.operands.size());
        for (ir::value_id v : o.operands) out.push_back(tile_ptr_of(v));
        return out;
      }
      exec(o);
    } catch (const op_failure& e) {
      fail_at(o, e.what());
    } catch (const located_error&) {
      throw;  // from an op nested in o's regions
    } catch (const error& e) {
      // E.g. a missing attribute (internal): keep the kind, add where it happened.
      const std::string loc = ir::to_string(o.loc);
      throw located_error(e.kind(), str(loc.empty() ? "" : loc + ": ", ir::info(o.kind).text, ": ", e.what(),
                                        " in block ", block_string()));
    }
  }
  return {};
}

const tile_ptr& executor::tile_ptr_of(ir::value_id v) const {
  const tile_ptr& t = tiles_.at(std::size_t(v));
  if (!t) {
    if (arrays_[std::size_t(v)]) fail_op("value %", v, " is an array where a tile is expected");
    fail_op("value %", v, " is used before it is defined");
  }
  return t;
}

const tile_value& executor::operand(const ir::op& o, std::size_t i) const {
  if (i >= o.operands.size()) fail_op("missing operand ", i);
  return tile(o.operands[i]);
}

const array_arg& executor::array(ir::value_id v) const {
  const array_arg* a = arrays_.at(std::size_t(v));
  if (!a) fail_op("value %", v, " is not an array argument");
  return *a;
}

void executor::set(ir::value_id v, tile_ptr t) {
  const ir::type& want = f_.type_of(v);
  if (!t || !want.is_tile() || t->dtype() != want.elem || t->shape() != want.shape)
    fail(error_kind::internal, "interpreter computed ",
         t ? str(ir::name(t->dtype()), shape_string(t->shape())) : std::string("nothing"), " for %", v, " of type ",
         ir::to_string(want));
  tiles_[std::size_t(v)] = std::move(t);
}

void executor::set_result(const ir::op& o, tile_value t) {
  if (o.results.size() != 1) fail_op("expected one result, the op has ", o.results.size());
  set(o.results[0], std::make_shared<const tile_value>(std::move(t)));
}

std::string executor::block_string() const {
  return str("(", block_[0], ", ", block_[1], ", ", block_[2], ")");
}

void executor::fail_located(const ir::op& o, const std::string& text) const {
  const std::string loc = ir::to_string(o.loc);
  throw located_error(error_kind::invalid_argument, loc.empty() ? text : loc + ": " + text);
}

void executor::fail_at(const ir::op& o, const std::string& what) const {
  fail_located(o, str(ir::info(o.kind).text, ": ", what, " in block ", block_string()));
}

void run(const ir::function& f, const std::vector<argument>& args, std::array<std::int64_t, 3> grid,
         const std::function<bool()>& interrupted) {
  for (int d = 0; d < 3; ++d)
    if (grid[std::size_t(d)] < 0)
      fail(error_kind::invalid_argument, "kernel '", f.name, "': grid (", grid[0], ", ", grid[1], ", ", grid[2],
           ") has a negative extent");
  const std::vector<bound_param> bound = bind_arguments(f, args);
  executor m(f, grid);
  for (const bound_param& p : bound) m.bind(p);
  auto last = std::chrono::steady_clock::now();
  std::int64_t since = 0;
  for (std::int64_t z = 0; z < grid[2]; ++z)
    for (std::int64_t y = 0; y < grid[1]; ++y)
      for (std::int64_t x = 0; x < grid[0]; ++x) {
        m.run_block({x, y, z});
        if (interrupted && ++since >= 16) {  // look at the clock every 16 blocks, ask every 20 ms
          since = 0;
          auto now = std::chrono::steady_clock::now();
          if (now - last > std::chrono::milliseconds(20)) {
            last = now;
            if (interrupted())
              fail(error_kind::interrupted, "kernel '", f.name, "' interrupted at block (", x, ", ", y, ", ", z, ")");
          }
        }
      }
}

}  // namespace tegula::interp
