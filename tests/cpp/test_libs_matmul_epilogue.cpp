// Tests of products with fused epilogues over engine arrays (libs/matmul_epilogue_arrays, libs/host_gemm) on the
// CPU: every epilogue against a direct host product, c and bias broadcast or cast, operands handed over as they lie,
// float8 layouts, bad input refused before any memory is touched, repeat runs reading the operands' current values.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

#include "tegula/array/materialize.hpp"
#include "tegula/array/ndarray.hpp"
#include "tegula/interp/small_float.hpp"
#include "tegula/libs/host_gemm.hpp"
#include "tegula/libs/matmul_epilogue_arrays.hpp"
#include "tegula/support/error.hpp"

namespace tegula::libs {
namespace {

using array::dims;
using array::ndarray;
using array::node_ptr;
const array::where_to cpu = array::where_to::cpu();

std::vector<double> ramp(std::size_t n, double scale, double phase = 0) {
  std::vector<double> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = std::sin(double(i) * 0.7 + phase) * scale;
  return v;
}

// The error kind a call throws (or none).
template <class F>
std::optional<error_kind> thrown(F&& f) {
  try {
    f();
  } catch (const error& e) {
    return e.kind();
  }
  return std::nullopt;
}

const char* const all_epilogues[] = {"none", "relu", "bias", "relu_bias", "gelu", "gelu_bias", "relu_aux",
                                     "relu_aux_bias", "gelu_aux", "gelu_aux_bias"};

TEST(MatmulEpilogue, EveryEpilogueMatchesADirectProductWithCAndBias) {
  const std::int64_t B = 2, m = 7, k = 5, n = 3;
  const auto ha = ramp(std::size_t(B * m * k), 1), hb = ramp(std::size_t(k * n), 2, 1), hc = ramp(std::size_t(m * n), 1, 2);
  const auto hbias = ramp(std::size_t(n), 1.5, 3);
  for (const char* name : all_epilogues) {
    SCOPED_TRACE(name);
    ndarray a = ndarray::from_vector(ha, {B, m, k}, cpu), b = ndarray::from_vector(hb, {k, n}, cpu);
    ndarray c = ndarray::from_vector(hc, {m, n}, cpu);  // broadcast over the batch
    const bool with_bias = std::strstr(name, "bias") != nullptr;
    gemm_epilogue e = epilogue_named(name, with_bias ? ndarray::from_vector(hbias, {n}, cpu).handle() : nullptr);
    e.alpha = 0.5, e.beta = 2.0, e.c = c.handle();
    gemm_result r = fused_gemm(a.handle(), b.handle(), e);
    ASSERT_EQ(r.d->shape, (dims{B, m, n}));
    ASSERT_EQ(r.aux != nullptr, std::strstr(name, "aux") != nullptr);
    auto d = ndarray(r.d).to_vector<double>();
    std::vector<double> aux = r.aux ? ndarray(r.aux).to_vector<double>() : std::vector<double>();
    for (std::int64_t bb = 0; bb < B; ++bb)
      for (std::int64_t i = 0; i < m; ++i)
        for (std::int64_t j = 0; j < n; ++j) {
          double s = 0;
          for (std::int64_t l = 0; l < k; ++l) s += ha[std::size_t((bb * m + i) * k + l)] * hb[std::size_t(l * n + j)];
          double pre = 0.5 * s + 2.0 * hc[std::size_t(i * n + j)] + (with_bias ? hbias[std::size_t(j)] : 0.0);
          double post = std::strncmp(name, "relu", 4) == 0 ? std::max(pre, 0.0)
                        : std::strncmp(name, "gelu", 4) == 0 ? gelu_tanh(pre) : pre;
          const std::size_t at = std::size_t((bb * m + i) * n + j);
          EXPECT_NEAR(d[at], post, 1e-12);
          if (r.aux) EXPECT_NEAR(aux[at], pre, 1e-12);
        }
  }
}

TEST(MatmulEpilogue, GeluIsCublasLtsTanhForm) {
  EXPECT_DOUBLE_EQ(gelu_tanh(0.0), 0.0);
  EXPECT_NEAR(gelu_tanh(1.0), 0.8411919906082768, 1e-15);
  EXPECT_NEAR(gelu_tanh(-3.0), -0.0036373920817729943, 1e-15);
}

// The product alpha * a @ b + beta * c + bias of float64 (m, k) @ (k, n), for the layout tests below.
std::vector<double> direct(const std::vector<double>& a, const std::vector<double>& b, std::int64_t m, std::int64_t k,
                           std::int64_t n, double alpha = 1, const std::vector<double>& c = {}, double beta = 0,
                           const std::vector<double>& bias = {}) {
  std::vector<double> out(std::size_t(m * n));
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (std::int64_t l = 0; l < k; ++l) s += a[std::size_t(i * k + l)] * b[std::size_t(l * n + j)];
      s *= alpha;
      if (!c.empty()) s += beta * c[std::size_t(i * n + j)];
      if (!bias.empty()) s += bias[std::size_t(j)];
      out[std::size_t(i * n + j)] = s;
    }
  return out;
}

void expect_near(const std::vector<double>& got, const std::vector<double>& want, double tol) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], want[i], tol) << "at " << i;
}

TEST(MatmulEpilogue, CAndBiasBroadcastCastOrLieAsTheyAre) {
  const std::int64_t m = 6, k = 4, n = 5;
  const auto ha = ramp(std::size_t(m * k), 1), hb = ramp(std::size_t(k * n), 1, 1);
  ndarray a = ndarray::from_vector(ha, {m, k}, cpu), b = ndarray::from_vector(hb, {k, n}, cpu);
  // c of shape (n,) (a row for every row), (m, 1) (a column), float32 (cast), and the full (m, n) as it lies
  const auto row = ramp(std::size_t(n), 1, 2), col = ramp(std::size_t(m), 1, 3), full = ramp(std::size_t(m * n), 1, 4);
  struct c_case {
    ndarray c;
    std::vector<double> as_full;
  };
  std::vector<double> row_full(std::size_t(m * n)), col_full(std::size_t(m * n));
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j)
      row_full[std::size_t(i * n + j)] = row[std::size_t(j)], col_full[std::size_t(i * n + j)] = col[std::size_t(i)];
  std::vector<double> full32(full.size());
  for (std::size_t i = 0; i < full.size(); ++i) full32[i] = double(float(full[i]));
  std::vector<c_case> cases{{ndarray::from_vector(row, {n}, cpu), row_full},
                            {ndarray::from_vector(col, {m, 1}, cpu), col_full},
                            {ndarray::from_vector(full, {m, n}, cpu).astype(ir::dtype::f32), full32},
                            {ndarray::from_vector(full, {m, n}, cpu), full}};
  for (auto& cc : cases) {
    gemm_epilogue e;
    e.alpha = 1.5, e.beta = -0.5, e.c = cc.c.handle();
    expect_near(ndarray(fused_gemm(a.handle(), b.handle(), e).d).to_vector<double>(),
                direct(ha, hb, m, k, n, 1.5, cc.as_full, -0.5), 1e-12);
  }
  // beta 0: c is not read (a NaN c changes nothing)
  gemm_epilogue e0;
  e0.c = ndarray::full({m, n}, NAN, ir::dtype::f64, cpu).handle();
  expect_near(ndarray(fused_gemm(a.handle(), b.handle(), e0).d).to_vector<double>(), direct(ha, hb, m, k, n), 1e-12);
  // a float32 bias is cast; a strided bias (every other element of 2n) is copied
  const auto hbias = ramp(std::size_t(2 * n), 1, 5);
  ndarray wide = ndarray::from_vector(hbias, {2 * n}, cpu);
  node_ptr strided = array::make_leaf(wide.handle()->data, array::layout{{n}, {2}, 0}, ir::dtype::f64);
  std::vector<double> every_other(static_cast<std::size_t>(n));
  for (std::int64_t j = 0; j < n; ++j) every_other[std::size_t(j)] = hbias[std::size_t(2 * j)];
  expect_near(ndarray(fused_gemm(a.handle(), b.handle(), epilogue_named("bias", strided)).d).to_vector<double>(),
              direct(ha, hb, m, k, n, 1, {}, 0, every_other), 1e-12);
  ndarray b32 = ndarray::from_vector(every_other, {n}, cpu).astype(ir::dtype::f32);
  std::vector<double> rounded(every_other.size());
  for (std::size_t j = 0; j < rounded.size(); ++j) rounded[j] = double(float(every_other[j]));
  expect_near(ndarray(fused_gemm(a.handle(), b.handle(), epilogue_named("bias", b32.handle())).d).to_vector<double>(),
              direct(ha, hb, m, k, n, 1, {}, 0, rounded), 1e-12);
}

TEST(MatmulEpilogue, ACOfTheResultsLayoutIsReadWhereItLies) {
  const std::int64_t B = 2, m = 3, k = 2, n = 4;  // float64 rows of 4: 32 bytes, D's own row stride
  const auto ha = ramp(std::size_t(B * m * k), 1), hb = ramp(std::size_t(B * k * n), 1, 1), hc = ramp(std::size_t(B * m * n), 1, 2);
  ndarray a = ndarray::from_vector(ha, {B, m, k}, cpu), b = ndarray::from_vector(hb, {B, k, n}, cpu);
  ndarray c = ndarray::from_vector(hc, {B, m, n}, cpu);
  gemm_epilogue e = epilogue_named("gelu_aux", nullptr);
  e.beta = 0.5, e.c = c.handle();
  fused_gemm_plan plan(a.handle(), b.handle(), e);
  for (int run = 0; run < 2; ++run) {  // the second run reuses the remembered layouts
    gemm_result r = plan.run();
    auto aux = ndarray(r.aux).to_vector<double>(), d = ndarray(r.d).to_vector<double>();
    for (std::int64_t bb = 0; bb < B; ++bb) {
      std::vector<double> am(ha.begin() + bb * m * k, ha.begin() + (bb + 1) * m * k);
      std::vector<double> bm(hb.begin() + bb * k * n, hb.begin() + (bb + 1) * k * n);
      std::vector<double> cm(hc.begin() + bb * m * n, hc.begin() + (bb + 1) * m * n);
      auto want = direct(am, bm, m, k, n, 1, cm, 0.5);
      for (std::int64_t i = 0; i < m * n; ++i) {
        EXPECT_NEAR(aux[std::size_t(bb * m * n + i)], want[std::size_t(i)], 1e-12);
        EXPECT_NEAR(d[std::size_t(bb * m * n + i)], gelu_tanh(want[std::size_t(i)]), 1e-12);
      }
    }
  }
}

TEST(MatmulEpilogue, TransposedAndBatchBroadcastOperands) {
  const std::int64_t m = 8, k = 6, n = 4;
  const auto ha = ramp(std::size_t(m * k), 1), hb = ramp(std::size_t(3 * k * n), 1, 1);
  ndarray at = ndarray::from_vector(ha, {m, k}, cpu).transpose().eval();  // (k, m) in memory
  ndarray a = at.transpose();                                              // (m, k): a transposed view
  ndarray b = ndarray::from_vector(hb, {3, 1, k, n}, cpu);                // batch (3, 1) against a's none
  gemm_result r = fused_gemm(a.handle(), b.handle(), epilogue_named("relu", nullptr));
  ASSERT_EQ(r.d->shape, (dims{3, 1, m, n}));
  auto got = ndarray(r.d).to_vector<double>();
  for (std::int64_t bb = 0; bb < 3; ++bb) {
    std::vector<double> bm(hb.begin() + bb * k * n, hb.begin() + (bb + 1) * k * n);
    auto want = direct(ha, bm, m, k, n);
    for (std::int64_t i = 0; i < m * n; ++i)
      EXPECT_NEAR(got[std::size_t(bb * m * n + i)], std::max(want[std::size_t(i)], 0.0), 1e-12);
  }
  // float32 rows of 5 elements (20 bytes): the result is a view of 32-byte rows, its values the product's
  ndarray x = ndarray::from_vector(ramp(3 * 4, 1), {3, 4}, cpu).astype(ir::dtype::f32);
  ndarray y = ndarray::from_vector(ramp(4 * 5, 1), {4, 5}, cpu).astype(ir::dtype::f32);
  gemm_result z = fused_gemm(x.handle(), y.handle(), {});
  EXPECT_EQ(z.d->shape, (dims{3, 5}));
  EXPECT_EQ(z.d->lay.strides, (dims{8, 1}));
  EXPECT_EQ(z.d->t, ir::dtype::f32);
}

TEST(MatmulEpilogue, BadInputIsRefusedBeforeMemoryIsTouched) {
  ndarray base = ndarray::from_vector(ramp(12, 1), {3, 4}, cpu);
  ndarray a = base * 2.0, b = ndarray::from_vector(ramp(20, 1), {4, 5}, cpu) * 1.0;  // pending: must stay so
  auto bias5 = ndarray::from_vector(ramp(5, 1), {5}, cpu).handle();
  auto plan = [&](const node_ptr& x, const node_ptr& y, gemm_epilogue e, gemm_options o = {}) {
    return thrown([&] { fused_gemm_plan(x, y, std::move(e), o); });
  };
  EXPECT_EQ(plan(a.handle(), a.handle(), {}), error_kind::invalid_argument);  // contracted dimension 4 vs 3
  EXPECT_EQ(plan(a.handle(), b.astype(ir::dtype::f32).handle(), {}), error_kind::type_error);  // one dtype
  EXPECT_EQ(plan(a.astype(ir::dtype::i32).handle(), b.astype(ir::dtype::i32).handle(), {}), error_kind::type_error);
  EXPECT_EQ(plan(ndarray::from_vector(ramp(4, 1), {4}, cpu).handle(), b.handle(), {}), error_kind::invalid_argument);
  gemm_options f32_out;
  f32_out.out = ir::dtype::f32;
  EXPECT_EQ(plan(a.handle(), b.handle(), {}, f32_out), error_kind::type_error);  // out dtype: float8 only
  EXPECT_EQ(plan(ndarray::zeros({2, 3, 4}, ir::dtype::f64, cpu).handle(), ndarray::zeros({3, 4, 5}, ir::dtype::f64, cpu).handle(), {}),
            error_kind::invalid_argument);  // batches (2,) and (3,) do not broadcast
  EXPECT_EQ(plan(a.handle(), b.handle(), epilogue_named("bias", ndarray::zeros({4}, ir::dtype::f64, cpu).handle())),
            error_kind::invalid_argument);  // bias (4,) for n = 5
  gemm_epilogue bad_c;
  bad_c.beta = 1, bad_c.c = ndarray::zeros({2, 5}, ir::dtype::f64, cpu).handle();
  EXPECT_EQ(plan(a.handle(), b.handle(), bad_c), error_kind::invalid_argument);  // (2, 5) against (3, 5)
  gemm_epilogue cplx_c;
  cplx_c.c = ndarray::zeros({3, 5}, ir::dtype::c128, cpu).handle();
  EXPECT_EQ(plan(a.handle(), b.handle(), cplx_c), error_kind::type_error);
  gemm_epilogue aux_alone;
  aux_alone.aux = true;
  EXPECT_EQ(plan(a.handle(), b.handle(), aux_alone), error_kind::invalid_argument);  // no activation to precede
  gemm_options negative_sms;
  negative_sms.sm_count = -1;
  EXPECT_EQ(plan(a.handle(), b.handle(), {}, negative_sms), error_kind::invalid_argument);
  EXPECT_EQ(thrown([&] { epilogue_named("swish", nullptr); }), error_kind::invalid_argument);
  EXPECT_EQ(thrown([&] { epilogue_named("relu_bias", nullptr); }), error_kind::invalid_argument);  // needs bias
  EXPECT_EQ(thrown([&] { epilogue_named("relu", bias5); }), error_kind::invalid_argument);         // takes none
  EXPECT_TRUE(a.handle()->pending() && b.handle()->pending());  // no check materialised anything
  fused_gemm_plan ok(a.handle(), b.handle(), epilogue_named("relu_bias", bias5));
  EXPECT_TRUE(a.handle()->pending());  // planning touches no memory either; running does
  ok.run();
  EXPECT_FALSE(a.handle()->pending());
  EXPECT_EQ(thrown([&] { ok.autotune(0, 1, tune_search::heuristic, 1); }), error_kind::invalid_argument);
  EXPECT_TRUE(ok.autotune(2, 1, tune_search::wide, 4).empty());  // the CPU has nothing to tune
  EXPECT_EQ(thrown([&] { tune_search_from_name("everything"); }), error_kind::invalid_argument);
}

TEST(MatmulEpilogue, RepeatRunsReadTheOperandsCurrentValuesIntoNewResults) {
  const std::int64_t m = 4, k = 4, n = 4;
  ndarray a = ndarray::from_vector(ramp(std::size_t(m * k), 1), {m, k}, cpu);
  ndarray b = ndarray::from_vector(ramp(std::size_t(k * n), 1, 1), {k, n}, cpu);
  ndarray reader = a + 1.0;  // a pending reader of a's memory
  fused_gemm_plan plan(a.handle(), b.handle(), {});
  gemm_result r1 = plan.run();
  EXPECT_TRUE(reader.handle()->pending());  // the library only read a: its readers keep waiting
  const auto first = ndarray(r1.d).to_vector<double>();
  // overwrite a in place (as a[...] = 2 does): the pending reader takes its value first, the next run sees the 2s
  array::assign(a.handle()->data, a.handle()->lay, ir::dtype::f64, ndarray::full({m, k}, 2.0, ir::dtype::f64, cpu).handle());
  EXPECT_FALSE(reader.handle()->pending());
  EXPECT_NEAR(reader.to_vector<double>()[1], std::sin(0.7) + 1.0, 1e-12);
  gemm_result r2 = plan.run();
  EXPECT_NE(r2.d->data, r1.d->data);  // a new result each run
  const auto hb = ramp(std::size_t(k * n), 1, 1);
  auto second = ndarray(r2.d).to_vector<double>();
  for (std::int64_t j = 0; j < n; ++j) {
    double s = 0;
    for (std::int64_t l = 0; l < k; ++l) s += 2.0 * hb[std::size_t(l * n + j)];
    EXPECT_NEAR(second[std::size_t(j)], s, 1e-12);
  }
  EXPECT_EQ(ndarray(r1.d).to_vector<double>(), first);  // the first result is its own memory
  // a strided operand (copied on every run): the copy is remade, so the run sees new values too
  ndarray wide = ndarray::from_vector(ramp(std::size_t(m * 2 * k), 1), {m, 2 * k}, cpu);
  node_ptr every_other = array::make_leaf(wide.handle()->data, array::layout{{m, k}, {2 * k, 2}, 0}, ir::dtype::f64);
  fused_gemm_plan strided(every_other, b.handle(), {});
  strided.run();
  array::assign(wide.handle()->data, wide.handle()->lay, ir::dtype::f64, ndarray::full({m, 2 * k}, 1.0, ir::dtype::f64, cpu).handle());
  auto ones = ndarray(strided.run().d).to_vector<double>();
  for (std::int64_t j = 0; j < n; ++j) {
    double s = 0;
    for (std::int64_t l = 0; l < k; ++l) s += hb[std::size_t(l * n + j)];
    EXPECT_NEAR(ones[std::size_t(j)], s, 1e-12);
  }
}

// A float8 (e4m3fn) leaf of `shape` holding v's values rounded to float8, and those values.
std::pair<node_ptr, std::vector<double>> float8_array(const std::vector<double>& v, const dims& shape) {
  std::vector<std::uint8_t> bytes(v.size());
  std::vector<double> values(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    bytes[i] = interp::float8_e4m3_from_double(v[i]);
    values[i] = interp::float8_e4m3_to_double(bytes[i]);
  }
  return {ndarray::from_host(bytes.data(), ir::dtype::f8e4m3, shape, cpu).handle(), values};
}

TEST(MatmulEpilogue, Float8ProductsTakeCublasLtsLayoutsAndGiveBfloat16) {
  const std::int64_t m = 5, k = 16, n = 3;
  auto [a, av] = float8_array(ramp(std::size_t(m * k), 3), {m, k});
  auto [bt, btv] = float8_array(ramp(std::size_t(n * k), 3, 1), {n, k});
  node_ptr b = ndarray(bt).transpose().handle();  // (k, n): the transpose of a row-major (n, k) array
  std::vector<double> bv(std::size_t(k * n));
  for (std::int64_t l = 0; l < k; ++l)
    for (std::int64_t j = 0; j < n; ++j) bv[std::size_t(l * n + j)] = btv[std::size_t(j * k + l)];
  const auto hbias = ramp(std::size_t(n), 1, 2);
  gemm_epilogue e = epilogue_named("relu_bias", ndarray::from_vector(hbias, {n}, cpu).handle());  // float64: cast
  e.alpha = 0.25;
  gemm_result r = fused_gemm(a, b, e);
  ASSERT_EQ(r.d->t, ir::dtype::bf16);
  ASSERT_EQ(r.d->shape, (dims{m, n}));
  std::vector<double> bias16(hbias.size());
  for (std::size_t j = 0; j < hbias.size(); ++j)
    bias16[j] = interp::bfloat16_to_double(interp::bfloat16_from_double(hbias[j]));
  auto want = direct(av, bv, m, k, n, 0.25, {}, 0, bias16);
  auto got = ndarray(r.d).to_vector<double>();
  for (std::size_t i = 0; i < got.size(); ++i) EXPECT_NEAR(got[i], std::max(want[i], 0.0), 1e-2 * (1 + std::abs(want[i])));
  gemm_options f32;
  f32.out = ir::dtype::f32;
  EXPECT_EQ(fused_gemm(a, b, {}, f32).d->t, ir::dtype::f32);
  gemm_options f64;
  f64.out = ir::dtype::f64;
  EXPECT_EQ(thrown([&] { fused_gemm_plan(a, b, {}, f64); }), error_kind::type_error);
  EXPECT_EQ(thrown([&] { fused_gemm_plan(a, array::contiguous_leaf(ndarray(bt).transpose().handle()), {}); }),  // (k, n) row-major
            error_kind::invalid_argument);
  gemm_epilogue with_c;
  with_c.c = ndarray::zeros({m, n}, ir::dtype::bf16, cpu).handle();
  EXPECT_EQ(thrown([&] { fused_gemm_plan(a, b, with_c); }), error_kind::invalid_argument);
  EXPECT_EQ(thrown([&] { fused_gemm_plan(a, b, epilogue_named("relu_aux", nullptr)); }), error_kind::invalid_argument);
  EXPECT_EQ(thrown([&] { fused_gemm_plan(a, ndarray::zeros({k, n}, ir::dtype::bf16, cpu).handle(), {}); }),
            error_kind::type_error);  // float8 against bfloat16
}

TEST(MatmulEpilogue, EpiloguePartsRoundTrip) {
  for (const char* name : all_epilogues) {
    epilogue ep = epilogue_from_name(name);
    EXPECT_EQ(epilogue_of(epilogue_activation(ep), epilogue_has_bias(ep), epilogue_has_aux(ep)), ep) << name;
  }
  EXPECT_THROW(epilogue_of(activation::none, true, true), error);
}

}  // namespace
}  // namespace tegula::libs
