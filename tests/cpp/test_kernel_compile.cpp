// Tests of kernel/compile on the CPU target: the pass pipeline's IR and stages, and the in-process key cache.
// (GPU targets are exercised by tests/gpu through every front end.)
#include <gtest/gtest.h>

#include "tegula/ir/printer.hpp"
#include "tegula/kernel/compile.hpp"
#include "tegula/passes/pipeline.hpp"
#include "tegula/support/error.hpp"
#include "kernel_test_ir.hpp"
#include "tegula/tile.hpp"

namespace tt = tegula::tile;

namespace tegula::kernel {
namespace {

using test_ir::scale_ir;

TEST(KernelCompile, CpuTargetRunsThePipelineAndKeepsStages) {
  const ir::function pre = scale_ir();
  target t;
  t.keep_stages = true;
  auto c = compile(pre, t);
  EXPECT_FALSE(c->on_gpu);
  EXPECT_EQ(ir::print(c->fn), ir::print(passes::run_pipeline(pre)));
  ASSERT_EQ(c->stages.size(), passes::pipeline_stages().size());
  for (std::size_t i = 0; i < c->stages.size(); ++i) EXPECT_EQ(c->stages[i].first, passes::pipeline_stages()[i]);
  EXPECT_EQ(c->stages.back().second, ir::print(c->fn));
  EXPECT_TRUE(c->source.source.empty());
  EXPECT_TRUE(compile(pre, target{})->stages.empty());  // only when asked
}

TEST(KernelCompile, CacheBuildsEachKeyOnce) {
  cache kernels;
  int builds = 0;
  auto make = [&] {
    ++builds;
    return scale_ir();
  };
  bool built = false;
  const compiled& a = kernels.get("k1", make, target{}, &built);
  EXPECT_TRUE(built);
  const compiled& b = kernels.get("k1", make, target{}, &built);
  EXPECT_FALSE(built);
  EXPECT_EQ(&a, &b);
  EXPECT_EQ(builds, 1);
  EXPECT_EQ(kernels.find("k1"), &a);
  EXPECT_EQ(kernels.find("k2"), nullptr);
  kernels.get("k2", make, target{});
  EXPECT_EQ(builds, 2);
  EXPECT_EQ(kernels.size(), 2u);
}

TEST(KernelCompile, PipelineErrorsReachTheCaller) {
  ir::function f = scale_ir();
  f.params.push_back({12345, "bogus"});  // a parameter with no value: the verifier refuses it
  EXPECT_THROW(compile(f, target{}), tegula::error);
}

}  // namespace
}  // namespace tegula::kernel
