// Building the tile IR of an array kernel from its plan (see emit.hpp and plan.hpp).
#include "tegula/array/emit.hpp"

#include <limits>
#include <variant>

#include "tegula/array/emit_complex.hpp"
#include "tegula/ir/builder.hpp"
#include "tegula/support/error.hpp"

namespace tegula::array {
namespace {

using ir::op_kind;
using ir::type;
using ir::value_id;

struct emitter {
  const plan& p;
  const bool body = false;  // emit_body: one element per "tile" (TR = TC = 1), the column a parameter
  ir::function f;
  ir::builder b{f};
  std::vector<value_id> leaf_params, scalar_params;
  value_id ncols = -1, nparts = -1, out = -1, out_im = -1;  // out_im: a complex result's imaginary parts
  value_id col = -1;  // body: the element's column (an iota's position)
  value_id bb = -1;  // a batched space: this block's batch (arrays are 3-D, the batch axis first)
  std::vector<value_id> sib_out, sib_out_im;  // sibling outputs (plan.hpp)
  // col_loop: every array is the space's view transposed, (cols, rows), and tiles are (TC, TR): the columns
  // along axis 0. (Not in a body: the VM reads the plan's views as they are.)
  const bool transposed = false;
  int rank() const { return p.batched ? 3 : 2; }

  explicit emitter(const plan& pl, bool body_mode = false)
      : p(pl), body(body_mode), transposed(pl.shape == kernel_shape::col_loop && !body_mode) {
    f.name = body ? "tegula_array_body" : "tegula_array_kernel";
    for (std::size_t i = 0; i < p.leaves.size(); ++i)
      leaf_params.push_back(b.add_param("x" + std::to_string(i), type::array(p.leaves[i].t, rank())));
    for (std::size_t i = 0; i < p.scalars.size(); ++i) {
      const node* s = p.scalars[i];
      dtype t = s->kind == node_kind::iota ? iota_wide(s->t) : ir::component(s->t);
      scalar_params.push_back(b.add_param("s" + std::to_string(i), type::tile(t)));
    }
    ncols = b.add_param("ncols", type::tile(dtype::i64));
    if (body) col = b.add_param("col", type::tile(dtype::i64));
    // A split kernel's column split is a run-time value: one kernel serves every split count (a
    // constant here once let two plans with different counts share a kernel: unwritten partials).
    if (p.shape == kernel_shape::split || p.shape == kernel_shape::col_loop)
      nparts = b.add_param("parts", type::tile(dtype::i32));
    out = b.add_param("out", type::array(ir::component(p.out_t), rank()));
    if (ir::is_complex(p.out_t)) out_im = b.add_param("out_im", type::array(ir::component(p.out_t), rank()));
    for (std::size_t i = 0; i < p.sibling_out.size(); ++i) {
      const dtype t = p.sibling_out[i].t;
      sib_out.push_back(b.add_param("out" + std::to_string(i + 1), type::array(ir::component(t), rank())));
      sib_out_im.push_back(ir::is_complex(t) ? b.add_param("out" + std::to_string(i + 1) + "_im",
                                                           type::array(ir::component(t), rank()))
                                             : -1);
    }
  }

  // x as dtype `to` (a complex x: both parts; real -> complex: a zero imaginary part; complex ->
  // bool: either part nonzero; complex -> other real dtypes: the real part, as NumPy's astype).
  cvalue cast(cvalue x, dtype to) {
    const dtype part = ir::component(to);
    if (ir::is_complex(to))
      return {b.cast(x.re, part), x.is_complex() ? b.cast(x.im, part) : b.constant(0.0, type::tile(part))};
    if (x.is_complex() && ir::is_bool(to)) {
      type zero = type::tile(b.func().type_of(x.re).elem);
      return {b.binary(op_kind::bit_or, b.binary(op_kind::ne, x.re, b.constant(0.0, zero)),
                       b.binary(op_kind::ne, x.im, b.constant(0.0, zero))), -1};
    }
    return {b.cast(x.re, to), -1};
  }
  // f applied to each part of x (one for a real x).
  template <class F>
  cvalue parts(cvalue x, F f) { return {f(x.re), x.is_complex() ? f(x.im) : -1}; }

  value_id i32(std::int64_t v) { return b.constant(v, type::tile(dtype::i32)); }
  value_id attr1(op_kind k, std::vector<value_id> in, std::vector<std::pair<std::string, ir::attribute>> a) {
    return b.create1(k, std::move(in), std::move(a));
  }

  // The identity of a reduction, as a splat tile of `shape` in dtype t.
  value_id identity(op_kind op, dtype t, const std::vector<std::int64_t>& shape) {
    type ty = type::tile(t, shape);
    return std::visit([&](auto v) { return b.constant(v, ty); }, reduction_identity(op, t));
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
  std::vector<cvalue> graph(value_id bi, value_id bj, cvalue* loop_root) {
    std::vector<cvalue> v(p.order.size());
    std::vector<value_id> loaded(p.leaves.size(), -1);  // each parameter's tile
    auto in = [&](std::size_t i, int k) { return v[p.input(i, k)]; };
    value_id zero = i32(0);
    for (std::size_t i = 0; i < p.order.size(); ++i) {
      const node& n = *p.order[i];
      switch (n.kind) {
        case node_kind::leaf: {
          const view2d& w = p.leaves[p.leaf_of[i]];
          std::int64_t tr = w.row_bcast ? 1 : p.TR, tc = w.col_bcast ? 1 : p.TC;
          auto load = [&](int param) {
            if (transposed)
              return attr1(op_kind::load, {leaf_params[param], w.col_bcast ? zero : bj, w.row_bcast ? zero : bi},
                           {{"shape", std::vector<std::int64_t>{tc, tr}}, {"padding", std::string("zero")}});
            if (!p.batched)
              return attr1(op_kind::load, {leaf_params[param], w.row_bcast ? zero : bi, w.col_bcast ? zero : bj},
                           {{"shape", std::vector<std::int64_t>{tr, tc}}, {"padding", std::string("zero")}});
            value_id t3 = attr1(op_kind::load,
                                {leaf_params[param], w.batch_bcast ? zero : bb, w.row_bcast ? zero : bi,
                                 w.col_bcast ? zero : bj},
                                {{"shape", std::vector<std::int64_t>{1, tr, tc}}, {"padding", std::string("zero")}});
            return attr1(op_kind::reshape, {t3}, {{"shape", std::vector<std::int64_t>{tr, tc}}});
          };
          auto once = [&](int param) {  // a view read twice is one parameter (plan.cpp), loaded once
            if (loaded[param] < 0) loaded[param] = load(param);
            return loaded[param];
          };
          v[i] = {once(p.leaf_of[i]), ir::is_complex(n.t) ? once(p.leaf_of[i] + 1) : -1};
          break;
        }
        case node_kind::scalar:
          v[i] = {scalar_params[p.leaf_of[i]], ir::is_complex(n.t) ? scalar_params[p.leaf_of[i] + 1] : -1};
          break;
        case node_kind::iota: {  // flat space (R = 1): the element index is the column
          dtype w = iota_wide(n.t);
          value_id cols = column_index(bj);
          value_id start = scalar_params[p.leaf_of[i]], step = scalar_params[p.leaf_of[i] + 1];
          v[i] = {b.cast(b.binary(op_kind::add, start, b.binary(op_kind::mul, b.cast(cols, w), step)), n.t), -1};
          break;
        }
        case node_kind::unary: {
          cvalue x = cast(in(i, 0), n.compute);
          if (x.is_complex()) v[i] = cast(complex_ops(b, ir::component(n.compute)).unary(n.op, x), n.t);
          else v[i] = {b.create1(n.op, {x.re}), -1};
          break;
        }
        case node_kind::binary: {
          dtype ta = p.order[p.input(i, 0)]->t, tb = p.order[p.input(i, 1)]->t;
          if (is_comparison(n.op) && mixed_sign_64(ta, tb)) {
            v[i] = {exact_compare(n.op, in(i, 0).re, in(i, 1).re, ir::is_signed_int(ta)), -1};
            break;
          }
          cvalue x = cast(in(i, 0), n.compute), y = cast(in(i, 1), n.compute);
          if (ir::is_complex(n.compute)) v[i] = complex_ops(b, ir::component(n.compute)).binary(n.op, x, y);
          else v[i] = {binary_op(n.op, x.re, y.re, n.compute), -1};
          v[i] = cast(v[i], n.t);
          break;
        }
        case node_kind::where: {
          cvalue x = cast(in(i, 1), n.t), y = cast(in(i, 2), n.t);
          value_id c = in(i, 0).re;
          v[i] = {b.where(c, x.re, y.re), x.is_complex() ? b.where(c, x.im, y.im) : -1};
          break;
        }
        case node_kind::cast: v[i] = cast(in(i, 0), n.t); break;
        case node_kind::part: v[i] = {n.ivalue ? in(i, 0).im : in(i, 0).re, -1}; break;
        case node_kind::compose:
          v[i] = {b.cast(in(i, 0).re, ir::component(n.t)), b.cast(in(i, 1).re, ir::component(n.t))};
          break;
        case node_kind::library:  // a library computes it first (plan.cpp blocks on it)
          fail(error_kind::internal, "a library node inside an array kernel");
        case node_kind::scan: {  // only ever the root (plan.cpp)
          cvalue x = cast(in(i, 0), n.compute);
          if (loop_root) {
            *loop_root = x;
            break;
          }
          const dtype part = ir::component(n.compute);
          v[i] = cast(parts(x, [&](value_id u) {
            u = b.broadcast(masked(scan_identity(n.op), b.broadcast(u, {p.TR, p.TC}), part, bj), {p.TR, p.TC});
            return b.create1(n.op, {u}, {{"axis", std::int64_t(1)}, {"reverse", std::int64_t(0)}});
          }), n.t);
          break;
        }
        case node_kind::reduce: {
          cvalue x = cast(in(i, 0), n.compute);
          if (loop_root && p.order[i] == p.order.back()) {  // the root of a looped reduction
            *loop_root = x;
            break;
          }
          const dtype part = ir::component(n.compute);
          v[i] = cast(parts(x, [&](value_id u) { return row_reduce(n.op, u, part, bj); }), n.t);
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
    if (body) return attr1(op_kind::reshape, {col}, {{"shape", std::vector<std::int64_t>{1, 1}}});
    value_id cols = b.binary(op_kind::add, b.cast(attr1(op_kind::arange, {}, {{"n", p.TC}}), dtype::i64),
                             first_column(bj));
    return attr1(op_kind::reshape, {cols}, {{"shape", std::vector<std::int64_t>{1, p.TC}}});
  }

  // Columns beyond ncols hold padding: replace them by the identity before reducing.
  value_id masked(op_kind op, value_id x, dtype t, value_id bj) {
    if (body || (p.C == p.TC && p.shape == kernel_shape::rows)) return x;
    value_id cols = column_index(bj);
    if (transposed) cols = attr1(op_kind::reshape, {cols}, {{"shape", std::vector<std::int64_t>{p.TC, 1}}});
    value_id ok = b.binary(op_kind::lt, cols, ncols);
    return b.where(ok, x, identity(op, t, {}));
  }

  // A tile's shape: (TR, TC), transposed (TC, TR).
  std::vector<std::int64_t> tile_shape() const {
    return transposed ? std::vector<std::int64_t>{p.TC, p.TR} : std::vector<std::int64_t>{p.TR, p.TC};
  }

  // ceil(ncols / TC) as int32: the column tiles a looped kernel walks.
  value_id column_tiles() {
    return b.cast(b.binary(op_kind::floordiv, b.binary(op_kind::add, ncols, b.constant(p.TC - 1, type::tile(dtype::i64))),
                           b.constant(p.TC, type::tile(dtype::i64))),
                  dtype::i32);
  }

  // Inside a looped kernel: the root's input for column tile `iv`, its padding replaced by the
  // identity of `op`, as (TR, TC) tiles of the root's compute dtype (complex: both parts).
  cvalue loop_root_input(value_id bi, value_id iv, op_kind op) {
    cvalue x;
    graph(bi, iv, &x);
    const dtype part = ir::component(p.order.back()->compute);
    const auto ts = tile_shape();
    return parts(x, [&](value_id u) { return b.broadcast(masked(op, b.broadcast(u, ts), part, iv), ts); });
  }

  value_id row_reduce(op_kind op, value_id x, dtype t, value_id bj) {
    x = b.broadcast(masked(op, b.broadcast(x, {p.TR, p.TC}), t, bj), {p.TR, p.TC});
    std::vector<std::pair<std::string, ir::attribute>> a = {{"axis", std::int64_t(1)}, {"keepdims", std::int64_t(1)}};
    value_id r = b.create1(op, {x}, a);
    if (op == op_kind::argmax || op == op_kind::argmin) r = b.cast(r, dtype::i64);
    return r;
  }

  void store(value_id bi, value_id bj, cvalue tile, std::int64_t tr, std::int64_t tc) {
    store_to(out, out_im, p.out_t, bi, bj, tile, tr, tc);
  }

  void store_to(value_id re_array, value_id im_array, dtype t, value_id bi, value_id bj, cvalue tile, std::int64_t tr,
                std::int64_t tc) {
    tile = cast(tile, t);
    auto one = [&](value_id array, value_id t) {
      t = b.broadcast(t, {tr, tc});
      if (!p.batched) {
        b.create(op_kind::store, {array, bi, bj, t});
        return;
      }
      b.create(op_kind::store, {array, bb, bi, bj, attr1(op_kind::reshape, {t}, {{"shape", std::vector<std::int64_t>{1, tr, tc}}})});
    };
    one(re_array, tile.re);
    if (tile.is_complex()) one(im_array, tile.im);
  }

  // A batched space's block ids: batch-major (each batch's blocks together); sets bb, returns the id within it.
  value_id batch_of(value_id bid) {
    if (!p.batched) return bid;
    value_id per = attr1(op_kind::num_tiles, {out}, {{"axis", std::int64_t(1)}, {"tile", p.TR}});
    if (p.shape == kernel_shape::map)
      per = b.binary(op_kind::mul, per, attr1(op_kind::num_tiles, {out}, {{"axis", std::int64_t(2)}, {"tile", p.TC}}));
    bb = b.binary(op_kind::floordiv, bid, per);
    return b.binary(op_kind::mod, bid, per);
  }

  ir::function map_or_rows() {
    value_id bid = batch_of(attr1(op_kind::block_id, {}, {{"axis", std::int64_t(0)}}));
    value_id bi = bid, bj = i32(0);
    if (p.shape == kernel_shape::map) {
      value_id nct = attr1(op_kind::num_tiles, {out}, {{"axis", std::int64_t(rank() - 1)}, {"tile", p.TC}});
      bi = b.binary(op_kind::floordiv, bid, nct);
      bj = b.binary(op_kind::mod, bid, nct);
    }
    auto v = graph(bi, bj, nullptr);
    for (std::size_t i = 0; i < p.sibling_at.size(); ++i)
      store_to(sib_out[i], sib_out_im[i], p.sibling_out[i].t, bi, bj, v[std::size_t(p.sibling_at[i])], p.TR, p.TC);
    if (!p.row_result || p.order.back()->kind == node_kind::scan) store(bi, bj, v.back(), p.TR, p.TC);  // map, rows with a scan
    else store(bi, i32(0), v.back(), p.TR, 1);
    b.finish();
    return std::move(f);
  }

  // How a looped reduction combines its carry with a tile's reduction.
  static op_kind combine_of(op_kind reduce) {
    return reduce == op_kind::reduce_sum    ? op_kind::add
           : reduce == op_kind::reduce_prod ? op_kind::mul
           : reduce == op_kind::reduce_max  ? op_kind::maximum
                                            : op_kind::minimum;
  }

  // The loop carries of a looped kernel whose root computes in `ct`: one per part.
  static int carried_parts(dtype ct) { return ir::is_complex(ct) ? 2 : 1; }
  static value_id part_of(cvalue x, int k) { return k == 0 ? x.re : x.im; }

  // scan_loop: each block scans its row tile by tile; the carry is the total of the tiles before.
  // A complex cumsum scans both parts.
  ir::function scan_loop() {
    const node& root = *p.order.back();
    const op_kind red = scan_identity(root.op);
    const dtype ct = ir::component(root.compute);
    const int np = carried_parts(root.compute);
    value_id bi = attr1(op_kind::block_id, {}, {{"axis", std::int64_t(0)}});
    // A float cumsum's carry starts at -0.0, the exact additive identity: NumPy's accumulate starts from the first
    // element, so a run of -0.0 stays -0.0 (+0.0 + -0.0 would be +0.0).
    std::vector<value_id> init(np, red == op_kind::reduce_sum && ir::is_float(ct)
                                       ? b.constant(-0.0, type::tile(ct, {p.TR, 1}))
                                       : identity(red, ct, {p.TR, 1}));
    auto loop = b.begin_for(i32(0), column_tiles(), i32(1), init);
    cvalue x = loop_root_input(bi, loop.iv, red);
    op_kind combine = root.op == op_kind::cumsum ? op_kind::add : op_kind::mul;
    cvalue with_carry;
    std::vector<value_id> next;
    for (int k = 0; k < np; ++k) {
      value_id u = part_of(x, k);
      value_id scanned = b.create1(root.op, {u}, {{"axis", std::int64_t(1)}, {"reverse", std::int64_t(0)}});
      (k == 0 ? with_carry.re : with_carry.im) = b.binary(combine, scanned, loop.carried[k]);
      value_id total = b.create1(red, {u}, {{"axis", std::int64_t(1)}, {"keepdims", std::int64_t(1)}});
      next.push_back(b.binary(combine, loop.carried[k], b.cast(total, ct)));
    }
    store(bi, loop.iv, with_carry, p.TR, p.TC);
    b.end_for(next);
    b.finish();
    return std::move(f);
  }

  // row_loop and split: each block walks column tiles, combining per-tile reductions (a complex
  // sum: each part).
  ir::function looped() {
    const node& root = *p.order.back();
    const op_kind op = root.op;
    const dtype ct = ir::component(root.compute);
    const int np = carried_parts(root.compute);
    const bool arg = op == op_kind::argmax || op == op_kind::argmin;
    value_id bid = batch_of(attr1(op_kind::block_id, {}, {{"axis", std::int64_t(0)}}));
    value_id bi = bid, first = i32(0), step = i32(1);
    if (p.shape == kernel_shape::split) {
      bi = b.binary(op_kind::floordiv, bid, nparts);
      first = b.binary(op_kind::mod, bid, nparts);
      step = nparts;
    }
    // A sum, product, min or max carries the whole tile, combined element by element, and reduces it once after
    // the loop: no reduction across the block (shared memory and barriers) per column tile, so a block's loads of
    // consecutive tiles overlap (row sums of long rows ran at 0.69x CuPy's with a reduction per tile).
    const std::vector<std::int64_t> carry_shape = arg ? std::vector<std::int64_t>{p.TR, 1} : tile_shape();
    std::vector<value_id> init(np, identity(op, ct, carry_shape));
    if (arg) init.push_back(b.constant(std::int64_t(0), type::tile(dtype::i64, {p.TR, 1})));
    auto loop = b.begin_for(first, column_tiles(), step, init);
    cvalue x = loop_root_input(bi, loop.iv, op);
    std::vector<std::pair<std::string, ir::attribute>> a = {{"axis", std::int64_t(1)}, {"keepdims", std::int64_t(1)}};
    std::vector<value_id> next;
    if (arg) {
      op_kind ext = op == op_kind::argmax ? op_kind::reduce_max : op_kind::reduce_min;
      value_id m = b.create1(ext, {x.re}, a);
      value_id at = b.cast(b.create1(op, {x.re}, a), dtype::i64);
      at = b.binary(op_kind::add, at, first_column(loop.iv));
      value_id better = b.binary(op == op_kind::argmax ? op_kind::gt : op_kind::lt, m, loop.carried[0]);
      if (ir::is_float(ct)) {  // NumPy: the first NaN wins; a tile holding one (m is NaN) beats a non-NaN best
        value_id first_nan = b.binary(op_kind::bit_and, b.binary(op_kind::ne, m, m),
                                      b.binary(op_kind::eq, loop.carried[0], loop.carried[0]));
        better = b.binary(op_kind::bit_or, better, first_nan);
      }
      next = {b.where(better, m, loop.carried[0]), b.where(better, at, loop.carried[1])};
    } else {
      const op_kind combine = combine_of(op);
      for (int k = 0; k < np; ++k) next.push_back(b.binary(combine, loop.carried[k], b.cast(part_of(x, k), ct)));
    }
    auto results = b.end_for(next);
    if (!arg)
      for (int k = 0; k < np; ++k) results[std::size_t(k)] = b.create1(op, {results[std::size_t(k)]}, a);
    cvalue result = arg ? cvalue{results[1], -1} : cvalue{results[0], np == 2 ? results[1] : -1};
    if (p.shape == kernel_shape::split) store(bi, first, result, 1, 1);
    else store(bi, i32(0), result, p.TR, 1);
    b.finish();
    return std::move(f);
  }

  // col_loop: each block owns TR rows (contiguous in memory) and one column range of `parts`; it walks that range's
  // column tiles read as (TC, TR) tiles, reducing along axis 0 into a (1, TR) carry, and stores it at (part, rows)
  // of the transposed result (the result, or with parts > 1 the (parts, R) partials a second stage reduces).
  ir::function col_looped() {
    const node& root = *p.order.back();
    const op_kind op = root.op;
    const dtype ct = ir::component(root.compute);
    const int np = carried_parts(root.compute);
    value_id bid = attr1(op_kind::block_id, {}, {{"axis", std::int64_t(0)}});
    value_id bi = b.binary(op_kind::floordiv, bid, nparts), part = b.binary(op_kind::mod, bid, nparts);
    // The carry is one (1, TR) row, each tile reduced into it: a whole-tile carry as row_loop's made the column
    // sums slower (H100, session 25: 0.57-0.75x CuPy's against 0.61-0.91x on the H200 before it).
    std::vector<value_id> init(np, identity(op, ct, {1, p.TR}));
    auto loop = b.begin_for(part, column_tiles(), nparts, init);
    cvalue x = loop_root_input(bi, loop.iv, op);
    std::vector<std::pair<std::string, ir::attribute>> a = {{"axis", std::int64_t(0)}, {"keepdims", std::int64_t(1)}};
    const op_kind combine = combine_of(op);
    std::vector<value_id> next;
    for (int k = 0; k < np; ++k)
      next.push_back(b.binary(combine, loop.carried[k], b.cast(b.create1(op, {part_of(x, k)}, a), ct)));
    auto results = b.end_for(next);
    cvalue result = cast(cvalue{results[0], np == 2 ? results[1] : -1}, p.out_t);
    b.create(op_kind::store, {out, part, bi, result.re});
    if (result.is_complex()) b.create(op_kind::store, {out_im, part, bi, result.im});
    b.finish();
    return std::move(f);
  }

  // The per-element body (emit_body): the graph at one element, its values stored to the outputs (a reduction
  // root: its input, to `out`, for the VM to combine).
  ir::function element_body() {
    value_id zero = i32(0);
    if (p.batched) bb = zero;
    if (p.order.back()->kind == node_kind::reduce) {
      cvalue x;
      graph(zero, zero, &x);
      store(zero, zero, x, 1, 1);
    } else {
      auto v = graph(zero, zero, nullptr);
      for (std::size_t i = 0; i < p.sibling_at.size(); ++i)
        store_to(sib_out[i], sib_out_im[i], p.sibling_out[i].t, zero, zero, v[std::size_t(p.sibling_at[i])], 1, 1);
      store(zero, zero, v.back(), 1, 1);
    }
    b.finish();
    return std::move(f);
  }
};

}  // namespace

std::variant<std::int64_t, double> reduction_identity(op_kind op, dtype t) {
  const bool fl = ir::is_float(t);
  const int bits = 8 * size_bytes(t);
  switch (op) {
    case op_kind::reduce_sum: return std::int64_t(0);
    case op_kind::reduce_prod: return std::int64_t(1);
    case op_kind::reduce_max:
    case op_kind::argmax:
      if (fl) return -std::numeric_limits<double>::infinity();
      if (ir::is_bool(t) || ir::is_unsigned_int(t)) return std::int64_t(0);
      return bits == 64 ? std::numeric_limits<std::int64_t>::min() : -(std::int64_t(1) << (bits - 1));
    case op_kind::reduce_min:
    case op_kind::argmin:
      if (fl) return std::numeric_limits<double>::infinity();
      if (ir::is_bool(t)) return std::int64_t(1);
      if (ir::is_unsigned_int(t)) return bits == 64 ? std::int64_t(-1) : (std::int64_t(1) << bits) - 1;  // all ones
      return bits == 64 ? std::numeric_limits<std::int64_t>::max() : (std::int64_t(1) << (bits - 1)) - 1;
    default: fail(error_kind::internal, "no identity for reduction '", ir::info(op).text, "'");
  }
}

std::optional<ir::function> emit_body(const plan& p, std::string* why) {
  auto refuse = [&](const char* reason) -> std::optional<ir::function> {
    if (why) *why = reason;
    return std::nullopt;
  };
  const node& root = *p.order.back();
  for (const auto& n : p.order)
    if (n->kind == node_kind::scan) return refuse("a scan");
  for (const auto& n : p.order)
    if (n->kind == node_kind::reduce && n != p.order.back()) return refuse("a reduction inside the expression");
  if (p.row_result && root.kind != node_kind::reduce) return refuse("an expression of full reductions");
  if (root.kind == node_kind::reduce && (root.op == op_kind::argmax || root.op == op_kind::argmin))
    return refuse("argmax / argmin");
  if (root.kind == node_kind::reduce && ir::is_complex(root.compute)) return refuse("a complex reduction");
  plan one = p;  // the same parameters, one element per tile
  one.TR = one.TC = 1;
  if (root.kind == node_kind::reduce) one.out_t = root.compute;  // the body stores the value the VM combines
  emitter e(one, true);
  return e.element_body();
}

ir::function emit_kernel(const plan& p) {
  emitter e(p);
  if (p.shape == kernel_shape::map || p.shape == kernel_shape::rows) return e.map_or_rows();
  if (p.shape == kernel_shape::scan_loop) return e.scan_loop();
  if (p.shape == kernel_shape::col_loop) return e.col_looped();
  return e.looped();
}

}  // namespace tegula::array
