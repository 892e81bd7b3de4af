// Bandwidth of generated kernels on the device (disabled by default: run with
// --gtest_also_run_disabled_tests --gtest_filter='*CodegenGpuBench*'); prints GB/s.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>

#include "codegen_gpu_util.hpp"
#include "codegen_test_kernels.hpp"

namespace tegula::codegen::test {
namespace {

// Runs f over `grid` with every array of `elems` elements (all the same dtype), returns GB/s for
// `bytes` moved per launch.
double bandwidth(const ir::function& f, const std::vector<shape>& arrays, dtype d, std::array<unsigned, 3> grid,
                 double bytes) {
  rt::device& dev = rt::device::get(0);
  dev.make_current();
  options o = dense(f);
  o.arch = dev.arch();
  kernel_source ks = generate(f, o);
  jit::compile_request req;
  req.source = ks.source;
  req.arch = o.arch;
  auto lib = rt::library::load(jit::nvrtc_compile(req).code);
  auto kern = lib->get_kernel(ks.name, ks.name);
  auto s = rt::stream::create(dev);
  std::vector<std::shared_ptr<rt::buffer>> bufs;
  std::vector<std::vector<unsigned char>> packed;
  auto push = [&](const void* p, std::size_t n) {
    packed.emplace_back(static_cast<const unsigned char*>(p), static_cast<const unsigned char*>(p) + n);
  };
  for (const shape& sh : arrays) {
    std::int64_t n = 1;
    for (auto x : sh) n *= x;
    bufs.push_back(rt::buffer::allocate(std::size_t(n * ir::size_bytes(d)), s));
    bufs.back()->fill(0, *s);
    CUdeviceptr p = bufs.back()->ptr();
    push(&p, 8);
    for (auto x : sh) push(&x, 8);
    std::vector<std::int64_t> st(sh.size(), 1);
    for (int i = int(sh.size()) - 2; i >= 0; --i) st[std::size_t(i)] = st[std::size_t(i + 1)] * sh[std::size_t(i + 1)];
    for (auto x : st) push(&x, 8);
  }
  rt::param_buffer pb(kern->params_bytes());
  for (std::size_t i = 0; i < packed.size(); ++i) pb.put(kern->params()[i].offset, packed[i].data(), packed[i].size());
  rt::launch_config c;
  c.grid = grid;
  c.block = {unsigned(ks.block_threads), 1, 1};
  for (int i = 0; i < 3; ++i) rt::launch(*s, c, *kern, pb);
  s->synchronize();
  const int iters = 20;
  auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < iters; ++i) rt::launch(*s, c, *kern, pb);
  s->synchronize();
  double sec = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / iters;
  return bytes / sec / 1e9;
}

TEST(CodegenGpuBench, DISABLED_Bandwidth) {
  TEGULA_REQUIRE_GPU();
  const std::int64_t n = std::int64_t(1) << 28;
  double ch = bandwidth(chain(4096), {{n}, {n}, {n}}, dtype::f32, {unsigned(n / 4096), 1, 1}, 3.0 * 4 * n);
  double add = bandwidth(vector_add(4096), {{n}, {n}, {n}}, dtype::f32, {unsigned(n / 4096), 1, 1}, 3.0 * 4 * n);
  const std::int64_t rows = 32768, cols = 4096;
  double sm = bandwidth(softmax(cols), {{rows, cols}, {rows, cols}}, dtype::f32, {unsigned(rows), 1, 1}, 2.0 * 4 * rows * cols);
  double sm1000 = bandwidth(softmax(1000), {{rows * 4, 1000}, {rows * 4, 1000}}, dtype::f32, {unsigned(rows * 4), 1, 1},
                            2.0 * 4 * rows * 4 * 1000);
  double h = bandwidth(chain(8192, dtype::f16), {{n}, {n}, {n}}, dtype::f16, {unsigned(n / 8192), 1, 1}, 3.0 * 2 * n);
  std::printf("gpu bandwidth GB/s: chain f32 %.0f, vector_add f32 %.0f, softmax 32768x4096 f32 %.0f, "
              "softmax 131072x1000 f32 %.0f, chain f16 %.0f\n", ch, add, sm, sm1000, h);
}

}  // namespace
}  // namespace tegula::codegen::test
