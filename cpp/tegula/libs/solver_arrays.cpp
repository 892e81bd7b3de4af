// cuSOLVER's factorisations of engine arrays (solver_arrays.hpp): shapes, dtypes and devices checked, the engine's
// rule applied to every matrix and vector, then the pointer-level call.
#include "tegula/libs/solver_arrays.hpp"

#include "tegula/libs/arrays.hpp"
#include "tegula/libs/cusolver.hpp"
#include "tegula/support/error.hpp"

namespace tegula::libs::solver {

using array::node;

namespace {

ir::dtype real_of(ir::dtype t) {
  return t == ir::dtype::c64 ? ir::dtype::f32 : t == ir::dtype::c128 ? ir::dtype::f64 : t;
}

// The call on a's device in a's dtype (float32/64, complex64/128).
solver_call call_for(const node_ptr& a) {
  const node& n = input(a);
  solver_call c;
  c.dev = &cuda_device(n, "cuSOLVER");
  c.s = &array::array_stream(*c.dev);
  c.t = n.t;
  if (!(n.t == ir::dtype::f32 || n.t == ir::dtype::f64 || ir::is_complex(n.t)))
    fail(error_kind::type_error, "cuSOLVER takes float32, float64, complex64 or complex128 matrices, not ", ir::name(n.t));
  return c;
}

// A column-major matrix: (address, columns, ld) of the C-contiguous (columns, ld) array x, at least `rows` x `cols`.
struct matrix {
  std::uintptr_t ptr;
  std::int64_t cols, ld;
};
matrix matrix_of(const solver_call& c, const node_ptr& x, const char* what, std::int64_t rows = -1) {
  const node& n = output(x);
  if (n.shape.size() != 2 || !n.lay.c_contiguous())
    fail(error_kind::invalid_argument, "cuSOLVER: ", what, " must be a C-contiguous 2-D array (columns, ld)");
  if (n.device != array::device_kind::cuda || n.gpu != c.dev)
    fail(error_kind::invalid_argument, "cuSOLVER: ", what, " lives on another device");
  expect_dtype(n, c.t, "cuSOLVER", what);
  if (rows >= 0 && n.shape[1] < rows)
    fail(error_kind::invalid_argument, "cuSOLVER: ", what, "'s leading dimension ", n.shape[1], " < ", rows, " rows");
  return {element_address(n), n.shape[0], n.shape[1]};
}

// A vector output of at least `len` elements of dtype t.
std::uintptr_t vector_of(const solver_call& c, const node_ptr& x, ir::dtype t, std::int64_t len, const char* what) {
  const node& n = output(x);
  if (!n.lay.c_contiguous() || n.size() < len)
    fail(error_kind::invalid_argument, "cuSOLVER: ", what, " must be C-contiguous with at least ", len, " elements");
  if (n.device != array::device_kind::cuda || n.gpu != c.dev)
    fail(error_kind::invalid_argument, "cuSOLVER: ", what, " lives on another device");
  expect_dtype(n, t, "cuSOLVER", what);
  return element_address(n);
}

matrix square(const solver_call& c, const node_ptr& a) {
  matrix m = matrix_of(c, a, "a");
  if (m.ld < m.cols) fail(error_kind::invalid_argument, "cuSOLVER: a must be square");
  return m;
}

}  // namespace

int getrf(const node_ptr& a, const node_ptr& ipiv) {
  solver_call c = call_for(a);
  matrix m = square(c, a);
  return libs::getrf(c, m.cols, m.ptr, m.ld, vector_of(c, ipiv, ir::dtype::i64, m.cols, "ipiv"));
}

std::array<int, 2> gesv(char trans, const node_ptr& a, const node_ptr& ipiv, const node_ptr& b, bool substitute) {
  solver_call c = call_for(a);
  matrix m = square(c, a);
  matrix x = matrix_of(c, b, "b", m.cols);
  return libs::gesv(c, trans, m.cols, x.cols, m.ptr, m.ld, vector_of(c, ipiv, ir::dtype::i64, m.cols, "ipiv"), x.ptr,
                    x.ld, substitute);
}

int potrf(bool lower, const node_ptr& a) {
  solver_call c = call_for(a);
  matrix m = square(c, a);
  return libs::potrf(c, lower, m.cols, m.ptr, m.ld);
}

int geqrf(const node_ptr& a, const node_ptr& tau) {
  solver_call c = call_for(a);
  matrix m = matrix_of(c, a, "a");
  return libs::geqrf(c, m.ld, m.cols, m.ptr, m.ld, vector_of(c, tau, c.t, std::min(m.ld, m.cols), "tau"));
}

int orgqr(std::int64_t k, const node_ptr& a, const node_ptr& tau) {
  solver_call c = call_for(a);
  matrix m = matrix_of(c, a, "a");
  if (k < 0 || k > m.cols || m.cols > m.ld) fail(error_kind::invalid_argument, "cuSOLVER orgqr: needs k <= n <= m");
  return libs::orgqr(c, m.ld, m.cols, k, m.ptr, m.ld, vector_of(c, tau, c.t, k, "tau"));
}

int syevd(bool vectors, bool lower, const node_ptr& a, const node_ptr& w) {
  solver_call c = call_for(a);
  matrix m = square(c, a);
  return libs::syevd(c, vectors, lower, m.cols, m.ptr, m.ld, vector_of(c, w, real_of(c.t), m.cols, "w"));
}

int gesvd(char jobu, char jobvt, const node_ptr& a, const node_ptr& s, const node_ptr& u, const node_ptr& vt) {
  solver_call c = call_for(a);
  matrix m = matrix_of(c, a, "a");
  const std::int64_t rows = m.ld, cols = m.cols;
  if (rows < cols) fail(error_kind::invalid_argument, "cuSOLVER gesvd: needs rows >= columns");
  matrix mu = matrix_of(c, u, "u", jobu == 'N' ? 0 : rows);
  matrix mv = matrix_of(c, vt, "vt", jobvt == 'N' ? 0 : cols);
  return libs::gesvd(c, jobu, jobvt, rows, cols, m.ptr, m.ld, vector_of(c, s, real_of(c.t), cols, "s"), mu.ptr,
                     std::max<std::int64_t>(mu.ld, 1), mv.ptr, std::max<std::int64_t>(mv.ld, 1));
}

}  // namespace tegula::libs::solver
