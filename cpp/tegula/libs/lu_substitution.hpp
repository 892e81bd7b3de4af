// Solving A x = b for one right-hand side from getrf's factors, by two sync-free blocked substitutions (NVRTC).
// cuSOLVER's getrs spends about 1 ms on one right-hand side of a 4096 x 4096 system on the H200 (its trsm is
// latency-bound); these kernels need tens of microseconds each:
// - b is permuted by getrf's row interchanges, turned into a permutation on the host (they are sequential swaps);
// - each block of 128 threads owns 32 rows. It takes a ticket (so every block it waits for has started), inverts
//   its diagonal 32 x 32 block while its four warps multiply the blocks left of it (L) or right of it (U) by the
//   parts of x already solved, each part waited for through a flag (acquire/release at GPU scope), then applies
//   the inverse and publishes its rows.
// Applying inverted diagonal blocks, as MAGMA's trsv does, instead of substituting row by row keeps the chain
// between blocks to one small product. Real float32/float64 only.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "tegula/ir/dtype.hpp"
#include "tegula/runtime/fwd.hpp"

namespace tegula::libs {

constexpr int substitution_rows = 32;  // rows per block

// The permutation LAPACK's 1-based row interchanges (row i swapped with ipiv[i] - 1, in order) apply:
// (P b)[i] = b[perm[i]]. Throws on a pivot outside [i + 1, n].
std::vector<std::int32_t> permutation_from_pivots(const std::int64_t* ipiv, std::int64_t n);

// The CUDA source of the kernels tg_lu_lower, tg_lu_upper (trans N) and tg_lu_lower_t, tg_lu_upper_t (trans T)
// for float32 or float64.
std::string lu_substitution_source(ir::dtype t);

// x = A^-1 b from getrf's factors `a` (column-major n x n, leading dimension lda, L unit lower and U upper) and the
// permutation of its pivots: of A itself, or with `transposed` of A^T (as getrs with trans N or T). b (n elements on
// the device) is overwritten by x. On `s`.
void lu_substitute(rt::device& dev, const rt::stream& s, ir::dtype t, bool transposed, std::int64_t n,
                   std::uintptr_t a, std::int64_t lda, const std::vector<std::int32_t>& perm, std::uintptr_t b);

}  // namespace tegula::libs
