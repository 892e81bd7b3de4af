// The interpreter's one switch over every ir::op_kind (no default: a new op in ops.def fails to compile
// here until it is handled; elementwise ops share one branch by their ops.def category), and the ops with no region.
#include <memory>
#include <vector>

#include "tegula/interp/convert.hpp"
#include "tegula/interp/elementwise.hpp"
#include "tegula/interp/evaluate.hpp"
#include "tegula/interp/executor.hpp"
#include "tegula/interp/matmul.hpp"
#include "tegula/interp/memory_ops.hpp"
#include "tegula/interp/op_failure.hpp"
#include "tegula/interp/reductions.hpp"
#include "tegula/interp/shape_ops.hpp"

#pragma GCC diagnostic error "-Wswitch"

namespace tegula::interp {
namespace {

std::int64_t int_attr_or(const ir::op& o, const char* name, std::int64_t fallback) {
  const ir::attribute* a = o.attr(name);
  if (!a) return fallback;
  if (const auto* v = std::get_if<std::int64_t>(a)) return *v;
  fail_op("attribute '", name, "' must be an int");
}

padding_kind padding_of(const ir::op& o) {
  const ir::attribute* a = o.attr("padding");
  if (!a) return padding_kind::zero;
  if (const auto* s = std::get_if<std::string>(a)) return padding_from_name(*s);
  fail_op("attribute 'padding' must be a string");
}

const ir::type& result_type(const ir::function& f, const ir::op& o) {
  if (o.results.size() != 1) fail_op("expected one result, the op has ", o.results.size());
  return f.type_of(o.results[0]);
}

// The first element of tile `index` of extent `size` on one axis. Saturates far outside any
// array (instead of overflowing) so that an absurd index simply reads padding / writes nothing.
std::int64_t tile_start(std::int64_t index, std::int64_t size) {
  constexpr std::int64_t far = std::int64_t(1) << 62;
  std::int64_t r;
  if (__builtin_mul_overflow(index, size, &r) || r > far || r < -far) return index < 0 ? -far : far;
  return r;
}

std::int64_t scalar_int(const tile_value& t, const char* what) {
  if (t.rank() != 0 || t.kind() == repr::real)
    fail_op(what, " must be an integer scalar, got ", ir::name(t.dtype()), shape_string(t.shape()));
  return t.as_int(0);
}

}  // namespace

void executor::exec(const ir::op& o) {
  using K = ir::op_kind;
  const auto elementwise_operands = [&](const ir::op& e) {
    std::vector<const tile_value*> xs;
    for (std::size_t i = 0; i < e.operands.size(); ++i) xs.push_back(&operand(e, i));
    return xs;
  };
  const auto reduce = [&](reduce_fn fn) {
    const tile_value& x = operand(o, 0);
    const int axis = normalize_axis(o.int_attr("axis"), x.rank());
    set_result(o, apply_reduce(fn, x, axis, int_attr_or(o, "keepdims", 0) != 0, result_type(f_, o).elem));
  };
  const auto scan = [&](scan_fn fn) {
    const tile_value& x = operand(o, 0);
    const int axis = normalize_axis(o.int_attr("axis"), x.rank());
    set_result(o, apply_scan(fn, x, axis, int_attr_or(o, "reverse", 0) != 0, result_type(f_, o).elem));
  };
  // Element offsets (gather, scatter, atomics): operands 1..rank of the array.
  const auto offsets = [&](const array_arg& a) {
    if (o.operands.size() < 1 + a.shape.size()) fail_op("needs ", a.shape.size(), " offset operands");
    std::vector<const tile_value*> v;
    for (std::size_t d = 0; d < a.shape.size(); ++d) v.push_back(&operand(o, 1 + d));
    return v;
  };
  const auto mask = [&]() -> const tile_value* {
    return int_attr_or(o, "has_mask", 0) ? &operand(o, o.operands.size() - 1) : nullptr;
  };
  const auto atomic = [&](atomic_fn fn) {
    const array_arg& a = array(o.operands.at(0));
    const auto offs = offsets(a);
    const std::size_t first = 1 + a.shape.size();
    const bool cas = fn == atomic_fn::cas;
    const tile_value* cmp = cas ? &operand(o, first) : nullptr;
    const tile_value& value = operand(o, first + (cas ? 1 : 0));
    set_result(o, atomic_update(fn, a, offs, cmp, value, mask()));
  };

  switch (o.kind) {
    // Sources of values
    case K::constant: {
      const ir::type& t = result_type(f_, o);
      const ir::attribute* v = o.attr("value");
      if (!v) fail_op("missing attribute 'value'");
      if (const auto* i = std::get_if<std::int64_t>(v)) set_result(o, scalar_of_int(*i, t.elem, t.shape));
      else if (const auto* d = std::get_if<double>(v)) set_result(o, scalar_of_double(*d, t.elem, t.shape));
      else fail_op("attribute 'value' must be an int or a float");
      return;
    }
    case K::arange: {
      const ir::type& t = result_type(f_, o);
      if (t.rank() != 1) fail_op("result must be a 1-D tile, got ", ir::to_string(t));
      tile_value r(ir::dtype::i64, t.shape);
      for (std::int64_t i = 0; i < r.numel(); ++i) r.data<std::int64_t>()[i] = i;
      set_result(o, t.elem == ir::dtype::i64 ? std::move(r) : convert(r, t.elem));
      return;
    }
    case K::block_id:
    case K::num_blocks: {
      const std::int64_t axis = o.int_attr("axis");
      if (axis < 0 || axis > 2) fail_op("axis ", axis, " is not 0, 1 or 2");
      const auto& src = o.kind == K::block_id ? block_ : grid_;
      set_result(o, scalar_of_int(src[std::size_t(axis)], result_type(f_, o).elem));
      return;
    }
    case K::dim:
    case K::num_tiles: {
      const array_arg& a = array(o.operands.at(0));
      const int axis = normalize_axis(o.int_attr("axis"), int(a.shape.size()));
      std::int64_t v = a.shape[std::size_t(axis)];
      if (o.kind == K::num_tiles) {
        const std::int64_t tile = o.int_attr("tile");
        if (tile <= 0) fail_op("tile size ", tile, " is not positive");
        v = (v + tile - 1) / tile;
      }
      set_result(o, scalar_of_int(v, result_type(f_, o).elem));
      return;
    }

    // Memory
    case K::load: {
      const array_arg& a = array(o.operands.at(0));
      const auto& shape = o.ints_attr("shape");
      if (o.operands.size() != 1 + a.shape.size() || shape.size() != a.shape.size())
        fail_op("needs ", a.shape.size(), " indices and a shape of that rank");
      std::vector<std::int64_t> start(shape.size());
      for (std::size_t d = 0; d < shape.size(); ++d)
        start[d] = tile_start(scalar_int(operand(o, 1 + d), "index"), shape[d]);
      tile_value t = load_box(a, start, shape, padding_of(o));
      const ir::type& rt = result_type(f_, o);
      if (t.shape() != rt.shape) t = reshape(t, rt.shape);  // a result that drops unit axes
      set_result(o, t.dtype() == rt.elem ? std::move(t) : convert(t, rt.elem));
      return;
    }
    case K::store: {
      const array_arg& a = array(o.operands.at(0));
      if (o.operands.size() != 2 + a.shape.size()) fail_op("needs ", a.shape.size(), " indices and a tile");
      const tile_value& t = operand(o, o.operands.size() - 1);
      if (t.rank() != int(a.shape.size()))
        fail_op("tile of rank ", t.rank(), " for an array of rank ", a.shape.size());
      std::vector<std::int64_t> start(a.shape.size());
      for (std::size_t d = 0; d < start.size(); ++d)
        start[d] = tile_start(scalar_int(operand(o, 1 + d), "index"), t.shape()[d]);
      store_box(a, start, t);
      return;
    }
    case K::gather: {
      const array_arg& a = array(o.operands.at(0));
      set_result(o, gather(a, offsets(a), mask(), padding_of(o)));
      return;
    }
    case K::scatter: {
      const array_arg& a = array(o.operands.at(0));
      const auto offs = offsets(a);
      scatter(a, offs, operand(o, 1 + a.shape.size()), mask());
      return;
    }
    case K::atomic_add: return atomic(atomic_fn::add);
    case K::atomic_max: return atomic(atomic_fn::max);
    case K::atomic_min: return atomic(atomic_fn::min);
    case K::atomic_cas: return atomic(atomic_fn::cas);

    // Elementwise (ops.def category): one evaluator (evaluate.cpp) serves the executor and constant folding
#include "tegula/ir/elementwise_cases.inc"
      if (o.kind == K::astype && tile(o.operands.at(0)).dtype() == o.dtype_attr("dtype"))
        return set(o.results.at(0), tile_ptr_of(o.operands[0]));  // a no-op astype shares the operand's storage
      set_result(o, *evaluate_elementwise(o, elementwise_operands(o)));
      return;

    // Shape
    case K::reshape: set_result(o, reshape(operand(o, 0), o.ints_attr("shape"))); return;
    case K::permute: set_result(o, permute(operand(o, 0), o.ints_attr("perm"))); return;
    case K::expand_dims: set_result(o, expand_dims(operand(o, 0), o.int_attr("axis"))); return;
    case K::broadcast_to: set_result(o, broadcast_to(operand(o, 0), o.ints_attr("shape"))); return;

    // Matrix multiply
    case K::mma:
      set_result(o, apply_mma(operand(o, 0), operand(o, 1), operand(o, 2), int_attr_or(o, "tf32", 0) != 0));
      return;

    // Reductions and scans
    case K::reduce_sum: return reduce(reduce_fn::sum);
    case K::reduce_prod: return reduce(reduce_fn::prod);
    case K::reduce_max: return reduce(reduce_fn::max);
    case K::reduce_min: return reduce(reduce_fn::min);
    case K::argmax: return reduce(reduce_fn::argmax);
    case K::argmin: return reduce(reduce_fn::argmin);
    case K::reduce: return exec_custom_fold(o, false);
    case K::cumsum: return scan(scan_fn::cumsum);
    case K::cumprod: return scan(scan_fn::cumprod);
    case K::scan: return exec_custom_fold(o, true);

    // Debugging
    case K::print: return exec_print(o);
    case K::assert_: return exec_assert(o);

    // Control flow
    case K::for_: return exec_for(o);
    case K::if_: return exec_if(o);
    case K::while_: return exec_while(o);
    case K::yield: fail_op("yield before the end of its region");
  }
  fail(error_kind::internal, "op kind ", int(o.kind), " is outside ops.def");
}

}  // namespace tegula::interp
