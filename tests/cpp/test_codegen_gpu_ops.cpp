// GPU tests of generated kernels against the interpreter: reductions, scans, shapes, integer
// arithmetic, conversions, atomics, control flow.
#include <gtest/gtest.h>

#include "codegen_gpu_util.hpp"
#include "codegen_test_kernels.hpp"

namespace tegula::codegen::test {
namespace {

dtype sum_dtype(dtype d) { return ir::is_float(d) ? d : ir::is_unsigned_int(d) ? dtype::u64 : dtype::i64; }

// Every reduction of a (r, c) tile along `axis`, each stored to its own output.
ir::function reductions(dtype d, std::int64_t r, std::int64_t c, int axis, bool keep) {
  kernel k("reductions");
  value_id x = k.array("x", d, 2);
  const op_kind kinds[] = {op_kind::reduce_sum, op_kind::reduce_prod, op_kind::reduce_max, op_kind::reduce_min,
                           op_kind::argmax, op_kind::argmin};
  std::vector<value_id> outs;
  for (op_kind kk : kinds) {
    dtype rt = kk == op_kind::argmax || kk == op_kind::argmin ? dtype::i32
               : kk == op_kind::reduce_sum || kk == op_kind::reduce_prod ? sum_dtype(d) : d;
    outs.push_back(k.array(std::string(ir::info(kk).text), rt, keep ? 2 : 1));
  }
  value_id i = k.bid(), z = k.i32(0);
  value_id v = k.load(x, {i, z}, {r, c});
  for (std::size_t n = 0; n < outs.size(); ++n) {
    op_kind kk = kinds[n];
    value_id red = k.reduce(kk, v, axis, keep, k.type_of(outs[n]).elem);
    if (keep) k.store(outs[n], {i, z}, red);
    else k.store(outs[n], {i}, red);
  }
  return k.finish();
}

TEST(CodegenGpu, ReductionsBlockAndAxisPaths) {
  TEGULA_REQUIRE_GPU();
  std::mt19937 rng(11);
  struct tcase {
    std::int64_t r, c;
    int axis;
    bool keep;
  };
  for (dtype d : {dtype::f32, dtype::i32, dtype::f16, dtype::u8, dtype::f64, dtype::b1, dtype::i64}) {
    for (tcase t : {tcase{1, 1000, 1, true}, tcase{6, 40, 1, false}, tcase{6, 40, 0, true}, tcase{300, 1, 0, false},
                    tcase{5, 7, 1, true}}) {
      SCOPED_TRACE(std::string(ir::name(d)) + " " + std::to_string(t.r) + "x" + std::to_string(t.c) + " axis " +
                   std::to_string(t.axis));
      ir::function f = reductions(d, t.r, t.c, t.axis, t.keep);
      const std::int64_t blocks = 3;
      // Small values with ties (argmax/argmin pick the first); products stay finite.
      double lo = ir::is_unsigned_int(d) || d == dtype::b1 ? 0 : -3, hi = 3;
      host_array x = random_array(d, {blocks * t.r + 1, t.c}, rng, lo, hi);
      std::vector<host_array> outs;
      shape out_shape;
      std::int64_t kept = t.axis == 0 ? t.c : t.r;
      for (int n = 0; n < 6; ++n) {
        dtype rt = n >= 4 ? dtype::i32 : n < 2 ? sum_dtype(d) : d;
        shape s = t.keep ? (t.axis == 0 ? shape{blocks, t.c} : shape{blocks * t.r, 1}) : shape{blocks * kept};
        outs.push_back(random_array(rt, s, rng, 0, 1));
      }
      std::vector<gpu_arg> args{&x};
      for (auto& o : outs) args.push_back(&o);
      tolerance tol;
      if (d == dtype::f16) tol = {4e-3, 4e-3};
      if (d == dtype::f32) tol = {1e-5, 1e-5};
      expect_gpu_matches_interpreter(f, args, {blocks, 1, 1}, dense(f), tol);
    }
  }
}

TEST(CodegenGpu, NanPropagationInMaxAndArgmax) {
  TEGULA_REQUIRE_GPU();
  std::mt19937 rng(12);
  ir::function f = reductions(dtype::f32, 1, 100, 1, true);
  host_array x = random_array(dtype::f32, {4, 100}, rng, -3, 3);
  x.set(17, NAN);
  x.set(100 + 99, NAN);
  x.set(200 + 3, NAN);
  x.set(200 + 50, NAN);
  std::vector<host_array> outs;
  for (int n = 0; n < 6; ++n) outs.push_back(random_array(n >= 4 ? dtype::i32 : dtype::f32, {4, 1}, rng, 0, 1));
  std::vector<gpu_arg> args{&x};
  for (auto& o : outs) args.push_back(&o);
  expect_gpu_matches_interpreter(f, args, {4, 1, 1}, dense(f), {1e-5, 1e-5});
}

TEST(CodegenGpu, Scans) {
  TEGULA_REQUIRE_GPU();
  std::mt19937 rng(13);
  kernel k("scans");
  value_id x = k.array("x", dtype::i32, 1), out = k.array("out", dtype::i64, 1);
  value_id y = k.array("y", dtype::f32, 2), yout = k.array("yout", dtype::f32, 2), yout2 = k.array("yout2", dtype::f32, 2);
  value_id i = k.bid(), z = k.i32(0);
  value_id v = k.load(x, {i}, {4096});
  k.store(out, {i}, k.op1(op_kind::cumsum, {v}, tile(dtype::i64, {4096}), {{"axis", std::int64_t(0)}, {"reverse", std::int64_t(0)}}));
  value_id w = k.load(y, {i, z}, {8, 100});
  k.store(yout, {i, z}, k.op1(op_kind::cumprod, {w}, tile(dtype::f32, {8, 100}), {{"axis", std::int64_t(1)}, {"reverse", std::int64_t(1)}}));
  k.store(yout2, {i, z}, k.op1(op_kind::cumsum, {w}, tile(dtype::f32, {8, 100}), {{"axis", std::int64_t(0)}, {"reverse", std::int64_t(0)}}));
  const ir::function& f = k.finish();
  host_array a = random_array(dtype::i32, {4096 * 2 + 5}, rng, -1000, 1000), b = random_array(dtype::i64, {4096 * 2 + 5}, rng, 0, 1);
  host_array c = random_array(dtype::f32, {20, 100}, rng, 0.9, 1.1), d = random_array(dtype::f32, {20, 100}, rng, 0, 1);
  host_array e = random_array(dtype::f32, {20, 100}, rng, 0, 1);
  expect_gpu_matches_interpreter(f, {&a, &b, &c, &d, &e}, {3, 1, 1}, dense(f), {1e-5, 1e-5});
}

TEST(CodegenGpu, CustomReduceAndScan) {
  TEGULA_REQUIRE_GPU();
  std::mt19937 rng(14);
  kernel k("custom");
  value_id x = k.array("x", dtype::i32, 1), out = k.array("out", dtype::i32, 1), sc = k.array("sc", dtype::i32, 1);
  value_id i = k.bid();
  value_id v = k.load(x, {i}, {500});
  value_id id = k.i32(0);
  value_id r = k.combine_op(op_kind::reduce, v, id, tile(dtype::i32), {{"axis", std::int64_t(0)}, {"keepdims", std::int64_t(0)}},
                            [&](value_id a, value_id b) { return k.ew(op_kind::bit_xor, {a, b}); });
  value_id v2 = k.op1(op_kind::reshape, {v}, tile(dtype::i32, {5, 100}), {{"shape", shape{5, 100}}});
  value_id r2 = k.combine_op(op_kind::reduce, v2, id, tile(dtype::i32, {5}), {{"axis", std::int64_t(1)}, {"keepdims", std::int64_t(0)}},
                             [&](value_id a, value_id b) { return k.ew(op_kind::maximum, {a, b}); });
  k.store(out, {i}, k.ew(op_kind::add, {r2, k.broadcast(r, {5})}));
  value_id s = k.combine_op(op_kind::scan, v, k.i32(-1000000), tile(dtype::i32, {500}), {{"axis", std::int64_t(0)}, {"reverse", std::int64_t(1)}},
                            [&](value_id a, value_id b) { return k.ew(op_kind::maximum, {a, b}); });
  k.store(sc, {i}, s);
  const ir::function& f = k.finish();
  host_array a = random_array(dtype::i32, {1400}, rng, -100000, 100000), b = random_array(dtype::i32, {15}, rng, 0, 1);
  host_array c = random_array(dtype::i32, {1400}, rng, 0, 1);
  expect_gpu_matches_interpreter(f, {&a, &b, &c}, {3, 1, 1}, dense(f));
}

TEST(CodegenGpu, BroadcastReshapeExpandDims) {
  TEGULA_REQUIRE_GPU();
  std::mt19937 rng(15);
  kernel k("shapes");
  value_id x = k.array("x", dtype::f64, 2), out = k.array("out", dtype::f64, 3);
  value_id z = k.i32(0);
  value_id col = k.load(x, {z, z}, {7, 1});
  value_id b = k.broadcast(col, {3, 7, 5});
  value_id r = k.op1(op_kind::reshape, {k.load(x, {z, z}, {5, 21})}, tile(dtype::f64, {3, 7, 5}), {{"shape", shape{3, 7, 5}}});
  value_id e = k.op1(op_kind::expand_dims, {k.load(x, {z, z}, {7, 5})}, tile(dtype::f64, {1, 7, 5}), {{"axis", std::int64_t(0)}});
  value_id s = k.ew(op_kind::add, {k.ew(op_kind::add, {b, r}), k.broadcast(e, {3, 7, 5})});
  k.store(out, {z, z, z}, s);
  const ir::function& f = k.finish();
  host_array a = random_array(dtype::f64, {9, 30}, rng, -5, 5), o = random_array(dtype::f64, {3, 7, 5}, rng, 0, 1);
  expect_gpu_matches_interpreter(f, {&a, &o}, {1, 1, 1}, dense(f));
}

// a op b for every integer op on one dtype: arithmetic with divisors y (never 0), powers and
// shifts with small non-negative p (shift counts reach past the width).
ir::function int_ops(dtype d) {
  kernel k("int_ops");
  value_id x = k.array("x", d, 1), y = k.array("y", d, 1), p = k.array("p", d, 1), out = k.array("out", d, 2);
  value_id i = k.bid(), z = k.i32(0);
  const shape s{200};
  value_id a = k.load(x, {i}, s), b = k.load(y, {i}, s), c = k.load(p, {i}, s);
  const op_kind with_y[] = {op_kind::add, op_kind::sub, op_kind::mul, op_kind::div, op_kind::floordiv, op_kind::mod,
                            op_kind::minimum, op_kind::maximum, op_kind::bit_and, op_kind::bit_or, op_kind::bit_xor,
                            op_kind::lt, op_kind::eq};
  const op_kind with_p[] = {op_kind::pow, op_kind::shl, op_kind::shr};
  const op_kind unary[] = {op_kind::neg, op_kind::abs, op_kind::logical_not};
  std::vector<value_id> results;
  for (op_kind o : with_y) {
    value_id r = k.ew(o, {a, b});
    if (k.type_of(r).elem == dtype::b1) r = k.op1(op_kind::astype, {r}, tile(d, s), {{"dtype", d}});
    results.push_back(r);
  }
  for (op_kind o : with_p) results.push_back(k.ew(o, {a, c}));
  for (op_kind o : unary) results.push_back(k.ew(o, {a}));
  std::int64_t row = 0;
  for (value_id r : results) {
    value_id r2 = k.op1(op_kind::reshape, {r}, tile(d, {1, 200}), {{"shape", shape{1, 200}}});
    k.store(out, {k.ew(op_kind::add, {k.ew(op_kind::mul, {i, k.i32(19)}), k.i32(row++)}), z}, r2);
  }
  return k.finish();
}

TEST(CodegenGpu, IntegerArithmeticNumpyRules) {
  TEGULA_REQUIRE_GPU();
  std::mt19937 rng(16);
  for (dtype d : {dtype::i8, dtype::i32, dtype::i64, dtype::u8, dtype::u32, dtype::i16, dtype::u64}) {
    SCOPED_TRACE(ir::name(d));
    ir::function f = int_ops(d);
    int bits = std::min(ir::size_bits(d), 40);
    double lo = ir::is_signed_int(d) ? -std::ldexp(1, bits - 1) + 1 : 0;
    double hi = std::ldexp(1, bits - (ir::is_signed_int(d) ? 1 : 0)) - 1;
    host_array x = random_array(d, {400}, rng, lo, hi);
    host_array y = random_array(d, {400}, rng, ir::is_signed_int(d) ? -100 : 1, 100);
    for (std::int64_t e = 0; e < y.alloc; ++e)
      if (y.get(e) == 0) y.set(e, 7);
    host_array p = random_array(d, {400}, rng, 0, ir::size_bits(d) + 3);
    host_array out = random_array(d, {2 * 19, 200}, rng, 0, 1);
    expect_gpu_matches_interpreter(f, {&x, &y, &p, &out}, {2, 1, 1}, dense(f));
  }
}

}  // namespace
}  // namespace tegula::codegen::test
