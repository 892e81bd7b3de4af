// Building the tile IR of an array kernel from its plan (see emit.hpp and plan.hpp).
#include "tegula/array/emit.hpp"

#include <limits>

#include "tegula/ir/builder.hpp"
#include "tegula/support/error.hpp"

namespace tegula::array {
namespace {

using ir::op_kind;
using ir::type;
using ir::value_id;

struct emitter {
  const plan& p;
  ir::function f;
  ir::builder b{f};
  std::vector<value_id> leaf_params, scalar_params;
  value_id ncols = -1, out = -1;

  explicit emitter(const plan& pl) : p(pl) {
    f.name = "tegula_array_kernel";
    for (std::size_t i = 0; i < p.leaves.size(); ++i)
      leaf_params.push_back(b.add_param("x" + std::to_string(i), type::array(p.leaves[i].t, 2)));
    for (std::size_t i = 0; i < p.scalars.size(); ++i) {
      const node* s = p.scalars[i];
      dtype t = s->kind == node_kind::iota ? iota_wide(s->t) : s->t;
      scalar_params.push_back(b.add_param("s" + std::to_string(i), type::tile(t)));
    }
    ncols = b.add_param("ncols", type::tile(dtype::i64));
    out = b.add_param("out", type::array(p.out_t, 2));
  }

  value_id i32(std::int64_t v) { return b.constant(v, type::tile(dtype::i32)); }
  value_id attr1(op_kind k, std::vector<value_id> in, std::vector<std::pair<std::string, ir::attribute>> a) {
    return b.create1(k, std::move(in), std::move(a));
  }

  // The identity of a reduction, as a splat tile of `shape` in dtype t.
  value_id identity(op_kind op, dtype t, const std::vector<std::int64_t>& shape) {
    type ty = type::tile(t, shape);
    bool fl = ir::is_float(t);
    switch (op) {
      case op_kind::reduce_sum: return b.constant(std::int64_t(0), ty);
      case op_kind::reduce_prod: return b.constant(std::int64_t(1), ty);
      case op_kind::reduce_max:
      case op_kind::argmax:
        if (fl) return b.constant(-std::numeric_limits<double>::infinity(), ty);
        if (ir::is_bool(t) || ir::is_unsigned_int(t)) return b.constant(std::int64_t(0), ty);
        return b.constant(size_bytes(t) == 8 ? std::numeric_limits<std::int64_t>::min()
                                             : -(std::int64_t(1) << (8 * size_bytes(t) - 1)), ty);
      case op_kind::reduce_min:
      case op_kind::argmin:
        if (fl) return b.constant(std::numeric_limits<double>::infinity(), ty);
        if (ir::is_bool(t)) return b.constant(std::int64_t(1), ty);
        if (ir::is_unsigned_int(t))
          return size_bytes(t) == 8 ? b.constant(std::int64_t(-1), ty)  // converted: all ones
                                    : b.constant((std::int64_t(1) << (8 * size_bytes(t))) - 1, ty);
        return b.constant(size_bytes(t) == 8 ? std::numeric_limits<std::int64_t>::max()
                                             : (std::int64_t(1) << (8 * size_bytes(t) - 1)) - 1, ty);
      default: fail(error_kind::internal, "no identity for reduction '", ir::info(op).text, "'");
    }
  }

  // A signed int against uint64 (NumPy promotes to float64, but compares exactly).
  static bool mixed_sign_64(dtype a, dtype b) {
    return (ir::is_signed_int(a) && b == dtype::u64) || (a == dtype::u64 && ir::is_signed_int(b));
  }
  // Exact comparison of a signed and an unsigned 64-bit integer: a negative value is below every
  // unsigned one; otherwise both compare as uint64.
  value_id exact_compare(op_kind op, value_id x, value_id y, bool x_signed) {
    if (!x_signed) {  // y is the signed one: mirror the comparison
      std::swap(x, y);
      op = op == op_kind::lt ? op_kind::gt : op == op_kind::gt ? op_kind::lt
         : op == op_kind::le ? op_kind::ge : op == op_kind::ge ? op_kind::le : op;
    }
    value_id s = b.cast(x, dtype::i64), u = b.cast(y, dtype::u64);
    value_id negative = b.binary(op_kind::lt, s, b.constant(std::int64_t(0), type::tile(dtype::i64)));
    value_id same = b.binary(op, b.cast(s, dtype::u64), u);
    switch (op) {
      case op_kind::lt: case op_kind::le: case op_kind::ne: return b.binary(op_kind::bit_or, negative, same);
      default: return b.binary(op_kind::bit_and, b.create1(op_kind::logical_not, {negative}), same);  // gt ge eq
    }
  }

  // Integer // and % by zero give 0 in NumPy (with a warning); guard the divisor so neither the GPU
  // nor the interpreter divides by zero.
  value_id binary_op(op_kind op, value_id x, value_id y, dtype compute) {
    if ((op == op_kind::floordiv || op == op_kind::mod || op == op_kind::div) && !ir::is_float(compute)) {
      value_id zero = b.constant(std::int64_t(0), type::tile(compute));
      value_id is0 = b.binary(op_kind::eq, y, zero);
      value_id safe = b.where(is0, b.constant(std::int64_t(1), type::tile(compute)), y);
      return b.where(is0, zero, b.binary(op, x, safe));
    }
    return b.binary(op, x, y);
  }

  // The value of every node for the tile at (bi, bj). In looped kernels (`loop_root` set) the
  // root reduction/scan is not applied: its (cast) input goes to *loop_root for the loop to combine.
  std::vector<value_id> graph(value_id bi, value_id bj, value_id* loop_root) {
    std::vector<value_id> v(p.order.size(), -1);
    auto in = [&](std::size_t i, int k) { return v[p.input(i, k)]; };
    value_id zero = i32(0);
    for (std::size_t i = 0; i < p.order.size(); ++i) {
      const node& n = *p.order[i];
      switch (n.kind) {
        case node_kind::leaf: {
          const view2d& w = p.leaves[p.leaf_of[i]];
          std::int64_t tr = w.row_bcast ? 1 : p.TR, tc = w.col_bcast ? 1 : p.TC;
          v[i] = attr1(op_kind::load, {leaf_params[p.leaf_of[i]], w.row_bcast ? zero : bi, w.col_bcast ? zero : bj},
                       {{"shape", std::vector<std::int64_t>{tr, tc}}, {"padding", std::string("zero")}});
          break;
        }
        case node_kind::scalar: v[i] = scalar_params[p.leaf_of[i]]; break;
        case node_kind::iota: {  // flat space (R = 1): the element index is the column
          dtype w = iota_wide(n.t);
          value_id cols = column_index(bj);
          value_id start = scalar_params[p.leaf_of[i]], step = scalar_params[p.leaf_of[i] + 1];
          v[i] = b.cast(b.binary(op_kind::add, start, b.binary(op_kind::mul, b.cast(cols, w), step)), n.t);
          break;
        }
        case node_kind::unary: v[i] = b.create1(n.op, {b.cast(in(i, 0), n.compute)}); break;
        case node_kind::binary: {
          dtype ta = p.order[p.input(i, 0)]->t, tb = p.order[p.input(i, 1)]->t;
          if (is_comparison(n.op) && mixed_sign_64(ta, tb)) {
            v[i] = exact_compare(n.op, in(i, 0), in(i, 1), ir::is_signed_int(ta));
            break;
          }
          v[i] = binary_op(n.op, b.cast(in(i, 0), n.compute), b.cast(in(i, 1), n.compute), n.compute);
          v[i] = b.cast(v[i], n.t);
          break;
        }
        case node_kind::where:
          v[i] = b.where(in(i, 0), b.cast(in(i, 1), n.t), b.cast(in(i, 2), n.t));
          break;
        case node_kind::cast: v[i] = b.cast(in(i, 0), n.t); break;
        case node_kind::scan: {  // only ever the root (plan.cpp)
          value_id x = b.cast(in(i, 0), n.compute);
          if (loop_root) {
            *loop_root = x;
            break;
          }
          x = b.broadcast(masked(scan_identity(n.op), b.broadcast(x, {p.TR, p.TC}), n.compute, bj), {p.TR, p.TC});
          v[i] = b.cast(b.create1(n.op, {x}, {{"axis", std::int64_t(1)}, {"reverse", std::int64_t(0)}}), n.t);
          break;
        }
        case node_kind::reduce: {
          value_id x = b.cast(in(i, 0), n.compute);
          if (loop_root && p.order[i] == p.order.back()) {  // the root of a looped reduction
            *loop_root = x;
            break;
          }
          v[i] = b.cast(row_reduce(n.op, x, n.compute, bj), n.t);
          break;
        }
      }
    }
    return v;
  }

  static op_kind scan_identity(op_kind scan) {
    return scan == op_kind::cumsum ? op_kind::reduce_sum : op_kind::reduce_prod;
  }

  // bj * TC as an int64 scalar: the first column of column tile bj.
  value_id first_column(value_id bj) {
    return b.binary(op_kind::mul, b.cast(bj, dtype::i64), b.constant(p.TC, type::tile(dtype::i64)));
  }

  // The space column of each element of column tile bj, as a (1, TC) int64 tile.
  value_id column_index(value_id bj) {
    value_id cols = b.binary(op_kind::add, b.cast(attr1(op_kind::arange, {}, {{"n", p.TC}}), dtype::i64),
                             first_column(bj));
    return attr1(op_kind::reshape, {cols}, {{"shape", std::vector<std::int64_t>{1, p.TC}}});
  }

  // Columns beyond ncols hold padding: replace them by the identity before reducing.
  value_id masked(op_kind op, value_id x, dtype t, value_id bj) {
    if (p.C == p.TC && p.shape == kernel_shape::rows) return x;
    value_id ok = b.binary(op_kind::lt, column_index(bj), ncols);
    return b.where(ok, x, identity(op, t, {}));
  }

  // ceil(ncols / TC) as int32: the column tiles a looped kernel walks.
  value_id column_tiles() {
    return b.cast(b.binary(op_kind::floordiv, b.binary(op_kind::add, ncols, b.constant(p.TC - 1, type::tile(dtype::i64))),
                           b.constant(p.TC, type::tile(dtype::i64))),
                  dtype::i32);
  }

  // Inside a looped kernel: the root's input for column tile `iv`, its padding replaced by the
  // identity of `op`, as a (TR, TC) tile of the root's compute dtype.
  value_id loop_root_input(value_id bi, value_id iv, op_kind op) {
    value_id x = -1;
    graph(bi, iv, &x);
    const dtype ct = p.order.back()->compute;
    return b.broadcast(masked(op, b.broadcast(x, {p.TR, p.TC}), ct, iv), {p.TR, p.TC});
  }

  value_id row_reduce(op_kind op, value_id x, dtype t, value_id bj) {
    x = b.broadcast(masked(op, b.broadcast(x, {p.TR, p.TC}), t, bj), {p.TR, p.TC});
    std::vector<std::pair<std::string, ir::attribute>> a = {{"axis", std::int64_t(1)}, {"keepdims", std::int64_t(1)}};
    value_id r = b.create1(op, {x}, a);
    if (op == op_kind::argmax || op == op_kind::argmin) r = b.cast(r, dtype::i64);
    return r;
  }

  void store(value_id bi, value_id bj, value_id tile, std::int64_t tr, std::int64_t tc) {
    tile = b.broadcast(b.cast(tile, p.out_t), {tr, tc});
    b.create(op_kind::store, {out, bi, bj, tile});
  }

  ir::function map_or_rows() {
    value_id bid = attr1(op_kind::block_id, {}, {{"axis", std::int64_t(0)}});
    value_id bi = bid, bj = i32(0);
    if (p.shape == kernel_shape::map) {
      value_id nct = attr1(op_kind::num_tiles, {out}, {{"axis", std::int64_t(1)}, {"tile", p.TC}});
      bi = b.binary(op_kind::floordiv, bid, nct);
      bj = b.binary(op_kind::mod, bid, nct);
    }
    auto v = graph(bi, bj, nullptr);
    if (p.order.back()->kind != node_kind::reduce) store(bi, bj, v.back(), p.TR, p.TC);  // map, rows with a scan
    else store(bi, i32(0), v.back(), p.TR, 1);
    b.finish();
    return std::move(f);
  }

  // scan_loop: each block scans its row tile by tile; the carry is the total of the tiles before.
  ir::function scan_loop() {
    const node& root = *p.order.back();
    const op_kind red = scan_identity(root.op);
    const dtype ct = root.compute;
    value_id bi = attr1(op_kind::block_id, {}, {{"axis", std::int64_t(0)}});
    auto loop = b.begin_for(i32(0), column_tiles(), i32(1), {identity(red, ct, {p.TR, 1})});
    value_id x = loop_root_input(bi, loop.iv, red);
    value_id scanned = b.create1(root.op, {x}, {{"axis", std::int64_t(1)}, {"reverse", std::int64_t(0)}});
    op_kind combine = root.op == op_kind::cumsum ? op_kind::add : op_kind::mul;
    value_id with_carry = b.binary(combine, scanned, loop.carried[0]);
    store(bi, loop.iv, with_carry, p.TR, p.TC);
    value_id total = b.create1(red, {x}, {{"axis", std::int64_t(1)}, {"keepdims", std::int64_t(1)}});
    b.end_for({b.binary(combine, loop.carried[0], b.cast(total, ct))});
    b.finish();
    return std::move(f);
  }

  // row_loop and split: each block walks column tiles, combining per-tile reductions.
  ir::function looped() {
    const node& root = *p.order.back();
    const op_kind op = root.op;
    const dtype ct = root.compute;
    const bool arg = op == op_kind::argmax || op == op_kind::argmin;
    value_id bid = attr1(op_kind::block_id, {}, {{"axis", std::int64_t(0)}});
    value_id bi = bid, first = i32(0), step = i32(1);
    if (p.shape == kernel_shape::split) {
      value_id parts = i32(p.parts);
      bi = b.binary(op_kind::floordiv, bid, parts);
      first = b.binary(op_kind::mod, bid, parts);
      step = parts;
    }
    std::vector<value_id> init = {identity(op, ct, {p.TR, 1})};
    if (arg) init.push_back(b.constant(std::int64_t(0), type::tile(dtype::i64, {p.TR, 1})));
    auto loop = b.begin_for(first, column_tiles(), step, init);
    value_id x = loop_root_input(bi, loop.iv, op);
    std::vector<std::pair<std::string, ir::attribute>> a = {{"axis", std::int64_t(1)}, {"keepdims", std::int64_t(1)}};
    std::vector<value_id> next;
    if (arg) {
      op_kind ext = op == op_kind::argmax ? op_kind::reduce_max : op_kind::reduce_min;
      value_id m = b.create1(ext, {x}, a);
      value_id at = b.cast(b.create1(op, {x}, a), dtype::i64);
      at = b.binary(op_kind::add, at, first_column(loop.iv));
      value_id better = b.binary(op == op_kind::argmax ? op_kind::gt : op_kind::lt, m, loop.carried[0]);
      next = {b.where(better, m, loop.carried[0]), b.where(better, at, loop.carried[1])};
    } else {
      value_id part = b.create1(op, {x}, a);
      op_kind combine = op == op_kind::reduce_sum    ? op_kind::add
                        : op == op_kind::reduce_prod ? op_kind::mul
                        : op == op_kind::reduce_max  ? op_kind::maximum
                                                     : op_kind::minimum;
      next = {b.binary(combine, loop.carried[0], b.cast(part, ct))};
    }
    auto results = b.end_for(next);
    value_id result = arg ? results[1] : results[0];
    if (p.shape == kernel_shape::split) store(bi, first, result, 1, 1);
    else store(bi, i32(0), result, p.TR, 1);
    b.finish();
    return std::move(f);
  }
};

}  // namespace

ir::function emit_kernel(const plan& p) {
  emitter e(p);
  if (p.shape == kernel_shape::map || p.shape == kernel_shape::rows) return e.map_or_rows();
  if (p.shape == kernel_shape::scan_loop) return e.scan_loop();
  return e.looped();
}

}  // namespace tegula::array
