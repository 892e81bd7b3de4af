// Interpreter tests' helper: builds tile IR straight from the ir.hpp structs (no builder or parser).
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tegula/interp/interpreter.hpp"
#include "tegula/ir/ir.hpp"

namespace tegula::interp::test {

using ir::dtype;
using ir::op_kind;
using ir::value_id;
using attrs = std::vector<std::pair<std::string, ir::attribute>>;

inline ir::type tile(dtype d, std::vector<std::int64_t> shape = {}) { return ir::type::tile(d, std::move(shape)); }
inline ir::type array(dtype d, int rank) { return ir::type::array(d, rank); }

// Ops go to the innermost open region; open() starts a nested one, close() ends it with a yield
// and hands it back for the op that owns it.
struct kernel {
  ir::function f;
  std::vector<ir::region> open_regions{1};  // [0]: the function body
  ir::location loc;                         // given to every op created from now on

  explicit kernel(std::string name = "k") { f.name = std::move(name); }

  value_id param(const std::string& name, ir::type t) {
    value_id v = f.new_value(std::move(t), name);
    f.params.push_back({v, name});
    return v;
  }
  value_id arg(ir::type t) {  // a block argument of the innermost open region
    value_id v = f.new_value(std::move(t));
    open_regions.back().args.push_back(v);
    return v;
  }
  std::vector<value_id> op(op_kind k, std::vector<value_id> operands, std::vector<ir::type> results = {},
                           const attrs& a = {}, std::vector<ir::region> regions = {}) {
    ir::op o;
    o.kind = k;
    o.operands = std::move(operands);
    for (auto& t : results) o.results.push_back(f.new_value(std::move(t)));
    for (const auto& [n, v] : a) o.set_attr(n, v);
    o.regions = std::move(regions);
    o.loc = loc;
    auto r = o.results;
    open_regions.back().ops.push_back(std::move(o));
    return r;
  }
  value_id op1(op_kind k, std::vector<value_id> operands, ir::type result, const attrs& a = {}) {
    return op(k, std::move(operands), {std::move(result)}, a)[0];
  }
  value_id constant(double v, ir::type t) { return op1(op_kind::constant, {}, std::move(t), {{"value", v}}); }
  value_id iconst(std::int64_t v, ir::type t) { return op1(op_kind::constant, {}, std::move(t), {{"value", v}}); }
  value_id i32(std::int64_t v) { return iconst(v, tile(dtype::i32)); }
  value_id bid(int axis = 0) { return op1(op_kind::block_id, {}, tile(dtype::i32), {{"axis", std::int64_t(axis)}}); }

  void open() { open_regions.emplace_back(); }
  ir::region close(std::vector<value_id> yielded) {
    op(op_kind::yield, std::move(yielded));
    ir::region r = std::move(open_regions.back());
    open_regions.pop_back();
    return r;
  }
  // Ends the body (call once) and returns the function.
  const ir::function& finish() {
    op(op_kind::yield, {});
    f.body = std::move(open_regions[0]);
    open_regions.clear();
    return f;
  }
};

template <class T> dtype dtype_of();
template <> inline dtype dtype_of<float>() { return dtype::f32; }
template <> inline dtype dtype_of<double>() { return dtype::f64; }
template <> inline dtype dtype_of<std::int8_t>() { return dtype::i8; }
template <> inline dtype dtype_of<std::int32_t>() { return dtype::i32; }
template <> inline dtype dtype_of<std::int64_t>() { return dtype::i64; }
template <> inline dtype dtype_of<std::uint8_t>() { return dtype::u8; }
template <> inline dtype dtype_of<std::uint32_t>() { return dtype::u32; }

// A row-major view of v (or any strides given, in elements, from data).
template <class T>
array_arg view(std::vector<T>& v, std::vector<std::int64_t> shape, std::vector<std::int64_t> strides = {},
               std::int64_t first = 0, dtype d = dtype_of<T>()) {
  if (strides.empty()) {
    strides.assign(shape.size(), 1);
    for (int i = int(shape.size()) - 2; i >= 0; --i) strides[std::size_t(i)] = strides[std::size_t(i) + 1] * shape[std::size_t(i) + 1];
  }
  return array_arg{v.data() + first, d, std::move(shape), std::move(strides)};
}

}  // namespace tegula::interp::test
