// Emission of value sources (constants, arange, block ids, array extents) and elementwise ops.
#include <variant>

#include "tegula/codegen/c_types.hpp"
#include "tegula/codegen/emitter.hpp"
#include "tegula/codegen/scalar_expr.hpp"
#include "tegula/support/error.hpp"

namespace tegula::codegen {
namespace {

int axis_attr(const ir::op& o, int rank) {
  std::int64_t a = o.attr("axis") ? o.int_attr("axis") : 0;
  if (a < 0) a += rank;
  return int(a);
}

}  // namespace

void emitter::emit_source(const ir::op& o) {
  const ir::value_id r = o.results.at(0);
  const ir::dtype t = dtype_of(r);
  const std::string R = reg_type(t);
  switch (o.kind) {
    case ir::op_kind::constant: {
      const ir::attribute* a = o.attr("value");
      std::string lit;
      if (!a) unsupported(o, "it has no 'value' attribute");
      if (auto* i = std::get_if<std::int64_t>(a)) lit = literal(t, *i);
      else if (auto* d = std::get_if<double>(a)) lit = literal(t, *d);
      else unsupported(o, "its 'value' attribute is neither an int nor a float");
      tile_layout l = layout(r);
      if (l.replicated) {
        line(str(R, " ", name(r), " = ", lit, ";"));
      } else {
        declare(r);
        line("#pragma unroll");
        line(str("for (int i_ = 0; i_ < ", l.slots(), "; ++i_) ", name(r), "[i_] = ", lit, ";"));
      }
      return;
    }
    case ir::op_kind::arange: {
      tile_layout l = layout(r);
      if (l.replicated) {
        line(str(R, " ", name(r), " = ", literal(t, std::int64_t(0)), ";"));
        return;
      }
      if (type_of(r).rank() != 1) unsupported(o, "arange must produce a 1-D tile");
      declare(r);
      elements_loop(l, [&] { line(str(name(r), "[s_] = ", cvt(ir::dtype::i32, t, "f_"), ";")); });
      return;
    }
    case ir::op_kind::block_id:
    case ir::op_kind::num_blocks: {
      int axis = axis_attr(o, 3);
      if (axis < 0 || axis > 2) unsupported(o, str("axis ", axis, " is not 0, 1 or 2"));
      const std::string& e = o.kind == ir::op_kind::block_id ? bid_[axis] : nblocks_[axis];
      line(str(R, " ", name(r), " = ", cvt(ir::dtype::i32, t, e), ";"));
      return;
    }
    case ir::op_kind::dim:
    case ir::op_kind::num_tiles: {
      const array_info& a = array(o, o.operands.at(0));
      int axis = axis_attr(o, a.rank);
      if (axis < 0 || axis >= a.rank) unsupported(o, str("axis ", axis, " is out of range for an array of rank ", a.rank));
      if (o.kind == ir::op_kind::dim) {
        line(str(R, " ", name(r), " = ", cvt(ir::dtype::i64, t, a.shape(axis)), ";"));
        return;
      }
      std::int64_t tile = o.int_attr("tile");
      if (tile <= 0) unsupported(o, str("tile size ", tile, " is not positive"));
      std::string e = str("(int)((", a.shape(axis), " + ", tile - 1, ") / ", tile, ")");
      line(str(R, " ", name(r), " = ", cvt(ir::dtype::i32, t, e), ";"));
      return;
    }
    default: fail(error_kind::internal, "codegen: emit_source of ", ir::info(o.kind).text);
  }
}

void emitter::emit_elementwise(const ir::op& o) {
  const ir::value_id r = o.results.at(0);
  for (ir::value_id v : o.operands)
    if (!type_of(v).is_tile()) unsupported(o, "an operand is an array; elementwise ops take tiles");
  check_same_layout(o, r, o.operands);
  std::vector<ir::dtype> in;
  std::vector<std::string> args;
  for (ir::value_id v : o.operands) {
    in.push_back(dtype_of(v));
    args.push_back(at(v, "i_"));
  }
  if (o.kind == ir::op_kind::astype || o.kind == ir::op_kind::bitcast) {
    if (o.operands.size() != 1) unsupported(o, "it takes one operand");
  }
  const ir::dtype t = dtype_of(r);
  std::string e = scalar_expr(o.kind, in, t, args, needs_);
  tile_layout l = layout(r);
  if (l.replicated) {
    line(str(reg_type(t), " ", name(r), " = ", e, ";"));
    return;
  }
  declare(r);
  line("#pragma unroll");
  line(str("for (int i_ = 0; i_ < ", l.slots(), "; ++i_) ", name(r), "[i_] = ", e, ";"));
}

}  // namespace tegula::codegen
