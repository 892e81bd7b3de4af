// Tile kernels shared by the codegen text tests and the GPU-vs-interpreter tests.
#pragma once
#include "codegen_test_util.hpp"

namespace tegula::codegen::test {

// out[i] = x[i] + y[i], one tile of n per block.
inline ir::function vector_add(std::int64_t n, dtype d = dtype::f32) {
  kernel k("vector_add");
  value_id x = k.array("x", d, 1), y = k.array("y", d, 1), out = k.array("out", d, 1);
  value_id i = k.bid();
  value_id a = k.load(x, {i}, {n}), b = k.load(y, {i}, {n});
  k.store(out, {i}, k.ew(op_kind::add, {a, b}));
  return k.finish();
}

// exp(-x*x)*y + 0.5*x on tiles of n.
inline ir::function chain(std::int64_t n, dtype d = dtype::f32) {
  kernel k("chain");
  value_id x = k.array("x", d, 1), y = k.array("y", d, 1), out = k.array("out", d, 1);
  value_id i = k.bid();
  value_id a = k.named(k.load(x, {i}, {n}), "xv"), b = k.named(k.load(y, {i}, {n}), "yv");
  value_id e = k.ew(op_kind::exp, {k.ew(op_kind::neg, {k.ew(op_kind::mul, {a, a})})});
  value_id half = k.constant(0.5, tile(d, {n}));
  value_id r = k.ew(op_kind::add, {k.ew(op_kind::mul, {e, b}), k.ew(op_kind::mul, {half, a})});
  k.store(out, {i}, r);
  return k.finish();
}

// The design doc's softmax: one (1, C) row per block, loaded with -inf padding.
inline ir::function softmax(std::int64_t c, dtype d = dtype::f32) {
  kernel k("softmax");
  value_id x = k.array("x", d, 2), out = k.array("out", d, 2);
  value_id row = k.bid(), zero = k.i32(0);
  value_id v = k.named(k.load(x, {row, zero}, {1, c}, "neg_inf"), "v");
  value_id m = k.named(k.reduce(op_kind::reduce_max, v, 1, true, d), "m");
  value_id e = k.named(k.ew(op_kind::exp, {k.ew(op_kind::sub, {v, k.broadcast(m, {1, c})})}), "e");
  value_id s = k.named(k.reduce(op_kind::reduce_sum, e, 1, true, d), "s");
  k.store(out, {row, zero}, k.ew(op_kind::div, {e, k.broadcast(s, {1, c})}));
  return k.finish();
}

// A layernorm row: (x - mean) * rsqrt(var + eps) * w + b, w and b 1-D (reshaped to (1, C)).
inline ir::function layernorm(std::int64_t c) {
  kernel k("layernorm");
  value_id x = k.array("x", dtype::f32, 2), w = k.array("w", dtype::f32, 1), b = k.array("b", dtype::f32, 1);
  value_id out = k.array("out", dtype::f32, 2), eps = k.scalar("eps", dtype::f32);
  value_id row = k.bid(), zero = k.i32(0);
  value_id v = k.load(x, {row, zero}, {1, c});
  value_id inv_c = k.constant(1.0 / double(c), tile(dtype::f32, {1, 1}));
  value_id mean = k.ew(op_kind::mul, {k.reduce(op_kind::reduce_sum, v, 1, true, dtype::f32), inv_c});
  value_id xc = k.ew(op_kind::sub, {v, k.broadcast(mean, {1, c})});
  value_id var = k.ew(op_kind::mul, {k.reduce(op_kind::reduce_sum, k.ew(op_kind::mul, {xc, xc}), 1, true, dtype::f32), inv_c});
  value_id rstd = k.ew(op_kind::rsqrt, {k.ew(op_kind::add, {var, k.broadcast(eps, {1, 1})})});
  value_id wv = k.op1(op_kind::expand_dims, {k.load(w, {zero}, {c})}, tile(dtype::f32, {1, c}), {{"axis", std::int64_t(0)}});
  value_id bv = k.op1(op_kind::reshape, {k.load(b, {zero}, {c})}, tile(dtype::f32, {1, c}), {{"shape", shape{1, c}}});
  value_id y = k.ew(op_kind::add, {k.ew(op_kind::mul, {k.ew(op_kind::mul, {xc, k.broadcast(rstd, {1, c})}), wv}), bv});
  k.store(out, {row, zero}, y);
  return k.finish();
}

// for t in range(bid, num_tiles, num_blocks): acc += x[t]; atomic_add(out, 0, sum(acc)).
inline ir::function persistent_sum(std::int64_t n) {
  kernel k("persistent_sum");
  value_id x = k.array("x", dtype::f32, 1), out = k.array("out", dtype::f32, 1);
  value_id tiles = k.op1(op_kind::num_tiles, {x}, tile(dtype::i32), {{"axis", std::int64_t(0)}, {"tile", n}});
  value_id acc0 = k.constant(0.0, tile(dtype::f32, {n}));
  auto res = k.for_(k.bid(), tiles, k.nblocks(), {acc0}, [&](value_id t, std::vector<value_id> acc) {
    return std::vector<value_id>{k.ew(op_kind::add, {acc[0], k.load(x, {t}, {n})})};
  });
  value_id total = k.op1(op_kind::reduce_sum, {res[0]}, tile(dtype::f32), {{"axis", std::int64_t(0)}, {"keepdims", std::int64_t(0)}});
  k.op(op_kind::atomic_add, {out, k.i32(0), total}, {tile(dtype::f32)}, {{"has_mask", std::int64_t(0)}});
  return k.finish();
}

// out[j-tile, i-tile] = x[i-tile, j-tile].T with (64, 48) tiles; grid (row tiles, column tiles).
inline ir::function transpose(std::int64_t r, std::int64_t c, dtype d = dtype::f32) {
  kernel k("transpose");
  value_id x = k.array("x", d, 2), out = k.array("out", d, 2);
  value_id i = k.bid(0), j = k.bid(1);
  value_id v = k.load(x, {i, j}, {r, c});
  value_id t = k.op1(op_kind::permute, {v}, tile(d, {c, r}), {{"perm", shape{1, 0}}});
  k.store(out, {j, i}, t);
  return k.finish();
}

// y = x[offsets] * 2 scattered back to offsets, offsets = 2 * arange + 512 * bid, masked by < n.
inline ir::function gather_scatter() {
  kernel k("gather_scatter");
  value_id x = k.array("x", dtype::f32, 1), y = k.array("y", dtype::f32, 1), n = k.scalar("n", dtype::i32);
  const shape s{256};
  value_id base = k.broadcast(k.ew(op_kind::mul, {k.bid(), k.i32(512)}), s);
  value_id ar = k.op1(op_kind::arange, {}, tile(dtype::i32, s), {{"n", std::int64_t(256)}});
  value_id idx = k.ew(op_kind::add, {k.ew(op_kind::mul, {ar, k.iconst(2, tile(dtype::i32, s))}), base});
  value_id mask = k.ew(op_kind::lt, {idx, k.broadcast(n, s)});
  value_id g = k.op1(op_kind::gather, {x, idx, mask}, tile(dtype::f32, s), {{"padding", std::string("nan")}, {"has_mask", std::int64_t(1)}});
  value_id two = k.constant(2.0, tile(dtype::f32, s));
  k.op(op_kind::scatter, {y, idx, k.ew(op_kind::mul, {g, two}), mask}, {}, {{"has_mask", std::int64_t(1)}});
  return k.finish();
}

}  // namespace tegula::codegen::test
