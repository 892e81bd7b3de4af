// Matrix-vector products over a matrix already in memory as pending library nodes (array/library_node.hpp): the
// value of M @ x or x @ M waits until something reads it, and then every held product over the same matrix is
// computed by one matrix pass (matrix_pass.hpp), reading M once (bicg's `return r @ A, A @ p`: one pass over A,
// where two GEMVs read it twice). tegula.numpy sends such products here when M is large (libs.md says when).
#pragma once
#include <string>

#include "tegula/array/expr.hpp"

namespace tegula::libs {

// Whether the pass reads m as it lies: a materialised 2-D float32/float64 view with a unit stride along one axis and
// the other stride a multiple of 16 bytes at a 16-byte aligned start (why not, when not: `why`).
bool matrix_product_applies(const array::node_ptr& m, std::string* why = nullptr);

// side 0: m @ x, x of m's columns (1-D) -> (rows,); side 1: x @ m, x of m's rows (1-D) -> (cols,), or x 2-D
// (k, rows) with k <= 8 -> (k, cols) (over an m with a unit column stride only). x has m's dtype (the caller casts). Throws invalid_argument where matrix_product_applies is false or the shapes do not match.
array::node_ptr matrix_product(const array::node_ptr& m, const array::node_ptr& x, int side);

// Whether a product that no other held product joins runs the pass too (true) or cuBLASLt's GEMV / narrow GEMM
// (false: libs::gemm, the route tegula.numpy took before). Returns the previous setting; bench/probe_matrix_pass.py
// measures both.
bool set_lone_matrix_pass(bool on);

}  // namespace tegula::libs
