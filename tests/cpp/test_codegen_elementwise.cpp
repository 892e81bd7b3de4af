// Tests of codegen for loads, stores and elementwise ops: vector fast paths, dtypes, NVRTC compile.
#include <gtest/gtest.h>

#include "codegen_test_kernels.hpp"
#include "tegula/codegen/c_types.hpp"
#include "tegula/codegen/cuda.hpp"

namespace tegula::codegen::test {
namespace {

TEST(CodegenElementwise, VectorAddUsesVectorAccessAndReadOnlyPointers) {
  TEGULA_REQUIRE_NVRTC();
  ir::function f = vector_add(1024);
  kernel_source k = generate(f, dense(f));
  EXPECT_EQ(k.name, "vector_add");
  EXPECT_EQ(k.block_threads, 64);  // 1024 elements / (4 per group * 4 groups per thread)
  EXPECT_EQ(k.dynamic_shared_bytes, 0);
  EXPECT_TRUE(contains(k.source, "__launch_bounds__(64) vector_add("));
  EXPECT_TRUE(contains(k.source, "const float* __restrict__ a0_x, long long a0_x_shape0, long long a0_x_stride0"));
  EXPECT_TRUE(contains(k.source, "float* a2_out,"));
  EXPECT_TRUE(contains(k.source, "__ldg(reinterpret_cast<const uint4*>"));
  EXPECT_TRUE(contains(k.source, "*reinterpret_cast<uint4*>(a2_out"));
  EXPECT_FALSE(contains(k.source, "#include"));
  EXPECT_FALSE(contains(k.source, "__syncthreads"));
  expect_compiles(k);
}

TEST(CodegenElementwise, ChainOn4096TileHasSixteenByteLoads) {
  TEGULA_REQUIRE_NVRTC();
  ir::function f = chain(4096);
  kernel_source ks = generate(f, dense(f));
  EXPECT_EQ(ks.block_threads, 256);
  EXPECT_TRUE(contains(ks.source, "16 contiguous aligned bytes: 1 x 16-byte vector load"));
  EXPECT_TRUE(contains(ks.source, "float v4_xv[16];"));  // K=4 groups of V=4 per thread
  EXPECT_TRUE(contains(ks.source, "expf("));
  EXPECT_TRUE(contains(ks.source, "0.5f"));
  expect_compiles(ks);
}

TEST(CodegenElementwise, StridedOrUnalignedArraysUseElementAccess) {
  TEGULA_REQUIRE_NVRTC();
  ir::function f = vector_add(1000);
  options o;
  o.arrays = {{false, true}, {true, false}, {false, false}};
  kernel_source k = generate(f, o);
  EXPECT_FALSE(contains(k.source, "uint4"));
  EXPECT_TRUE(contains(k.source, "a0_x_stride0"));
  expect_compiles(k);
  // No specialization at all: assume nothing (correct for any array).
  kernel_source k2 = generate(f, options{});
  EXPECT_FALSE(contains(k2.source, "uint4"));
  expect_compiles(k2);
}

TEST(CodegenElementwise, Float16PreambleHasNoIncludes) {
  TEGULA_REQUIRE_NVRTC();
  kernel k("half_fma");
  value_id x = k.array("x", dtype::f16, 2), y = k.array("y", dtype::f16, 2), out = k.array("out", dtype::f16, 2);
  value_id i = k.bid(), z = k.i32(0);
  value_id a = k.load(x, {i, z}, {4, 256}), b = k.load(y, {i, z}, {4, 256});
  value_id r = k.ew(op_kind::add, {k.ew(op_kind::mul, {a, b}), a});
  value_id s = k.ew(op_kind::sqrt, {k.ew(op_kind::abs, {r})});
  value_id w = k.op1(op_kind::astype, {k.op1(op_kind::astype, {s}, tile(dtype::f32, {4, 256}), {{"dtype", dtype::f32}})},
                     tile(dtype::f16, {4, 256}), {{"dtype", dtype::f16}});
  k.store(out, {i, z}, w);
  const ir::function& f = k.finish();
  kernel_source ks = generate(f, dense(f));
  EXPECT_FALSE(contains(ks.source, "#include"));
  EXPECT_FALSE(contains(ks.source, "__half"));
  EXPECT_TRUE(contains(ks.source, "cvt.rn.f16.f32"));
  EXPECT_TRUE(contains(ks.source, "tg_rh("));
  EXPECT_TRUE(contains(ks.source, "const unsigned short* __restrict__ a0_x"));
  EXPECT_TRUE(contains(ks.source, "x 16-byte vector load"));  // 8 halves per group
  expect_compiles(ks);
}

// One kernel per dtype: every unary (floats), binary, bitwise (ints, bool), comparison, where,
// astype to and from every dtype, and a bitcast round trip, on a 96-element tile.
ir::function all_ops(dtype d) {
  const op_kind unary[] = {op_kind::neg, op_kind::abs, op_kind::exp, op_kind::exp2, op_kind::log, op_kind::log2,
                           op_kind::sqrt, op_kind::rsqrt, op_kind::sin, op_kind::cos, op_kind::tanh, op_kind::floor,
                           op_kind::ceil};
  const op_kind binary[] = {op_kind::add, op_kind::sub, op_kind::mul, op_kind::div, op_kind::floordiv,
                            op_kind::mod, op_kind::pow, op_kind::minimum, op_kind::maximum};
  const op_kind bits[] = {op_kind::bit_and, op_kind::bit_or, op_kind::bit_xor, op_kind::shl, op_kind::shr};
  const op_kind compare[] = {op_kind::eq, op_kind::ne, op_kind::lt, op_kind::le, op_kind::gt, op_kind::ge};
  kernel k(std::string("ops_") + std::string(ir::name(d)));
  value_id x = k.array("x", d, 1);
  value_id i = k.bid();
  const shape s{96};  // not a power of two
  value_id a = k.load(x, {i}, s), b = k.load(x, {i}, s);
  value_id acc = a;
  if (ir::is_float(d))
    for (op_kind u : unary) acc = k.ew(op_kind::add, {acc, k.ew(u, {b})});
  else if (d != dtype::b1)
    acc = k.ew(op_kind::add, {k.ew(op_kind::neg, {acc}), k.ew(op_kind::abs, {b})});
  if (d != dtype::b1)
    for (op_kind bk : binary) acc = k.ew(op_kind::add, {acc, k.ew(bk, {a, b})});
  if (!ir::is_float(d)) {
    for (op_kind bk : bits) acc = k.ew(bk, {acc, k.ew(bk, {a, b})});
    acc = k.ew(op_kind::logical_not, {acc});
  }
  value_id c = k.ew(op_kind::lt, {a, b});
  for (op_kind ck : compare) c = k.ew(op_kind::bit_xor, {c, k.ew(ck, {a, acc})});
  acc = k.op1(op_kind::where, {c, acc, b}, k.type_of(a));
  const dtype all[] = {dtype::b1, dtype::i8, dtype::i16, dtype::i32, dtype::i64, dtype::u8, dtype::u16,
                       dtype::u32, dtype::u64, dtype::f16, dtype::bf16, dtype::f32, dtype::f64};
  for (dtype to : all) {
    value_id cv = k.op1(op_kind::astype, {acc}, tile(to, s), {{"dtype", to}});
    acc = k.ew(op_kind::maximum, {acc, k.op1(op_kind::astype, {cv}, tile(d, s), {{"dtype", d}})});
  }
  dtype same = ir::size_bytes(d) == 1 ? dtype::u8 : ir::size_bytes(d) == 2 ? dtype::i16
               : ir::size_bytes(d) == 4 ? dtype::f32 : dtype::u64;
  if (d != dtype::b1) {
    value_id bc = k.op1(op_kind::bitcast, {acc}, tile(same, s), {{"dtype", same}});
    acc = k.op1(op_kind::bitcast, {bc}, tile(d, s), {{"dtype", d}});
  }
  k.store(x, {i}, acc);
  return k.finish();
}

TEST(CodegenElementwise, EveryElementwiseOpCompilesForEveryDtype) {
  TEGULA_REQUIRE_NVRTC();
  const dtype all[] = {dtype::b1, dtype::i8, dtype::i16, dtype::i32, dtype::i64, dtype::u8, dtype::u16,
                       dtype::u32, dtype::u64, dtype::f16, dtype::bf16, dtype::f32, dtype::f64};
  for (dtype d : all) {
    SCOPED_TRACE(ir::name(d));
    ir::function f = all_ops(d);
    kernel_source ks = generate(f, dense(f));
    if (d == dtype::i32) EXPECT_TRUE(contains(ks.source, "tg_floordiv_i<int>"));
    if (d == dtype::f64) EXPECT_TRUE(contains(ks.source, "tg_floordiv_d("));
    if (d == dtype::u64) EXPECT_TRUE(contains(ks.source, "tg_ipow_u<unsigned long long, unsigned long long>"));
    if (d == dtype::i8) EXPECT_TRUE(contains(ks.source, "tg_shr_s<signed char>"));
    if (d == dtype::f64) EXPECT_TRUE(contains(ks.source, "tg_rbf_d("));
    expect_compiles(ks);
  }
}

TEST(CodegenElementwise, ConstantsAreExactLiterals) {
  TEGULA_REQUIRE_NVRTC();
  kernel k("consts");
  value_id out = k.array("out", dtype::f64, 1), o16 = k.array("o16", dtype::f16, 1), oi = k.array("oi", dtype::i64, 1);
  value_id i = k.bid();
  value_id a = k.constant(0.1, tile(dtype::f64, {8}));
  value_id inf = k.constant(-1.0 / 0.0, tile(dtype::f64, {8}));
  k.store(out, {i}, k.ew(op_kind::add, {a, inf}));
  k.store(o16, {i}, k.constant(65519.0, tile(dtype::f16, {8})));  // rounds to 65504
  k.store(oi, {i}, k.iconst(INT64_MIN, tile(dtype::i64, {8})));
  const ir::function& f = k.finish();
  kernel_source ks = generate(f, dense(f));
  EXPECT_TRUE(contains(ks.source, "= 0.1;"));
  EXPECT_TRUE(contains(ks.source, "__longlong_as_double(0xfff0000000000000ll)"));
  EXPECT_TRUE(contains(ks.source, "65504.0f"));
  EXPECT_TRUE(contains(ks.source, "(-9223372036854775807ll - 1)"));
  expect_compiles(ks);
}

TEST(CodegenElementwise, ScalarParametersAndSources) {
  TEGULA_REQUIRE_NVRTC();
  kernel k("axpy");
  value_id alpha = k.scalar("alpha", dtype::f16), flag = k.scalar("flag", dtype::b1);
  value_id x = k.array("x", dtype::f16, 1);
  value_id i = k.bid();
  value_id n = k.op1(op_kind::num_tiles, {x}, tile(dtype::i32), {{"axis", std::int64_t(0)}, {"tile", std::int64_t(128)}});
  value_id d = k.op1(op_kind::dim, {x}, tile(dtype::i64), {{"axis", std::int64_t(0)}});
  (void)n;
  (void)d;
  value_id v = k.load(x, {i}, {128});
  value_id a = k.broadcast(alpha, {128});
  value_id f16flag = k.broadcast(k.op1(op_kind::astype, {flag}, tile(dtype::f16), {{"dtype", dtype::f16}}), {128});
  k.store(x, {i}, k.ew(op_kind::add, {k.ew(op_kind::mul, {v, a}), f16flag}));
  const ir::function& f = k.finish();
  kernel_source ks = generate(f, dense(f));
  EXPECT_TRUE(contains(ks.source, "unsigned short v0_alpha_arg, unsigned char v1_flag_arg, unsigned short* a2_x"));
  EXPECT_TRUE(contains(ks.source, "const float v0_alpha = tg_h2f(v0_alpha_arg);"));
  EXPECT_TRUE(contains(ks.source, "w_.u = *reinterpret_cast<const uint4*>"));  // x is written: no __ldg
  EXPECT_TRUE(contains(ks.source, "(int)((a2_x_shape0 + 127) / 128)"));
  expect_compiles(ks);
}

TEST(CodegenElementwise, FloatToIntConversionsGiveZeroForNan) {
  // The GPU's cvt gives INT_MIN / LLONG_MIN for NaN; the interpreter (the reference) gives 0, so the code says so.
  for (ir::dtype to : {ir::dtype::i8, ir::dtype::i32, ir::dtype::i64, ir::dtype::u32, ir::dtype::u64}) {
    const std::string c = convert(ir::dtype::f64, to, "x");
    EXPECT_TRUE(contains(c, "(x) != (x) ?")) << c;
  }
  EXPECT_FALSE(contains(convert(ir::dtype::i64, ir::dtype::i32, "x"), "!="));  // integers: no NaN to test
}

}  // namespace
}  // namespace tegula::codegen::test
