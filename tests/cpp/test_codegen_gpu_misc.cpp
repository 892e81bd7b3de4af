// GPU tests of generated kernels against the interpreter: conversions, float division rules,
// atomics, control flow, print and assert.
#include <gtest/gtest.h>

#include "codegen_gpu_util.hpp"
#include "codegen_test_kernels.hpp"

namespace tegula::codegen::test {
namespace {

// out[k] = astype(x, to[k]) for every target dtype, each to its own array.
ir::function conversions(dtype from, const std::vector<dtype>& to) {
  kernel k("conversions");
  value_id x = k.array("x", from, 1);
  std::vector<value_id> outs;
  for (dtype t : to) outs.push_back(k.array(std::string(ir::name(t)), t, 1));
  value_id i = k.bid();
  value_id v = k.load(x, {i}, {300});
  for (std::size_t n = 0; n < to.size(); ++n)
    k.store(outs[n], {i}, k.op1(op_kind::astype, {v}, tile(to[n], {300}), {{"dtype", to[n]}}));
  return k.finish();
}

// x converted to each dtype of `to` on the GPU, against the interpreter, bit for bit.
void expect_conversions_match(host_array& x, const std::vector<dtype>& to, std::mt19937& rng) {
  std::vector<host_array> outs;
  std::vector<gpu_arg> args{&x};
  for (dtype t : to) outs.push_back(random_array(t, {600}, rng, 0, 1));
  for (auto& o : outs) args.push_back(&o);
  ir::function f = conversions(x.elem, to);
  expect_gpu_matches_interpreter(f, args, {2, 1, 1}, dense(f), {0, 0});
}

TEST(CodegenGpu, ConversionsRoundOnce) {
  TEGULA_REQUIRE_GPU();
  std::mt19937 rng(21);
  const std::vector<dtype> all = {dtype::b1, dtype::i8, dtype::i16, dtype::i32, dtype::i64, dtype::u8, dtype::u16,
                                  dtype::u32, dtype::u64, dtype::f16, dtype::bf16, dtype::f32, dtype::f64};
  for (dtype from : all) {
    SCOPED_TRACE(ir::name(from));
    // Values every target holds (0..100 fits every integer type; no float -> int overflow).
    host_array x = random_array(from, {600}, rng, 0, 100);
    if (from == dtype::f64 || from == dtype::f32)
      for (std::int64_t e = 0; e < x.alloc; ++e) x.set(e, std::uniform_real_distribution<double>(0, 100)(rng));
    expect_conversions_match(x, all, rng);
  }
  // Large and negative integers to floats and the narrow types (rounding of wide ints).
  for (dtype from : {dtype::i64, dtype::i32, dtype::u64}) {
    host_array x = random_array(from, {600}, rng, from == dtype::u64 ? 0 : -2e9, 2e9);
    expect_conversions_match(x, {dtype::f16, dtype::bf16, dtype::f32, dtype::f64}, rng);
  }
  // Floats out of every integer type's range, and NaN (undefined in C): the interpreter follows the generated
  // CUDA (a saturating int32 or int64 conversion, NaN to 0, wrapped to the width).
  for (dtype from : {dtype::f32, dtype::f64}) {
    SCOPED_TRACE(ir::name(from));
    host_array x = random_array(from, {600}, rng, -3e10, 3e10);
    const double special[] = {300.5, -200.5, 1e10, -1e10, 3e9, -3e9, 1e19, 2e19, -1e19, 1e30, -1e30, NAN, 65536.0,
                              -129.0, 4294967296.0, 9.3e18};
    for (std::size_t e = 0; e < sizeof(special) / sizeof(special[0]); ++e) x.set(std::int64_t(e), special[e]);
    expect_conversions_match(x, {dtype::i8, dtype::i16, dtype::i32, dtype::i64, dtype::u8, dtype::u16, dtype::u32,
                                 dtype::u64}, rng);
  }
}

TEST(CodegenGpu, FloatFloorDivModMinMax) {
  TEGULA_REQUIRE_GPU();
  std::mt19937 rng(22);
  for (dtype d : {dtype::f32, dtype::f64, dtype::f16}) {
    kernel k("float_ops");
    value_id x = k.array("x", d, 1), y = k.array("y", d, 1), out = k.array("out", d, 2);
    value_id i = k.bid(), z = k.i32(0);
    value_id va = k.load(x, {i}, {128}), vb = k.load(y, {i}, {128});
    std::int64_t row = 0;
    for (op_kind o : {op_kind::floordiv, op_kind::mod, op_kind::minimum, op_kind::maximum, op_kind::div, op_kind::pow}) {
      value_id r = k.op1(op_kind::reshape, {k.ew(o, {va, vb})}, tile(d, {1, 128}), {{"shape", shape{1, 128}}});
      k.store(out, {k.ew(op_kind::add, {k.ew(op_kind::mul, {i, k.i32(6)}), k.i32(row++)}), z}, r);
    }
    const ir::function& f = k.finish();
    host_array a = random_array(d, {256}, rng, -20, 20), b = random_array(d, {256}, rng, -4, 4);
    a.set(3, NAN);
    b.set(5, NAN);
    b.set(7, 0);
    b.set(8, -0.0);
    host_array o = random_array(d, {12, 128}, rng, 0, 1);
    expect_gpu_matches_interpreter(f, {&a, &b, &o}, {2, 1, 1}, dense(f), d == dtype::f16 ? tolerance{2e-3, 2e-3} : tolerance{1e-6, 1e-6});
  }
}

TEST(CodegenGpu, AtomicsHistogramsAndExtremes) {
  TEGULA_REQUIRE_GPU();
  std::mt19937 rng(23);
  // hist[x % 7] += 1 (f32, i32, f16 by CAS), best[x % 5] = max(best, x) (i32 native, f32 CAS).
  kernel k("atomics");
  value_id x = k.array("x", dtype::i32, 1), hf = k.array("hf", dtype::f32, 1), hi = k.array("hi", dtype::i32, 1);
  value_id hh = k.array("hh", dtype::f16, 1), bi = k.array("bi", dtype::i32, 1), bf = k.array("bf", dtype::f32, 1);
  value_id mn = k.array("mn", dtype::i64, 1);
  const shape s{512};
  value_id v = k.load(x, {k.bid()}, s);
  value_id m7 = k.ew(op_kind::mod, {v, k.iconst(7, tile(dtype::i32, s))});
  value_id m5 = k.ew(op_kind::mod, {v, k.iconst(5, tile(dtype::i32, s))});
  value_id mask = k.ew(op_kind::ne, {m7, k.iconst(3, tile(dtype::i32, s))});
  attrs masked{{"has_mask", std::int64_t(1)}}, plain{{"has_mask", std::int64_t(0)}};
  k.op(op_kind::atomic_add, {hf, m7, k.constant(1.0, tile(dtype::f32, s)), mask}, {tile(dtype::f32, s)}, masked);
  k.op(op_kind::atomic_add, {hi, m7, k.iconst(1, tile(dtype::i32, s))}, {tile(dtype::i32, s)}, plain);
  k.op(op_kind::atomic_add, {hh, m7, k.constant(1.0, tile(dtype::f16, s))}, {tile(dtype::f16, s)}, plain);
  k.op(op_kind::atomic_max, {bi, m5, v}, {tile(dtype::i32, s)}, plain);
  value_id vf = k.op1(op_kind::astype, {v}, tile(dtype::f32, s), {{"dtype", dtype::f32}});
  k.op(op_kind::atomic_max, {bf, m5, vf}, {tile(dtype::f32, s)}, plain);
  value_id v64 = k.op1(op_kind::astype, {v}, tile(dtype::i64, s), {{"dtype", dtype::i64}});
  k.op(op_kind::atomic_min, {mn, m5, v64}, {tile(dtype::i64, s)}, plain);
  const ir::function& f = k.finish();
  host_array a = random_array(dtype::i32, {512 * 3}, rng, 0, 100000);
  host_array h1 = random_array(dtype::f32, {7}, rng, 0, 0), h2 = random_array(dtype::i32, {7}, rng, 0, 0);
  host_array h3 = random_array(dtype::f16, {7}, rng, 0, 0), b1 = random_array(dtype::i32, {5}, rng, 0, 0);
  host_array b2 = random_array(dtype::f32, {5}, rng, -1, -1), m = random_array(dtype::i64, {5}, rng, 1e6, 1e6);
  expect_gpu_matches_interpreter(f, {&a, &h1, &h2, &h3, &b1, &b2, &m}, {3, 1, 1}, dense(f), {0, 0});
}

TEST(CodegenGpu, ControlFlowCarriesTiles) {
  TEGULA_REQUIRE_GPU();
  std::mt19937 rng(24);
  kernel k("control");
  value_id x = k.array("x", dtype::f32, 1), out = k.array("out", dtype::f32, 1), n = k.scalar("n", dtype::i32);
  value_id i = k.bid();
  const shape s{300};
  value_id v = k.load(x, {i}, s);
  auto w = k.while_({k.i32(0), v},
                    [&](std::vector<value_id> a) { return std::vector<value_id>{k.ew(op_kind::lt, {a[0], n}), a[0], a[1]}; },
                    [&](std::vector<value_id> a) {
                      value_id half = k.constant(0.5, tile(dtype::f32, s));
                      return std::vector<value_id>{k.ew(op_kind::add, {a[0], k.i32(1)}), k.ew(op_kind::mul, {a[1], half})};
                    });
  value_id even = k.ew(op_kind::eq, {k.ew(op_kind::mod, {i, k.i32(2)}), k.i32(0)});
  auto r = k.if_(even, {tile(dtype::f32, s)}, [&] { return std::vector<value_id>{k.ew(op_kind::neg, {w[1]})}; },
                 [&] {
                   value_id t = k.op1(op_kind::reduce_sum, {w[1]}, tile(dtype::f32), {{"axis", std::int64_t(0)}, {"keepdims", std::int64_t(0)}});
                   return std::vector<value_id>{k.ew(op_kind::add, {w[1], k.broadcast(t, s)})};
                 });
  auto back = k.for_(k.i32(10), k.i32(0), k.i32(-3), {r[0]}, [&](value_id t, std::vector<value_id> c) {
    value_id tf = k.broadcast(k.op1(op_kind::astype, {t}, tile(dtype::f32), {{"dtype", dtype::f32}}), s);
    return std::vector<value_id>{k.ew(op_kind::add, {c[0], tf})};
  });
  auto sw = k.while_({k.i32(0), back[0], v},
                     [&](std::vector<value_id> a) { return std::vector<value_id>{k.ew(op_kind::lt, {a[0], k.i32(3)}), a[0], a[1], a[2]}; },
                     [&](std::vector<value_id> a) { return std::vector<value_id>{k.ew(op_kind::add, {a[0], k.i32(1)}), a[2], a[1]}; });
  k.store(out, {i}, sw[1]);
  const ir::function& f = k.finish();
  host_array a = random_array(dtype::f32, {1000}, rng, -4, 4), o = random_array(dtype::f32, {1000}, rng, 0, 1);
  expect_gpu_matches_interpreter(f, {&a, &o, interp::scalar_arg{std::int64_t(3)}}, {4, 1, 1}, dense(f), {1e-5, 1e-5});
}

TEST(CodegenGpu, PrintAndPassingAssertRun) {
  TEGULA_REQUIRE_GPU();
  std::mt19937 rng(25);
  kernel k("debug");
  value_id x = k.array("x", dtype::f32, 2);
  value_id i = k.bid(), z = k.i32(0);
  value_id v = k.load(x, {i, z}, {2, 4});
  k.op(op_kind::print, {i, v}, {}, {{"format", std::string("block {} x {}")}});
  value_id ok = k.ew(op_kind::ge, {v, k.constant(-10.0, tile(dtype::f32, {2, 4}))});
  k.op(op_kind::assert_, {ok}, {}, {{"message", std::string("x >= -10")}});
  const ir::function& f = k.finish();
  host_array a = random_array(dtype::f32, {2, 4}, rng, -1, 1);
  expect_gpu_matches_interpreter(f, {&a}, {1, 1, 1}, dense(f));
}

}  // namespace
}  // namespace tegula::codegen::test
