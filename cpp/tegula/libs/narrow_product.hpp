// A product whose left operand has few rows, D (m, n) = A (m, k) @ B (k, n) with m <= 16 (a batch of vectors times a
// matrix: mlp's (8, 30000) @ (30000, 10000) float32, bicg's r @ A): all of its time is reading B once, so it should
// run at the memory's bandwidth. cuBLAS's GEMM tiles such a product into a few dozen blocks, too few to keep the
// memory busy. Here each block owns a strip of columns over a chunk of k (split-K, so that there are a few blocks
// per SM whatever n is): every thread reads its columns of each row of B, coalesced, and accumulates all m rows of
// the product in registers, A's chunk staged in shared memory. The chunks' partial products go to a buffer and a
// second kernel sums them in a fixed order (the result does not depend on timing). Real float32/float64 (NVRTC).
#pragma once
#include <cstdint>
#include <string>

#include "tegula/ir/dtype.hpp"
#include "tegula/runtime/fwd.hpp"

namespace tegula::libs {

constexpr std::int64_t narrow_max_rows = 16;

// D = A @ B. A: element (i, p) at a + (i * lda + p * a_col_stride) elements (any strides, a broadcast included);
// B: row-major, element (p, j) at b + (p * ldb + j); D: row-major with row pitch ldd. On `s`. Checks the sizes
// (1 <= m <= 16, n and k >= 1, ldb and ldd >= n) and the dtype.
void narrow_product(rt::device& dev, const rt::stream& s, ir::dtype t, std::int64_t m, std::int64_t n,
                    std::int64_t k, std::uintptr_t a, std::int64_t lda, std::int64_t a_col_stride, std::uintptr_t b,
                    std::int64_t ldb, std::uintptr_t d, std::int64_t ldd);

// The CUDA source of tg_narrow_<M> (M = 1, 2, 4, 8, 16: the rows A is padded to) and tg_narrow_sum.
std::string narrow_product_source(ir::dtype t);

}  // namespace tegula::libs
