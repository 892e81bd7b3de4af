// The IR builder's control flow: begin_/end_ pairs that build for, if, while, reduce and scan regions.
#include <algorithm>

#include "tegula/ir/builder.hpp"
#include "tegula/ir/infer.hpp"

namespace tegula::ir {
namespace {

std::string types_of(const function& f, const std::vector<value_id>& vs) {
  std::string s;
  for (std::size_t i = 0; i < vs.size(); ++i) s += (i ? ", " : "") + to_string(f.type_of(vs[i]));
  return "(" + s + ")";
}

std::vector<type> types_vector(const function& f, const std::vector<value_id>& vs) {
  std::vector<type> t;
  for (value_id v : vs) t.push_back(f.type_of(v));
  return t;
}

}  // namespace

// Invariant: while a region is open, only its own op list grows; every op list further out is
// untouched, so each frame's `parent` pointer and `op_index` stay valid until the frame is popped.

builder::loop_args builder::begin_for(value_id lb, value_id ub, value_id step, std::vector<value_id> init) {
  for (value_id v : {lb, ub, step}) {
    const type& t = f_.type_of(v);
    if (!t.is_scalar() || !is_int(t.elem))
      error(error_kind::type_error, str("for: bounds and step must be integer scalars, got ", to_string(t)));
  }
  dtype d = promote(promote(f_.type_of(lb).elem, f_.type_of(ub).elem), f_.type_of(step).elem);
  if (!is_int(d)) d = dtype::i64;  // int64 with uint64 promotes to float64: use int64 instead
  lb = cast(lb, d), ub = cast(ub, d), step = cast(step, d);
  for (value_id v : init)
    if (f_.type_of(v).is_array()) error(error_kind::type_error, "for: carried values must be tiles");
  op o{op_kind::for_, {lb, ub, step}, {}, {}, {region{}}, loc_};
  o.operands.insert(o.operands.end(), init.begin(), init.end());
  loop_args args;
  args.iv = f_.new_value(type::tile(d));
  o.regions[0].args.push_back(args.iv);
  for (value_id v : init) args.carried.push_back(f_.new_value(f_.type_of(v)));
  o.regions[0].args.insert(o.regions[0].args.end(), args.carried.begin(), args.carried.end());
  std::vector<op>& ops = current_ops();
  ops.push_back(std::move(o));
  stack_.push_back({ops.size() - 1, 0, &ops});
  return args;
}

std::vector<value_id> builder::end_for(std::vector<value_id> yielded) {
  if (stack_.empty() || (*stack_.back().parent)[stack_.back().op_index].kind != op_kind::for_)
    error(error_kind::invalid_argument, "end_for without a matching begin_for");
  open_region r = stack_.back();
  op& o = (*r.parent)[r.op_index];
  std::vector<value_id> init(o.operands.begin() + 3, o.operands.end());
  if (types_vector(f_, yielded) != types_vector(f_, init))
    error(error_kind::type_error, str("for: the loop body yields ", types_of(f_, yielded), " but the carried values are ",
                                      types_of(f_, init)));
  current_ops().push_back(op{op_kind::yield, yielded, {}, {}, {}, loc_});
  stack_.pop_back();
  for (value_id v : init) o.results.push_back(f_.new_value(f_.type_of(v)));
  return o.results;
}

void builder::begin_if(value_id cond) {
  const type& t = f_.type_of(cond);
  if (t != type::tile(dtype::b1)) error(error_kind::type_error, str("if: condition must be a bool scalar, got ", to_string(t)));
  std::vector<op>& ops = current_ops();
  ops.push_back(op{op_kind::if_, {cond}, {}, {}, {region{}, region{}}, loc_});
  stack_.push_back({ops.size() - 1, 0, &ops});
}

void builder::begin_else(std::vector<value_id> then_yielded) {
  if (stack_.empty() || stack_.back().region != 0 || (*stack_.back().parent)[stack_.back().op_index].kind != op_kind::if_)
    error(error_kind::invalid_argument, "begin_else without a matching begin_if");
  current_ops().push_back(op{op_kind::yield, std::move(then_yielded), {}, {}, {}, loc_});
  stack_.back().region = 1;
}

std::vector<value_id> builder::end_if(std::vector<value_id> else_yielded) {
  if (stack_.empty() || stack_.back().region != 1 || (*stack_.back().parent)[stack_.back().op_index].kind != op_kind::if_)
    error(error_kind::invalid_argument, "end_if without a matching begin_else");
  open_region r = stack_.back();
  op& o = (*r.parent)[r.op_index];
  const std::vector<value_id>& then_yielded = o.regions[0].ops.back().operands;
  if (types_vector(f_, then_yielded) != types_vector(f_, else_yielded))
    error(error_kind::type_error, str("if: the then branch yields ", types_of(f_, then_yielded), " but the else branch yields ",
                                      types_of(f_, else_yielded)));
  current_ops().push_back(op{op_kind::yield, else_yielded, {}, {}, {}, loc_});
  stack_.pop_back();
  for (value_id v : else_yielded) o.results.push_back(f_.new_value(f_.type_of(v)));
  return o.results;
}

builder::loop_args builder::begin_while(std::vector<value_id> init) {
  for (value_id v : init)
    if (f_.type_of(v).is_array()) error(error_kind::type_error, "while: carried values must be tiles");
  op o{op_kind::while_, init, {}, {}, {region{}, region{}}, loc_};
  loop_args args;
  for (value_id v : init) args.carried.push_back(f_.new_value(f_.type_of(v)));
  o.regions[0].args = args.carried;
  std::vector<op>& ops = current_ops();
  ops.push_back(std::move(o));
  stack_.push_back({ops.size() - 1, 0, &ops});
  return args;
}

builder::loop_args builder::while_do(value_id cond, std::vector<value_id> forwarded) {
  if (stack_.empty() || stack_.back().region != 0 || (*stack_.back().parent)[stack_.back().op_index].kind != op_kind::while_)
    error(error_kind::invalid_argument, "while_do without a matching begin_while");
  const type& t = f_.type_of(cond);
  if (t != type::tile(dtype::b1)) error(error_kind::type_error, str("while: condition must be a bool scalar, got ", to_string(t)));
  std::vector<value_id> yielded{cond};
  yielded.insert(yielded.end(), forwarded.begin(), forwarded.end());
  current_ops().push_back(op{op_kind::yield, std::move(yielded), {}, {}, {}, loc_});
  open_region& r = stack_.back();
  r.region = 1;
  loop_args args;
  for (value_id v : forwarded) args.carried.push_back(f_.new_value(f_.type_of(v)));
  (*r.parent)[r.op_index].regions[1].args = args.carried;
  return args;
}

std::vector<value_id> builder::end_while(std::vector<value_id> yielded) {
  if (stack_.empty() || stack_.back().region != 1 || (*stack_.back().parent)[stack_.back().op_index].kind != op_kind::while_)
    error(error_kind::invalid_argument, "end_while without a matching while_do");
  open_region r = stack_.back();
  op& o = (*r.parent)[r.op_index];
  if (types_vector(f_, yielded) != types_vector(f_, o.operands))
    error(error_kind::type_error, str("while: the loop body yields ", types_of(f_, yielded), " but the carried values are ",
                                      types_of(f_, o.operands)));
  current_ops().push_back(op{op_kind::yield, yielded, {}, {}, {}, loc_});
  stack_.pop_back();
  const std::vector<value_id>& before_yield = o.regions[0].ops.back().operands;
  for (std::size_t i = 1; i < before_yield.size(); ++i) o.results.push_back(f_.new_value(f_.type_of(before_yield[i])));
  return o.results;
}

builder::loop_args builder::begin_reduce(op_kind k, value_id tile, value_id identity, std::int64_t axis, bool flag) {
  if (k != op_kind::reduce && k != op_kind::scan)
    error(error_kind::invalid_argument, str("begin_reduce needs reduce or scan, got '", info(k).text, "'"));
  const char* text = info(k).text;
  const type t = f_.type_of(tile);
  if (!t.is_tile() || t.rank() < 1) error(error_kind::invalid_argument, str(text, ": input must be a tile of rank >= 1, got ", to_string(t)));
  if (!normalize_axis(axis, t.rank()))
    error(error_kind::invalid_argument, str(text, ": axis ", axis, " is out of range for rank ", t.rank()));
  if (!f_.type_of(identity).is_scalar())
    error(error_kind::type_error, str(text, ": identity must be a scalar, got ", to_string(f_.type_of(identity))));
  identity = cast(identity, t.elem);
  op o{k, {tile, identity}, {}, {}, {region{}}, loc_};
  o.set_attr("axis", axis);
  o.set_attr(k == op_kind::reduce ? "keepdims" : "reverse", std::int64_t(flag));
  loop_args args;
  args.carried = {f_.new_value(type::tile(t.elem)), f_.new_value(type::tile(t.elem))};
  o.regions[0].args = args.carried;
  std::vector<op>& ops = current_ops();
  ops.push_back(std::move(o));
  stack_.push_back({ops.size() - 1, 0, &ops});
  return args;
}

value_id builder::end_reduce(value_id combined) {
  op_kind k = stack_.empty() ? op_kind::yield : (*stack_.back().parent)[stack_.back().op_index].kind;
  if (k != op_kind::reduce && k != op_kind::scan) error(error_kind::invalid_argument, "end_reduce without a matching begin_reduce");
  open_region r = stack_.back();
  op& o = (*r.parent)[r.op_index];
  const type in = f_.type_of(o.operands[0]);
  if (f_.type_of(combined) != type::tile(in.elem))
    error(error_kind::type_error, str(info(k).text, ": the combiner yields ", to_string(f_.type_of(combined)), ", expected ",
                                      to_string(type::tile(in.elem))));
  current_ops().push_back(op{op_kind::yield, {combined}, {}, {}, {}, loc_});
  stack_.pop_back();
  type result = in;
  if (k == op_kind::reduce)
    result.shape = reduced_shape(in.shape, *normalize_axis(o.int_attr("axis"), in.rank()), o.int_attr("keepdims") != 0);
  o.results.push_back(f_.new_value(result));
  return o.results[0];
}

void builder::finish() {
  if (!stack_.empty())
    error(error_kind::invalid_argument,
          str("finish: ", stack_.size(), " region(s) still open (innermost: '",
              info((*stack_.back().parent)[stack_.back().op_index].kind).text, "')"));
  if (!f_.body.ops.empty() && f_.body.ops.back().kind == op_kind::yield)
    error(error_kind::invalid_argument, "finish: the function is already finished");
  f_.body.ops.push_back(op{op_kind::yield, {}, {}, {}, {}, loc_});
}

}  // namespace tegula::ir
