// Tests of the array VM's host side (codegen/vm_*): the opcode table, register bits, programs compiled from body IR,
// image names, and that the VM's source compiles with NVRTC for sm_90.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>

#include "nvrtc_available.hpp"
#include "tegula/codegen/vm_images.hpp"
#include "tegula/codegen/vm_opcodes.hpp"
#include "tegula/codegen/vm_program.hpp"
#include "tegula/codegen/vm_source.hpp"
#include "tegula/ir/builder.hpp"
#include "tegula/jit/nvrtc.hpp"
#include "tegula/passes/pipeline.hpp"

namespace tegula::codegen::vm {
namespace {

using ir::dtype;
using ir::op_kind;

TEST(ArrayVm, OpcodeTableCoversElementwiseOpsOnce) {
  const auto& codes = opcodes();
  EXPECT_GT(codes.size(), 500u);
  std::set<std::tuple<int, int, int, int, int, int>> seen;
  for (std::size_t i = 0; i < codes.size(); ++i) {
    const signature& s = codes[i];
    EXPECT_TRUE(seen.emplace(int(s.op), s.arity, int(s.in[0]), int(s.in[1]), int(s.in[2]), int(s.out)).second);
    EXPECT_EQ(opcode_of(s.op, s.in, s.arity, s.out), int(i));
  }
  const dtype f32[2] = {dtype::f32, dtype::f32};
  EXPECT_GE(opcode_of(op_kind::add, f32, 2, dtype::f32), 0);
  EXPECT_GE(opcode_of(op_kind::lt, f32, 2, dtype::b1), 0);
  EXPECT_EQ(opcode_of(op_kind::lt, f32, 2, dtype::f32), -1);  // comparisons give bool
  const dtype i32 = dtype::i32;
  EXPECT_EQ(opcode_of(op_kind::exp, &i32, 1, dtype::i32), -1);  // float math takes floats
  const dtype f64 = dtype::f64;
  EXPECT_GE(opcode_of(op_kind::astype, &f64, 1, dtype::f16), 0);
  EXPECT_EQ(combine_code_count(), 4 * int(register_dtypes().size()));
  EXPECT_GE(combine_code_of(op_kind::reduce_sum, dtype::i64), 0);
  EXPECT_EQ(combine_code_of(op_kind::argmax, dtype::i64), -1);
}

TEST(ArrayVm, RegisterBits) {
  EXPECT_EQ(register_bits(dtype::i8, std::int64_t(-1)), ~std::uint64_t(0));  // sign-extended
  EXPECT_EQ(register_bits(dtype::u8, std::int64_t(257)), 1u);                // wrapped to the width
  EXPECT_EQ(register_bits(dtype::b1, 2.5), 1u);
  EXPECT_EQ(register_bits(dtype::i32, 3.9), 3u);  // truncated
  EXPECT_EQ(register_bits(dtype::i64, std::nan("")), 0u);
  float f = 0;
  std::uint64_t b = register_bits(dtype::f16, 1.0 / 3);  // held as float, rounded to float16
  std::memcpy(&f, &b, sizeof f);
  EXPECT_FLOAT_EQ(f, 0.333251953125f);
  double d = 0;
  b = register_bits(dtype::f64, 0.1);
  std::memcpy(&d, &b, sizeof d);
  EXPECT_EQ(d, 0.1);
}

// x0 * s0 + 2 (float32, one element): a body as array/emit.cpp emits it.
ir::function axpb(bool reduce) {
  ir::function f;
  ir::builder b(f);
  f.name = "tegula_array_body";
  ir::value_id x = b.add_param("x0", ir::type::array(dtype::f32, 2));
  ir::value_id s = b.add_param("s0", ir::type::tile(dtype::f32));
  b.add_param("ncols", ir::type::tile(dtype::i64));
  b.add_param("col", ir::type::tile(dtype::i64));
  ir::value_id out = b.add_param("out", ir::type::array(dtype::f32, 2));
  ir::value_id zero = b.constant(std::int64_t(0), ir::type::tile(dtype::i32));
  ir::value_id v = b.create1(op_kind::load, {x, zero, zero},
                             {{"shape", std::vector<std::int64_t>{1, 1}}, {"padding", std::string("zero")}});
  ir::value_id y = b.binary(op_kind::add, b.binary(op_kind::mul, v, b.broadcast(s, {1, 1})),
                            b.constant(2.0, ir::type::tile(dtype::f32, {1, 1})));
  b.create(op_kind::store, {out, zero, zero, y});
  (void)reduce;
  b.finish();
  return f;
}

TEST(ArrayVm, ProgramOfABody) {
  auto post = passes::run_pipeline(axpb(false));
  std::string why;
  auto prog = compile_program(post, false, &why);
  ASSERT_TRUE(prog) << why;
  EXPECT_EQ(prog->n_leaves, 1);
  EXPECT_EQ(prog->n_scalars, 1);
  EXPECT_EQ(prog->n_outs, 1);
  const std::string text = describe(*prog);
  EXPECT_NE(text.find("load x0"), std::string::npos) << text;
  EXPECT_NE(text.find("scalar s0"), std::string::npos) << text;
  EXPECT_NE(text.find("mul float32"), std::string::npos) << text;
  EXPECT_NE(text.find("store out0"), std::string::npos) << text;
  EXPECT_EQ(text.find("= r"), std::string::npos) << "no self-moves: " << text;
  auto red = compile_program(post, true, &why);
  ASSERT_TRUE(red) << why;
  EXPECT_TRUE(red->yields);
  EXPECT_EQ(red->yield_t, dtype::f32);
  EXPECT_NE(describe(*red).find("yield"), std::string::npos);
}

TEST(ArrayVm, RefusesWhatItCannotRun) {
  ir::function f;
  ir::builder b(f);
  f.name = "tegula_array_body";
  ir::value_id x = b.add_param("x0", ir::type::array(dtype::f32, 2));
  ir::value_id out = b.add_param("out", ir::type::array(dtype::f32, 2));
  ir::value_id zero = b.constant(std::int64_t(0), ir::type::tile(dtype::i32));
  ir::value_id v = b.create1(op_kind::load, {x, zero, zero},
                             {{"shape", std::vector<std::int64_t>{1, 4}}, {"padding", std::string("zero")}});
  b.create(op_kind::store, {out, zero, zero, v});
  b.finish();
  std::string why;
  EXPECT_FALSE(compile_program(passes::run_pipeline(f), false, &why));
  EXPECT_NE(why.find("more than one element"), std::string::npos) << why;
}

TEST(ArrayVm, ImageNamesCarryTheSourcesHash) {
  const auto all = packaged_images();
  ASSERT_EQ(all.size(), 3u);
  const std::string prefix = all[0].file.substr(0, all[0].file.rfind('-') + 1);
  EXPECT_EQ(prefix.size(), std::string("tegula_vm-0123456789abcdef-").size());
  for (const auto& s : all) {
    EXPECT_EQ(s.file.rfind(prefix, 0), 0u);
    EXPECT_TRUE(is_current_image_name(s.file));
  }
  EXPECT_EQ(image_for(90)->file, all[1].file);
  EXPECT_EQ(image_for(86)->file, all[0].file);  // an 8.x GPU runs the sm_80 cubin
  EXPECT_TRUE(image_for(100)->ptx);
  EXPECT_FALSE(image_for(75));
  EXPECT_FALSE(is_current_image_name("tegula_vm-0000000000000000-sm90.cubin"));
}

TEST(ArrayVm, SourceCompilesForSm90) {
  TEGULA_REQUIRE_NVRTC();
  jit::compile_request r;
  r.source = source(90);
  r.name = "tegula_vm.cu";
  r.arch = 90;
  r.kind = jit::target::ptx;  // the PTX is the quicker check that every case compiles
  auto out = jit::nvrtc_compile(r);
  EXPECT_NE(out.code.find(".entry tg_vm_map"), std::string::npos);
  EXPECT_NE(out.code.find(".entry tg_vm_reduce"), std::string::npos);
}

}  // namespace
}  // namespace tegula::codegen::vm
