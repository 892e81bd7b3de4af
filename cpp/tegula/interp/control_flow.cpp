// Ops with regions (for, if, while, custom reduce/scan) and the debugging ops (print, assert).
#include <cstdio>
#include <memory>

#include "tegula/interp/convert.hpp"
#include "tegula/interp/executor.hpp"
#include "tegula/interp/op_failure.hpp"
#include "tegula/interp/print_format.hpp"
#include "tegula/interp/reductions.hpp"
#include "tegula/interp/shape_ops.hpp"

namespace tegula::interp {
namespace {

std::int64_t loop_bound(const tile_value& t, const char* what) {
  if (t.rank() != 0 || t.kind() == repr::real)
    fail_op("loop ", what, " must be an integer scalar, got ", ir::name(t.dtype()), shape_string(t.shape()));
  return t.as_int(0);
}

bool condition(const tile_value& t) {
  if (t.rank() != 0 || t.dtype() != ir::dtype::b1)
    fail_op("condition must be a bool scalar, got ", ir::name(t.dtype()), shape_string(t.shape()));
  return t.truthy(0);
}

void expect_count(std::size_t got, std::size_t want, const char* what) {
  if (got != want) fail_op(what, " yields ", got, " values where ", want, " are expected");
}

}  // namespace

void executor::exec_for(const ir::op& o) {
  if (o.operands.size() < 3 || o.regions.size() != 1) fail_op("needs (lb, ub, step, init...) and one region");
  const ir::region& body = o.regions[0];
  const std::size_t n = o.operands.size() - 3;
  if (body.args.size() != n + 1) fail_op("body takes ", body.args.size(), " arguments for ", n, " carried values");
  const std::int64_t lb = loop_bound(operand(o, 0), "lower bound");
  const std::int64_t ub = loop_bound(operand(o, 1), "upper bound");
  const std::int64_t step = loop_bound(operand(o, 2), "step");
  if (step == 0) fail_op("step is zero");
  const ir::dtype iv_type = f_.type_of(body.args[0]).elem;
  std::vector<tile_ptr> args(n + 1);
  for (std::size_t i = 0; i < n; ++i) args[i + 1] = tile_ptr_of(o.operands[3 + i]);
  for (std::int64_t iv = lb; step > 0 ? iv < ub : iv > ub;) {
    args[0] = std::make_shared<const tile_value>(scalar_of_int(iv, iv_type));
    std::vector<tile_ptr> next = run_region(body, args);
    expect_count(next.size(), n, "the loop body");
    for (std::size_t i = 0; i < n; ++i) args[i + 1] = std::move(next[i]);
    if (__builtin_add_overflow(iv, step, &iv)) break;  // past any int64 bound
  }
  expect_count(o.results.size(), n, "the loop");
  for (std::size_t i = 0; i < n; ++i) set(o.results[i], args[i + 1]);
}

void executor::exec_if(const ir::op& o) {
  if (o.operands.size() != 1 || o.regions.size() != 2) fail_op("needs (cond) and two regions");
  const bool c = condition(operand(o, 0));
  std::vector<tile_ptr> out = run_region(o.regions[c ? 0 : 1], {});
  expect_count(out.size(), o.results.size(), c ? "the then-region" : "the else-region");
  for (std::size_t i = 0; i < out.size(); ++i) set(o.results[i], std::move(out[i]));
}

void executor::exec_while(const ir::op& o) {
  if (o.regions.size() != 2) fail_op("needs a before-region and an after-region");
  std::vector<tile_ptr> carried;
  for (ir::value_id v : o.operands) carried.push_back(tile_ptr_of(v));
  for (;;) {
    std::vector<tile_ptr> y = run_region(o.regions[0], carried);
    if (y.empty()) fail_op("the before-region must yield a condition first");
    std::vector<tile_ptr> forwarded(y.begin() + 1, y.end());
    if (!condition(*y[0])) {
      expect_count(forwarded.size(), o.results.size(), "the before-region");
      for (std::size_t i = 0; i < forwarded.size(); ++i) set(o.results[i], std::move(forwarded[i]));
      return;
    }
    carried = run_region(o.regions[1], forwarded);
  }
}

void executor::exec_custom_fold(const ir::op& o, bool scan) {
  if (o.operands.size() != 2 || o.regions.size() != 1) fail_op("needs (tile, identity) and one region");
  const tile_value& x = operand(o, 0);
  const tile_ptr& identity = tile_ptr_of(o.operands[1]);
  const int axis = normalize_axis(o.int_attr("axis"), x.rank());
  const ir::region& body = o.regions[0];
  if (body.args.size() != 2) fail_op("the combiner takes (acc, x), it has ", body.args.size(), " arguments");
  const combine_fn combine = [&](const tile_ptr& acc, const tile_ptr& e) {
    std::vector<tile_ptr> y = run_region(body, {acc, e});
    expect_count(y.size(), 1, "the combiner");
    return y[0];
  };
  const ir::attribute* flag = o.attr(scan ? "reverse" : "keepdims");
  const bool on = flag && std::holds_alternative<std::int64_t>(*flag) && std::get<std::int64_t>(*flag) != 0;
  set_result(o, scan ? custom_scan(x, identity, axis, on, combine) : custom_reduce(x, identity, axis, on, combine));
}

void executor::exec_print(const ir::op& o) {
  std::vector<const tile_value*> tiles;
  for (std::size_t i = 0; i < o.operands.size(); ++i) tiles.push_back(&operand(o, i));
  std::string format;
  if (const ir::attribute* a = o.attr("format"); a && std::holds_alternative<std::string>(*a)) {
    format = std::get<std::string>(*a);
  } else {
    for (std::size_t i = 0; i < tiles.size(); ++i) format += i ? " {}" : "{}";
  }
  // The prefix is codegen's; a tile operand prints whole here (the GPU prints it per element).
  const std::string line = str("[block ", block_string(), "] ", format_print(format, tiles), "\n");
  std::fputs(line.c_str(), stdout);
  std::fflush(stdout);
}

void executor::exec_assert(const ir::op& o) {
  const tile_value& c = operand(o, 0);
  if (c.dtype() != ir::dtype::b1) fail_op("operand must be bool, got ", ir::name(c.dtype()));
  for (std::int64_t i = 0; i < c.numel(); ++i) {
    if (c.truthy(i)) continue;
    std::string message;
    if (const ir::attribute* a = o.attr("message"); a && std::holds_alternative<std::string>(*a))
      message = std::get<std::string>(*a);
    fail_located(o, str("assert failed in block ", block_string(), message.empty() ? "" : ": ", message));
  }
}

}  // namespace tegula::interp
