// c = a @ b as a C++ tile kernel: the twin of `matmul` in tests/common/matmul_kernels.py (the same tile IR). On an
// H100/H200 the K loop becomes the persistent, warp-specialised tensor-core kernel (TMA + wgmma), as from Python.
//
//     build/dev/tegula_example_matmul                 # checks a 512x384x256 bf16 product (GPU, else interpreter)
//     build/dev/tegula_example_matmul --bench 8192    # TFLOP/s of an 8192^3 bf16 product (GPU)
//     build/dev/tegula_example_matmul --ir M N K [S] # the IR after all passes, or after stage S (float16, 128x256x64
//                                                     # tiles, group 8)
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "tegula/runtime/buffer.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/runtime/driver.hpp"
#include "tegula/runtime/event.hpp"
#include "tegula/runtime/stream.hpp"
#include "tegula/tile.hpp"

namespace tt = tegula::tile;

const tt::kernel matmul("matmul", {"a", "b", "c", "BM", "BN", "BK", "GROUP"},
                        [](tt::array a, tt::array b, tt::array c, std::int64_t BM, std::int64_t BN, std::int64_t BK,
                           std::int64_t GROUP) {
  // Tiles are visited GROUP tile-rows at a time, so neighbouring blocks share A and B panels in L2.
  auto pid = tt::let("pid", tt::bid(0));
  auto num_m = tt::let("num_m", tt::num_tiles(c, 0, {BM, BN}));
  auto num_n = tt::let("num_n", tt::num_tiles(c, 1, {BM, BN}));
  auto width = tt::let("width", GROUP * num_n);
  auto first_m = tt::let("first_m", tt::floordiv(pid, width) * GROUP);
  auto rows = tt::let("rows", tt::minimum(num_m - first_m, GROUP));
  auto pm = tt::let("pm", first_m + (pid % width) % rows);
  auto pn = tt::let("pn", tt::floordiv(pid % width, rows));
  tt::var acc("acc", tt::zeros({BM, BN}, tt::float32));
  tt::for_range(tt::num_tiles(a, 1, {BM, BK}), {&acc}, [&](const tt::expr& k) {
    auto x = tt::let("x", tt::load(a, {pm, k}, {BM, BK}));
    auto y = tt::let("y", tt::load(b, {k, pn}, {BK, BN}));
    acc = tt::mma(x, y, acc);
  });
  tt::store(c, {pm, pn}, tt::expr(acc).astype(c.dtype()));
});

namespace {

std::uint16_t to_bf16(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, 4);
  u += 0x7fff + ((u >> 16) & 1);  // round to nearest even
  return std::uint16_t(u >> 16);
}
float from_bf16(std::uint16_t h) {
  std::uint32_t u = std::uint32_t(h) << 16;
  float f;
  std::memcpy(&f, &u, 4);
  return f;
}

std::int64_t blocks(std::int64_t m, std::int64_t n) { return ((m + 127) / 128) * ((n + 255) / 256); }

}  // namespace

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "--ir") == 0) {
    const std::int64_t m = argc > 2 ? std::stoll(argv[2]) : 256, n = argc > 3 ? std::stoll(argv[3]) : 256,
                       k = argc > 4 ? std::stoll(argv[4]) : 128;
    const std::string stage = argc > 5 ? argv[5] : "";
    std::vector<std::uint16_t> dummy(1);
    std::printf("%s", matmul.ir({tt::view(dummy.data(), tt::float16, {m, k}), tt::view(dummy.data(), tt::float16, {k, n}),
                                 tt::view(dummy.data(), tt::float16, {m, n}), 128, 256, 64, 8}, stage).c_str());
    return 0;
  }
  const bool gpu = tegula::rt::driver_available() && tegula::rt::device::count() > 0;
  const bool bench = argc >= 2 && std::strcmp(argv[1], "--bench") == 0;
  const std::int64_t size = bench && argc > 2 ? std::stoll(argv[2]) : 0;
  const std::int64_t m = bench ? size : 512, n = bench ? size : 384, k = bench ? size : 256;
  std::vector<std::uint16_t> a(std::size_t(m * k)), b(std::size_t(k * n)), c(std::size_t(m * n), 0x7fc0);
  std::mt19937 gen(2);
  std::normal_distribution<float> normal;
  for (auto& v : a) v = to_bf16(normal(gen));
  for (auto& v : b) v = to_bf16(normal(gen));
  const std::vector<tt::argument> tiles = {128, 256, 64, 8};
  if (!gpu) {
    if (bench) {
      std::printf("--bench needs a GPU\n");
      return 2;
    }
    matmul.interpret({blocks(m, n)}, {tt::view(a.data(), tt::bfloat16, {m, k}), tt::view(b.data(), tt::bfloat16, {k, n}),
                                      tt::view(c.data(), tt::bfloat16, {m, n}), 128, 256, 64, 8});
  } else {
    auto& dev = tegula::rt::device::get(0);
    auto s = dev.default_stream();
    auto da = tegula::rt::buffer::allocate(a.size() * 2, s), db = tegula::rt::buffer::allocate(b.size() * 2, s),
         dc = tegula::rt::buffer::allocate(c.size() * 2, s);
    da->copy_from_host(a.data(), a.size() * 2, 0, *s);
    db->copy_from_host(b.data(), b.size() * 2, 0, *s);
    std::vector<tt::argument> args = {tt::view(reinterpret_cast<void*>(da->ptr()), tt::bfloat16, {m, k}),
                                      tt::view(reinterpret_cast<void*>(db->ptr()), tt::bfloat16, {k, n}),
                                      tt::view(reinterpret_cast<void*>(dc->ptr()), tt::bfloat16, {m, n}), 128, 256, 64, 8};
    matmul.launch({blocks(m, n)}, *s, args);
    if (bench) {
      auto start = tegula::rt::event::create(dev), end = tegula::rt::event::create(dev);
      for (int i = 0; i < 3; ++i) matmul.launch({blocks(m, n)}, *s, args);
      const int reps = 10;
      start->record(*s);
      for (int i = 0; i < reps; ++i) matmul.launch({blocks(m, n)}, *s, args);
      end->record(*s);
      end->synchronize();
      const double ms = tegula::rt::event::elapsed_ms(*start, *end) / reps;
      std::printf("C++ tile matmul bf16 %lld^3: %.3f ms, %.1f TFLOP/s\n", static_cast<long long>(size), ms,
                  2.0 * double(m) * double(n) * double(k) / (ms * 1e-3) / 1e12);
      return 0;
    }
    dc->copy_to_host(c.data(), c.size() * 2, 0, *s);
  }
  double err = 0, norm = 0;
  for (std::int64_t i = 0; i < m; ++i)
    for (std::int64_t j = 0; j < n; ++j) {
      double ref = 0;
      for (std::int64_t p = 0; p < k; ++p) ref += double(from_bf16(a[std::size_t(i * k + p)])) * from_bf16(b[std::size_t(p * n + j)]);
      const double d = from_bf16(c[std::size_t(i * n + j)]) - ref;
      err += d * d;
      norm += ref * ref;
    }
  const double rel = std::sqrt(err / norm);
  std::printf("C++ tile matmul %lldx%lldx%lld bf16 on %s: relative error %.1e\n", static_cast<long long>(m),
              static_cast<long long>(n), static_cast<long long>(k), gpu ? "the GPU" : "the CPU interpreter", rel);
  (void)tiles;
  return rel < 1e-2 ? 0 : 1;
}
