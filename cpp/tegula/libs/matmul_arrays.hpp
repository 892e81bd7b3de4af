// Matrix products of engine arrays through cuBLASLt (libs/cublaslt.hpp): how each operand is handed to the library
// (in place where its layout allows, else a padded copy) and the result array; on the CPU the same problem runs on
// a host reference (tests check the layouts there).
#pragma once
#include <cstdint>

#include "tegula/array/expr.hpp"

namespace tegula::libs {

// An operand as cuBLASLt reads it: the row-major (rows, cols) matrices of x broadcast to batch + (rows, cols).
struct gemm_operand {
  array::node_ptr x;  // what the library reads: x itself (a view of it) or a C-ordered copy, rows padded to 16 bytes
  bool trans = false;            // x's memory holds the (cols, rows) matrix whose transpose is the operand
  std::int64_t ld = 0;           // row stride (elements) of the matrix the memory holds
  std::int64_t batch_stride = 0; // elements between batches (0: one matrix for all)
  bool copied = false;
};

// cols elements of `item` bytes padded to a multiple of 16 bytes: the row stride of the matrices the library writes
// (results) and of the copies it is handed.
std::int64_t padded_row(std::int64_t cols, int item);

// A view whose last two axes have a unit stride and a 16-byte aligned leading dimension passes as it lies (a
// transposed view costs nothing); so does any view of a vector (one row or one column: its one stride is the leading
// dimension) and, where the product is `narrow` (memory-bound: a copy would double its traffic), a view whose rows
// are not 16-byte aligned (cuBLASLt is told each buffer's alignment). Batch axes must fold into one stride. Anything
// else is copied into C order with rows padded to 16 bytes.
gemm_operand gemm_operand_of(const array::node_ptr& x, const array::dims& batch, std::int64_t rows, std::int64_t cols,
                             bool narrow);

// batch + (m, k) @ batch + (k, n) (operands broadcast to the batch) of dtype t (float16, bfloat16, float32, float64,
// complex64, complex128): a new array batch + (m, n) (rows padded to 16 bytes in memory). Empty products give an
// empty array, k == 0 zeros.
array::node_ptr gemm(const array::node_ptr& a, const array::node_ptr& b, const array::dims& batch, std::int64_t m,
                     std::int64_t n, std::int64_t k, ir::dtype t);

}  // namespace tegula::libs
