// Row softmax as a C++ tile kernel: the twin of examples/tile/softmax.py, giving the same tile IR.
//
//     build/dev/tegula_example_softmax            # on the GPU when there is one, else on the CPU interpreter
//     build/dev/tegula_example_softmax --ir 1000  # the IR after all passes for C = 1000 (--ir 1000 cse: after cse)
//     build/dev/tegula_example_softmax --bench 32768 4096   # GB/s on the GPU (CUDA events, after warm-up)
#include <cmath>
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

const tt::kernel softmax("softmax", {"x", "out", "C"}, [](tt::array x, tt::array out, std::int64_t C) {
  auto row = tt::let("row", tt::bid(0));
  auto v = tt::let("v", tt::load(x, {row, 0}, {1, C}, "neg_inf"));  // C need not be a power of two
  auto e = tt::let("e", tt::exp(v - tt::max(v, 1, true)));
  tt::store(out, {row, 0}, e / tt::sum(e, 1, true));
});

int main(int argc, char** argv) {
  if (argc >= 2 && std::strcmp(argv[1], "--ir") == 0) {
    const std::int64_t cols = argc >= 3 ? std::stoll(argv[2]) : 1000;
    std::vector<float> dummy(1);
    const std::string stage = argc >= 4 ? argv[3] : "";
    std::printf("%s", softmax.ir({tt::view(dummy.data(), tt::float32, {4, cols}),
                                  tt::view(dummy.data(), tt::float32, {4, cols}), cols}, stage).c_str());
    return 0;
  }
  const bool bench = argc >= 2 && std::strcmp(argv[1], "--bench") == 0;
  const std::int64_t rows = bench && argc > 2 ? std::stoll(argv[2]) : 1024;
  const std::int64_t cols = bench && argc > 3 ? std::stoll(argv[3]) : 1000;
  std::vector<float> x(std::size_t(rows * cols)), y(x.size(), NAN);
  std::mt19937 gen(1);
  std::normal_distribution<float> normal;
  for (auto& v : x) v = normal(gen);
  std::string where = "the CPU interpreter";
  if (tegula::rt::driver_available() && tegula::rt::device::count() > 0) {
    auto& dev = tegula::rt::device::get(0);
    auto s = dev.default_stream();
    const std::size_t bytes = x.size() * sizeof(float);
    auto dx = tegula::rt::buffer::allocate(bytes, s), dy = tegula::rt::buffer::allocate(bytes, s);
    dx->copy_from_host(x.data(), bytes, 0, *s);
    const std::vector<tt::argument> args = {tt::view(reinterpret_cast<void*>(dx->ptr()), tt::float32, {rows, cols}),
                                            tt::view(reinterpret_cast<void*>(dy->ptr()), tt::float32, {rows, cols}), cols};
    softmax.launch({rows}, *s, args);
    if (bench) {
      for (int i = 0; i < 3; ++i) softmax.launch({rows}, *s, args);
      auto start = tegula::rt::event::create(dev), end = tegula::rt::event::create(dev);
      const int reps = 20;
      start->record(*s);
      for (int i = 0; i < reps; ++i) softmax.launch({rows}, *s, args);
      end->record(*s);
      end->synchronize();
      const double ms = tegula::rt::event::elapsed_ms(*start, *end) / reps;
      std::printf("C++ tile softmax %lldx%lld float32: %.4f ms, %.0f GB/s\n", static_cast<long long>(rows),
                  static_cast<long long>(cols), ms, 2.0 * double(bytes) / (ms * 1e-3) / 1e9);
    }
    dy->copy_to_host(y.data(), bytes, 0, *s);
    where = "the GPU";
  } else {
    softmax.interpret({rows}, {tt::view(x.data(), tt::float32, {rows, cols}), tt::view(y.data(), tt::float32, {rows, cols}),
                               cols});
  }
  double worst = 0;
  for (std::int64_t r = 0; r < rows; ++r) {
    const float* xr = &x[std::size_t(r * cols)];
    double m = xr[0], sum = 0;
    for (std::int64_t c = 0; c < cols; ++c) m = std::max<double>(m, xr[c]);
    for (std::int64_t c = 0; c < cols; ++c) sum += std::exp(xr[c] - m);
    for (std::int64_t c = 0; c < cols; ++c)
      worst = std::max(worst, std::abs(y[std::size_t(r * cols + c)] - std::exp(xr[c] - m) / sum));
  }
  std::printf("softmax %lldx%lld on %s: max error %.2e\n", static_cast<long long>(rows), static_cast<long long>(cols),
              where.c_str(), worst);
  return worst < 1e-5 ? 0 : 1;
}
