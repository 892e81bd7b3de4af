// Tests of kernel/launch: the checks before a launch, the launch configuration (persistent grids, clusters) and
// launches on the CPU interpreter.
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>

#include "expect_error.hpp"
#include "tegula/kernel/launch.hpp"
#include "tegula/tile.hpp"

namespace tt = tegula::tile;

namespace tegula::kernel {
namespace {

std::shared_ptr<const compiled> scale_kernel(bool aligned) {
  const tt::kernel k("scale", {"x", "out", "a", "T"}, [](tt::array x, tt::array out, tt::scalar a, std::int64_t T) {
    auto b = tt::let("b", tt::bid(0));
    tt::store(out, {b}, tt::load(x, {b}, {T}) * a);
  });
  float x[8], out[8];
  target t;
  t.arrays = {{true, aligned}, {true, aligned}};
  return compile(k.build({tt::view(x, tt::float32, {8}), tt::view(out, tt::float32, {8}),
                          tt::run_time_scalar(1.0, tt::float32), 4}), t);
}

TEST(KernelLaunch, RunsOnTheInterpreter) {
  auto k = scale_kernel(true);
  alignas(16) float x[8], out[8] = {};
  std::iota(x, x + 8, 1.0f);
  std::vector<argument> args{make_array(std::uintptr_t(x), ir::dtype::f32, {8}),
                             make_array(std::uintptr_t(out), ir::dtype::f32, {8}), scalar_arg{ir::dtype::f32, 3.0, 0}};
  launch(*k, args, {2, 1, 1}, nullptr);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(out[i], 3.0f * float(i + 1));
}

TEST(KernelLaunch, ChecksGridArityAndLayoutsFirst) {
  auto k = scale_kernel(true);
  alignas(16) float x[9], out[8];
  std::vector<argument> args{make_array(std::uintptr_t(x), ir::dtype::f32, {8}),
                             make_array(std::uintptr_t(out), ir::dtype::f32, {8}), scalar_arg{ir::dtype::f32, 3.0, 0}};
  testing::expect_error([&] { launch(*k, args, {0, 1, 1}, nullptr); }, error_kind::invalid_argument,
                        "kernel 'scale': grid extent 0 is 0 (must be at least 1)");
  testing::expect_error([&] { launch(*k, args, {1, 70000, 1}, nullptr); }, error_kind::invalid_argument,
                        "kernel 'scale': grid extent 1 is 70000 (at most 65535)");
  std::vector<argument> two(args.begin(), args.begin() + 2);
  testing::expect_error([&] { launch(*k, two, {1, 1, 1}, nullptr); }, error_kind::type_error,
                        "kernel 'scale' takes 3 arguments but 2 were given");
  std::vector<argument> shifted = args;
  shifted[0] = make_array(std::uintptr_t(x + 1), ir::dtype::f32, {8});  // 4 bytes off: not what the code assumes
  testing::expect_error([&] { launch(*k, shifted, {1, 1, 1}, nullptr); }, error_kind::internal,
                        "kernel 'scale' array argument 0 was specialised as contiguous aligned but is not aligned "
                        "(a cache key misses a layout)");
  launch(*scale_kernel(false), shifted, {1, 1, 1}, nullptr);  // code for unaligned arrays takes it
}

TEST(KernelLaunch, ConfigOfPlainAndPersistentKernels) {
  compiled k;
  k.fn.name = "mm";
  k.source.block_threads = 384;
  k.source.dynamic_shared_bytes = 100000;
  rt::launch_config c = config(k, {5, 6, 7});
  EXPECT_EQ(c.grid, (std::array<unsigned, 3>{5, 6, 7}));
  EXPECT_EQ(c.block, (std::array<unsigned, 3>{384, 1, 1}));
  EXPECT_EQ(c.shared_mem, 100000u);
  EXPECT_EQ(c.cluster, (std::array<unsigned, 3>{1, 1, 1}));
  k.source.persistent = true;
  k.max_blocks = 132;
  EXPECT_EQ(config(k, {5, 6, 7}).grid, (std::array<unsigned, 3>{132, 1, 1}));  // min(blocks, SMs)
  EXPECT_EQ(config(k, {5, 6, 1}).grid, (std::array<unsigned, 3>{30, 1, 1}));
  k.source.cluster = 2;
  k.max_blocks = 120;  // the clusters that fit
  EXPECT_EQ(config(k, {5, 6, 7}).grid, (std::array<unsigned, 3>{120, 1, 1}));
  EXPECT_EQ(config(k, {5, 1, 1}).grid, (std::array<unsigned, 3>{6, 1, 1}));  // whole clusters
  EXPECT_EQ(config(k, {1, 1, 1}).grid, (std::array<unsigned, 3>{2, 1, 1}));
  EXPECT_EQ(config(k, {1, 1, 1}).cluster, (std::array<unsigned, 3>{2, 1, 1}));
  k.max_blocks = 121;
  EXPECT_EQ(config(k, {500, 1, 1}).grid, (std::array<unsigned, 3>{120, 1, 1}));
}

TEST(KernelLaunch, PersistentGridsPastTheWalkableAreRefused) {
  compiled k;
  k.fn.name = "mm";
  k.source.persistent = true;
  testing::expect_error([&] { check(k, {}, {65536, 65536, 1}); }, error_kind::invalid_argument,
                        "kernel 'mm': a grid of 4294967296 blocks is past the 2^31 - 1 a persistent kernel walks");
  check(k, {}, {1, 70000, 1});  // a persistent kernel walks any y: only the product counts
}

}  // namespace
}  // namespace tegula::kernel

namespace tegula::kernel {
namespace {

// The image's layout of a kernel's parameters: consecutive, each aligned to its size.
std::vector<rt::param_info> layout_of(const std::vector<std::size_t>& sizes) {
  std::vector<rt::param_info> out;
  std::size_t at = 0;
  for (std::size_t n : sizes) {
    at = (at + n - 1) / n * n;
    out.push_back({at, n});
    at += n;
  }
  return out;
}

TEST(KernelLaunch, PackFollowsTheAbiThenThePersistentGrid) {
  compiled k;
  k.fn.name = "k";
  k.on_gpu = true;
  k.source.persistent = true;
  std::vector<argument> args{make_array(0x1000, ir::dtype::f32, {3, 4}), scalar_arg{ir::dtype::f16, 1.0, 0},
                             scalar_arg{ir::dtype::i64, 0, -5}};
  const auto layout = layout_of({8, 8, 8, 8, 8, 2, 8, 4, 4, 4});
  rt::param_buffer buf(layout.back().offset + 4);
  std::vector<std::shared_ptr<void>> keep;
  EXPECT_EQ(pack(k, layout, args, {5, 6, 1}, nullptr, buf, keep), 0u);
  auto at = [&](std::size_t i, auto v) {
    std::memcpy(&v, buf.data() + layout[i].offset, sizeof v);
    return v;
  };
  EXPECT_EQ(at(0, std::uint64_t()), 0x1000u);
  EXPECT_EQ(at(1, std::int64_t()), 3);
  EXPECT_EQ(at(2, std::int64_t()), 4);
  EXPECT_EQ(at(3, std::int64_t()), 4);  // strides
  EXPECT_EQ(at(4, std::int64_t()), 1);
  EXPECT_EQ(at(5, std::uint16_t()), 0x3c00);  // half 1.0
  EXPECT_EQ(at(6, std::int64_t()), -5);
  EXPECT_EQ(at(7, std::int32_t()), 5);  // the user's grid
  EXPECT_EQ(at(8, std::int32_t()), 6);
  EXPECT_EQ(at(9, std::int32_t()), 1);
  // A layout that disagrees with the arguments is refused before anything is launched.
  k.source.persistent = false;
  testing::expect_error([&] { pack(k, layout, args, {5, 6, 1}, nullptr, buf, keep); }, error_kind::internal,
                        "kernel 'k' has 10 parameters, packed 7");
  testing::expect_error([&] { pack(k, layout_of({8, 8, 8, 8, 8, 4, 8}), args, {1, 1, 1}, nullptr, buf, keep); },
                        error_kind::internal, "kernel 'k': parameter 5 is not 2 bytes (4 in the image)");
}

}  // namespace
}  // namespace tegula::kernel
