// Uses the installed tegula: a vector add as a C++ tile kernel, run on the CPU interpreter and checked.
#include <cstdio>
#include <vector>

#include <tegula/tile.hpp>

namespace tt = tegula::tile;

int main() {
  const tt::kernel add("add", {"x", "y", "out", "T"}, [](tt::array x, tt::array y, tt::array out, std::int64_t T) {
    auto b = tt::let("b", tt::bid(0));
    tt::store(out, {b}, tt::load(x, {b}, {T}) + tt::load(y, {b}, {T}));
  });
  std::vector<float> x(1000), y(1000), out(1000, -1);
  for (int i = 0; i < 1000; ++i) x[std::size_t(i)] = float(i), y[std::size_t(i)] = 0.5f * float(i);
  std::vector<tt::argument> args = {tt::view(x.data(), tt::float32, {1000}), tt::view(y.data(), tt::float32, {1000}),
                                    tt::view(out.data(), tt::float32, {1000}), 256};
  std::printf("%s", add.ir(args).c_str());
  add.interpret({4}, args);
  for (int i = 0; i < 1000; ++i)
    if (out[std::size_t(i)] != 1.5f * float(i)) {
      std::printf("wrong at %d: %f\n", i, double(out[std::size_t(i)]));
      return 1;
    }
  std::printf("consumer: 1000 elements added on the CPU interpreter, all right\n");
  return 0;
}
