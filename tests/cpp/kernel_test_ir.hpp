// A small tile kernel's pre-pass IR (out[b] = x[b] * 2 over tiles of T) that the kernel module's tests compile.
#pragma once
#include "tegula/ir/ir.hpp"
#include "tegula/tile.hpp"

namespace tegula::kernel::test_ir {

inline ir::function scale_ir() {
  namespace tt = tegula::tile;
  const tt::kernel k("scale", {"x", "out", "T"}, [](tt::array x, tt::array out, std::int64_t T) {
    auto b = tt::let("b", tt::bid(0));
    tt::store(out, {b}, tt::load(x, {b}, {T}) * 2.0);
  });
  float x[8], out[8];
  return k.build({tt::view(x, tt::float32, {8}), tt::view(out, tt::float32, {8}), 4});
}

}  // namespace tegula::kernel::test_ir
