// Tests of kernel/translate: the compile driver's front half (passes, codegen, the NVRTC request) for an arch with
// no GPU, and that compile() is it (the CPU target here; GPU targets are exercised by tests/gpu).
#include "tegula/kernel/translate.hpp"

#include <gtest/gtest.h>

#include "expect_error.hpp"
#include "tegula/ir/printer.hpp"
#include "tegula/kernel/compile.hpp"
#include "tegula/passes/pipeline.hpp"
#include "kernel_test_ir.hpp"
#include "tegula/tile.hpp"

namespace tt = tegula::tile;

namespace tegula::kernel {
namespace {

using test_ir::scale_ir;

TEST(KernelTranslate, InterpreterTranslationIsThePassesAlone) {
  const ir::function pre = scale_ir();
  target t;
  t.keep_stages = true;
  const translation tr = translate(pre, t, 0);
  EXPECT_EQ(tr.arch, 0);
  EXPECT_EQ(ir::print(tr.fn), ir::print(passes::run_pipeline(pre)));
  ASSERT_EQ(tr.stages.size(), passes::pipeline_stages().size());
  EXPECT_TRUE(tr.source.source.empty());
  EXPECT_TRUE(tr.request.source.empty());
  // compile() for the CPU is this translation.
  auto c = compile(pre, t);
  EXPECT_EQ(ir::print(c->fn), ir::print(tr.fn));
  EXPECT_EQ(c->stages, tr.stages);
}

TEST(KernelTranslate, ForAnArchGivesTheSourceAndTheRequestNvrtcGets) {
  target t;
  t.arrays = aligned_layouts(scale_ir());
  t.keep_stages = true;
  const translation tr = translate(scale_ir(), t, 80);
  EXPECT_EQ(tr.arch, 80);
  EXPECT_EQ(tr.stages.size(), passes::pipeline_stages().size());
  EXPECT_EQ(tr.stages.back().second, ir::print(tr.fn));
  EXPECT_NE(tr.source.source.find("__global__"), std::string::npos);
  EXPECT_GT(tr.source.block_threads, 0);
  EXPECT_EQ(tr.request.source, tr.source.source);
  EXPECT_EQ(tr.request.name, "scale.cu");  // "<kernel name>.cu" unless the target names the program
  EXPECT_EQ(tr.request.arch, 80);
  EXPECT_EQ(tr.request.arch_specific, tr.source.arch_specific);
  EXPECT_EQ(tr.request.kind, jit::target::cubin);
  t.program_name = "tegula_array.cu";
  EXPECT_EQ(translate(scale_ir(), t, 90).request.name, "tegula_array.cu");
}

TEST(KernelTranslate, GenerateIsTheHalfAfterThePasses) {
  target t;
  t.arrays = {{true, true}, {false, false}};
  t.long_bodies_fewer_groups = true;
  const translation whole = translate(scale_ir(), t, 90);
  const translation back = generate(translate(scale_ir(), t, 0).fn, t, 90);
  EXPECT_EQ(back.source.source, whole.source.source);
  EXPECT_EQ(back.request.name, whole.request.name);
  EXPECT_TRUE(back.stages.empty());
  // The layouts reach codegen: an unaligned, strided array gives other code.
  t.arrays = aligned_layouts(scale_ir());
  EXPECT_NE(translate(scale_ir(), t, 90).source.source, whole.source.source);
}

TEST(KernelTranslate, AlignedLayoutsCoverEveryArrayParameter) {
  const std::vector<codegen::array_spec> l = aligned_layouts(scale_ir());
  ASSERT_EQ(l.size(), 2u);  // x and out; the scalar has none
  for (const auto& a : l) EXPECT_TRUE(a.last_dim_contiguous && a.aligned_16);
}

TEST(KernelTranslate, CodegenNeedsAnArch) {
  testing::expect_error([] { generate(passes::run_pipeline(scale_ir()), target{}, 0); },
                        error_kind::invalid_argument,
                        "kernel 'scale': code is generated for a GPU architecture (major*10+minor, e.g. 90), got 0");
}

}  // namespace
}  // namespace tegula::kernel
