// Codegen tests' helper: builds post-pass tile IR from the ir.hpp structs and compiles kernels.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "nvrtc_available.hpp"
#include "tegula/codegen/cuda.hpp"
#include "tegula/ir/ir.hpp"
#include "tegula/jit/nvrtc.hpp"

namespace tegula::codegen::test {

using ir::dtype;
using ir::op_kind;
using ir::value_id;
using attrs = std::vector<std::pair<std::string, ir::attribute>>;
using shape = std::vector<std::int64_t>;

inline ir::type tile(dtype d, shape s = {}) { return ir::type::tile(d, std::move(s)); }

// Ops go to the innermost open region; control-flow helpers open nested regions for their bodies.
struct kernel {
  ir::function f;
  std::vector<ir::region> open_regions{1};  // [0]: the function body
  int line = 1;                              // every op gets test.py:<line>, counting up

  explicit kernel(std::string name = "k") { f.name = std::move(name); }

  value_id array(const std::string& name, dtype d, int rank) { return param(name, ir::type::array(d, rank)); }
  value_id scalar(const std::string& name, dtype d) { return param(name, tile(d)); }
  value_id param(const std::string& name, ir::type t) {
    value_id v = f.new_value(std::move(t), name);
    f.params.push_back({v, name});
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
    o.loc = {"test.py", line++, 1};
    auto r = o.results;
    open_regions.back().ops.push_back(std::move(o));
    return r;
  }
  value_id op1(op_kind k, std::vector<value_id> operands, ir::type result, const attrs& a = {}) {
    return op(k, std::move(operands), {std::move(result)}, a)[0];
  }
  value_id named(value_id v, const std::string& n) {
    f.values[std::size_t(v)].name = n;
    return v;
  }
  const ir::type& type_of(value_id v) const { return f.type_of(v); }

  // Elementwise op whose result has the first operand's type (comparisons: bool).
  value_id ew(op_kind k, std::vector<value_id> xs) {
    ir::type t = type_of(xs.back());
    if (k == op_kind::eq || k == op_kind::ne || k == op_kind::lt || k == op_kind::le || k == op_kind::gt ||
        k == op_kind::ge)
      t.elem = dtype::b1;
    return op1(k, std::move(xs), t);
  }
  value_id constant(double v, ir::type t) { return op1(op_kind::constant, {}, t, {{"value", v}, {"dtype", t.elem}}); }
  value_id iconst(std::int64_t v, ir::type t) { return op1(op_kind::constant, {}, t, {{"value", v}, {"dtype", t.elem}}); }
  value_id i32(std::int64_t v) { return iconst(v, tile(dtype::i32)); }
  value_id bid(int axis = 0) { return op1(op_kind::block_id, {}, tile(dtype::i32), {{"axis", std::int64_t(axis)}}); }
  value_id nblocks(int axis = 0) { return op1(op_kind::num_blocks, {}, tile(dtype::i32), {{"axis", std::int64_t(axis)}}); }
  value_id load(value_id a, std::vector<value_id> index, shape s, const std::string& padding = "zero") {
    std::vector<value_id> ops{a};
    ops.insert(ops.end(), index.begin(), index.end());
    return op1(op_kind::load, ops, tile(type_of(a).elem, s), {{"shape", s}, {"padding", padding}});
  }
  void store(value_id a, std::vector<value_id> index, value_id t) {
    std::vector<value_id> ops{a};
    ops.insert(ops.end(), index.begin(), index.end());
    ops.push_back(t);
    op(op_kind::store, ops);
  }
  value_id broadcast(value_id v, shape s) {
    return op1(op_kind::broadcast_to, {v}, tile(type_of(v).elem, s), {{"shape", s}});
  }
  // sum/max/... along `axis`; the result dtype is given (sum of int32 is int64).
  value_id reduce(op_kind k, value_id v, int axis, bool keepdims, dtype result) {
    shape s = type_of(v).shape;
    if (keepdims) s[std::size_t(axis)] = 1;
    else s.erase(s.begin() + axis);
    return op1(k, {v}, tile(result, s), {{"axis", std::int64_t(axis)}, {"keepdims", std::int64_t(keepdims)}});
  }

  // for iv in range(lb, ub, step) carrying `init`; body returns the yielded values.
  std::vector<value_id> for_(value_id lb, value_id ub, value_id step, std::vector<value_id> init,
                             const std::function<std::vector<value_id>(value_id, std::vector<value_id>)>& body) {
    open_regions.emplace_back();
    value_id iv = arg(type_of(lb));
    std::vector<value_id> carried;
    for (value_id v : init) carried.push_back(arg(type_of(v)));
    ir::region r = close(body(iv, carried));
    std::vector<ir::type> results;
    for (value_id v : init) results.push_back(type_of(v));
    std::vector<value_id> ops{lb, ub, step};
    ops.insert(ops.end(), init.begin(), init.end());
    std::vector<ir::region> regions;
    regions.push_back(std::move(r));
    return op(op_kind::for_, ops, results, {}, std::move(regions));
  }
  std::vector<value_id> if_(value_id cond, std::vector<ir::type> results, const std::function<std::vector<value_id>()>& then_,
                            const std::function<std::vector<value_id>()>& else_) {
    std::vector<ir::region> regions;
    open_regions.emplace_back();
    regions.push_back(close(then_()));
    open_regions.emplace_back();
    regions.push_back(close(else_()));
    return op(op_kind::if_, {cond}, results, {}, std::move(regions));
  }
  // while: before(args) returns {cond, forwarded...}; after(forwarded) returns the next args.
  std::vector<value_id> while_(std::vector<value_id> init,
                               const std::function<std::vector<value_id>(std::vector<value_id>)>& before,
                               const std::function<std::vector<value_id>(std::vector<value_id>)>& after) {
    std::vector<ir::region> regions;
    open_regions.emplace_back();
    std::vector<value_id> args;
    for (value_id v : init) args.push_back(arg(type_of(v)));
    std::vector<value_id> y = before(args);
    regions.push_back(close(y));
    std::vector<ir::type> fwd;
    for (std::size_t i = 1; i < y.size(); ++i) fwd.push_back(type_of(y[i]));
    open_regions.emplace_back();
    std::vector<value_id> aargs;
    for (const auto& t : fwd) aargs.push_back(arg(t));
    regions.push_back(close(after(aargs)));
    return op(op_kind::while_, init, fwd, {}, std::move(regions));
  }
  // Custom reduce/scan with a combine region (acc, x) -> combined, both scalars of the tile dtype.
  value_id combine_op(op_kind k, value_id v, value_id identity, ir::type result, const attrs& a,
                      const std::function<value_id(value_id, value_id)>& combine) {
    open_regions.emplace_back();
    value_id acc = arg(tile(type_of(v).elem));
    value_id x = arg(tile(type_of(v).elem));
    std::vector<ir::region> regions;
    regions.push_back(close({combine(acc, x)}));
    return op(k, {v, identity}, {result}, a, std::move(regions))[0];
  }

  value_id arg(ir::type t) {
    value_id v = f.new_value(std::move(t));
    open_regions.back().args.push_back(v);
    return v;
  }
  ir::region close(std::vector<value_id> yielded) {
    op(op_kind::yield, std::move(yielded));
    ir::region r = std::move(open_regions.back());
    open_regions.pop_back();
    return r;
  }
  const ir::function& finish() {
    op(op_kind::yield, {});
    f.body = std::move(open_regions[0]);
    open_regions.clear();
    return f;
  }
};

inline bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// Compiles generated source for sm_90 (CUBIN) with tegula's NVRTC; fails the test with the log.
inline void expect_compiles(const kernel_source& k) {
  jit::compile_request r;
  r.source = k.source;
  r.name = k.name + ".cu";
  r.arch = 90;
  r.kind = jit::target::cubin;
  try {
    jit::compile_result out = jit::nvrtc_compile(r);
    EXPECT_EQ(out.code.substr(0, 4), "\x7f" "ELF");
    EXPECT_EQ(out.log.find("error"), std::string::npos) << out.log;
  } catch (const tegula::error& e) {
    ADD_FAILURE() << e.what() << "\n---- source ----\n" << k.source;
  }
}

// Every array contiguous and 16-byte aligned (what a launcher passes for fresh arrays).
inline options dense(const ir::function& f) {
  options o;
  for (const ir::param& p : f.params)
    if (f.type_of(p.value).is_array()) o.arrays.push_back({true, true});
  return o;
}

}  // namespace tegula::codegen::test
