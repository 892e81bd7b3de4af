// Dense factorisations through cuSOLVER (dlopen'd at first use), on column-major device matrices
// in place. Each call waits for its status word and returns it (LAPACK's info: 0 success, > 0 a
// numerical failure such as a zero pivot), as CuPy checks it.
#pragma once
#include <array>
#include <cstdint>
#include <string>

#include "tegula/ir/dtype.hpp"
#include "tegula/runtime/fwd.hpp"

namespace tegula::libs {

// `t` is float32, float64, complex64 or complex128 for every call.
struct solver_call {
  rt::device* dev = nullptr;
  const rt::stream* s = nullptr;
  ir::dtype t = ir::dtype::f64;
};

// LU with partial pivoting of the n x n matrix A (lda); ipiv: n int64 pivots (1-based).
int getrf(const solver_call& c, std::int64_t n, std::uintptr_t a, std::int64_t lda, std::uintptr_t ipiv);
// cuSOLVER's getrf algorithm for later calls (cusolverDnSetAdvOptions: 0, the default, or 1).
void set_getrf_algorithm(int algorithm);
// Solves op(A) X = B with getrf's factors; B n x nrhs (ldb), overwritten by X. trans: 'N', 'T' or 'C'.
int getrs(const solver_call& c, char trans, std::int64_t n, std::int64_t nrhs, std::uintptr_t a, std::int64_t lda,
          std::uintptr_t ipiv, std::uintptr_t b, std::int64_t ldb);
// getrf, then getrs on its factors, with one wait at the end instead of one after each: {getrf's info, getrs's}.
// A is overwritten by its factors and B by X (a zero pivot leaves X undefined: check the first info).
// substitute: for one right-hand side of a real type (trans 'N' or 'T'), tegula's substitution kernels
// (lu_substitution.hpp) replace getrs; getrf's pivots are read back for them (one wait after getrf).
std::array<int, 2> gesv(const solver_call& c, char trans, std::int64_t n, std::int64_t nrhs, std::uintptr_t a,
                        std::int64_t lda, std::uintptr_t ipiv, std::uintptr_t b, std::int64_t ldb,
                        bool substitute = false);
// Cholesky A = L L^H (lower) of the Hermitian positive definite n x n A.
int potrf(const solver_call& c, bool lower, std::int64_t n, std::uintptr_t a, std::int64_t lda);
// QR: A (m x n) = Q R, R in the upper triangle and the reflectors below, tau min(m, n) scalars.
int geqrf(const solver_call& c, std::int64_t m, std::int64_t n, std::uintptr_t a, std::int64_t lda, std::uintptr_t tau);
// The m x n matrix Q with orthonormal columns from k reflectors (geqrf's), in place in A.
int orgqr(const solver_call& c, std::int64_t m, std::int64_t n, std::int64_t k, std::uintptr_t a, std::int64_t lda,
          std::uintptr_t tau);
// Eigenvalues (ascending, real: w of the real dtype) and, with vectors, eigenvectors in A's columns of the
// Hermitian A whose `lower` (or upper) triangle is read.
int syevd(const solver_call& c, bool vectors, bool lower, std::int64_t n, std::uintptr_t a, std::int64_t lda,
          std::uintptr_t w);
// A (m x n, m >= n) = U S V^H; job 'A' (full), 'S' (min(m, n) columns / rows) or 'N' for U and VT.
int gesvd(const solver_call& c, char jobu, char jobvt, std::int64_t m, std::int64_t n, std::uintptr_t a,
          std::int64_t lda, std::uintptr_t s, std::uintptr_t u, std::int64_t ldu, std::uintptr_t vt, std::int64_t ldvt);

std::string cusolver_info();

}  // namespace tegula::libs
