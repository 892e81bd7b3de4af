// cuSOLVER's factorisations of engine arrays (libs/cusolver.hpp). Each matrix is a C-contiguous CUDA array whose
// memory holds the column-major matrix: shape (columns, ld), ld >= rows (a C-order copy of m.T is m, column-major).
// The matrices and vectors are overwritten in place (outputs: their pending readers take their values first).
// Each returns LAPACK's info (read back: a synchronisation).
#pragma once
#include <array>

#include "tegula/array/expr.hpp"

namespace tegula::libs::solver {

using array::node_ptr;

int getrf(const node_ptr& a, const node_ptr& ipiv);  // a (n, n); ipiv n int64
// getrf then getrs with one wait: b (nrhs, n) overwritten by X; {getrf's info, getrs's}.
std::array<int, 2> gesv(char trans, const node_ptr& a, const node_ptr& ipiv, const node_ptr& b, bool substitute);
int potrf(bool lower, const node_ptr& a);                                 // a (n, n)
int geqrf(const node_ptr& a, const node_ptr& tau);                        // a (n, m): m rows, n columns
int orgqr(std::int64_t k, const node_ptr& a, const node_ptr& tau);        // a (n, m); tau >= k scalars
int syevd(bool vectors, bool lower, const node_ptr& a, const node_ptr& w);  // a (n, n); w n reals
// a (n, m), m >= n rows; s min(m, n) reals; u (columns, m); vt (n, n).
int gesvd(char jobu, char jobvt, const node_ptr& a, const node_ptr& s, const node_ptr& u, const node_ptr& vt);

}  // namespace tegula::libs::solver
