// tegula's C++ tile language: kernels over tiles, built into the same tile IR as Python's @tt.kernel and run through
// the same passes, code generation, JIT cache, runtime and CPU interpreter. See tile/kernel.hpp for an example and
// examples/cpp/ for complete programs.
#pragma once
#include "tegula/tile/expr.hpp"    // IWYU pragma: export
#include "tegula/tile/kernel.hpp"  // IWYU pragma: export
#include "tegula/tile/ops.hpp"     // IWYU pragma: export
