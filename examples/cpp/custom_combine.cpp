// Custom reductions and scans as a C++ tile kernel: per row, the largest magnitude (tt::reduce with a combine
// function) and the running product (tt::scan). The twin of the Python kernel in tests/python/test_cpp_frontend.py,
// giving the same tile IR.
//
//     build/dev/tegula_example_custom_combine           # on the GPU when there is one, else on the CPU interpreter
//     build/dev/tegula_example_custom_combine --ir 64   # the IR after all passes for C = 64 (--ir 64 verify: before)
#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "tegula/runtime/buffer.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/runtime/driver.hpp"
#include "tegula/runtime/stream.hpp"
#include "tegula/tile.hpp"

namespace tt = tegula::tile;

const tt::kernel absmax_cumprod(
    "absmax_cumprod", {"x", "out_max", "out_scan", "C"},
    [](tt::array x, tt::array out_max, tt::array out_scan, std::int64_t C) {
      auto row = tt::let("row", tt::bid(0));
      auto v = tt::let("v", tt::load(x, {row, 0}, {1, C}));
      auto m = tt::let("m", tt::reduce(v, 1, [](const tt::expr& a, const tt::expr& b) {
        return tt::maximum(tt::abs(a), tt::abs(b));
      }, 0.0, true));
      tt::store(out_max, {row, 0}, m);
      auto s = tt::let("s", tt::scan(v, 1, [](const tt::expr& a, const tt::expr& b) { return a * b; }, 1.0));
      tt::store(out_scan, {row, 0}, s);
    });

int main(int argc, char** argv) {
  const std::int64_t rows = 16;
  if (argc >= 2 && std::strcmp(argv[1], "--ir") == 0) {
    const std::int64_t cols = argc >= 3 ? std::stoll(argv[2]) : 64;
    std::vector<float> dummy(1);
    const std::string stage = argc >= 4 ? argv[3] : "";
    std::printf("%s", absmax_cumprod.ir({tt::view(dummy.data(), tt::float32, {rows, cols}),
                                         tt::view(dummy.data(), tt::float32, {rows, 1}),
                                         tt::view(dummy.data(), tt::float32, {rows, cols}), cols}, stage).c_str());
    return 0;
  }
  const std::int64_t cols = 64;
  std::vector<float> x(std::size_t(rows * cols)), mx(std::size_t(rows), NAN), sc(x.size(), NAN);
  std::mt19937 gen(2);
  std::uniform_real_distribution<float> near_one(0.9f, 1.1f);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = (i % 7 == 3 ? -1.0f : 1.0f) * near_one(gen);
  std::string where = "the CPU interpreter";
  if (tegula::rt::driver_available() && tegula::rt::device::count() > 0) {
    auto& dev = tegula::rt::device::get(0);
    auto s = dev.default_stream();
    auto dx = tegula::rt::buffer::allocate(x.size() * 4, s), dm = tegula::rt::buffer::allocate(mx.size() * 4, s),
         ds = tegula::rt::buffer::allocate(sc.size() * 4, s);
    dx->copy_from_host(x.data(), x.size() * 4, 0, *s);
    absmax_cumprod.launch({rows}, *s, {tt::view(reinterpret_cast<void*>(dx->ptr()), tt::float32, {rows, cols}),
                                       tt::view(reinterpret_cast<void*>(dm->ptr()), tt::float32, {rows, 1}),
                                       tt::view(reinterpret_cast<void*>(ds->ptr()), tt::float32, {rows, cols}), cols});
    dm->copy_to_host(mx.data(), mx.size() * 4, 0, *s);
    ds->copy_to_host(sc.data(), sc.size() * 4, 0, *s);
    where = "the GPU";
  } else {
    absmax_cumprod.interpret({rows}, {tt::view(x.data(), tt::float32, {rows, cols}),
                                      tt::view(mx.data(), tt::float32, {rows, 1}),
                                      tt::view(sc.data(), tt::float32, {rows, cols}), cols});
  }
  double worst = 0;
  for (std::int64_t r = 0; r < rows; ++r) {
    double m = 0, p = 1;
    for (std::int64_t c = 0; c < cols; ++c) {
      const double v = x[std::size_t(r * cols + c)];
      m = std::max(m, std::abs(v));
      p *= v;
      worst = std::max(worst, std::abs(sc[std::size_t(r * cols + c)] - p) / std::abs(p));
    }
    worst = std::max(worst, std::abs(mx[std::size_t(r)] - m) / m);
  }
  std::printf("C++ custom reduce/scan on %s: %lldx%lld float32, max relative error %.2e\n", where.c_str(),
              static_cast<long long>(rows), static_cast<long long>(cols), worst);
  return worst < 1e-4 ? 0 : 1;
}
