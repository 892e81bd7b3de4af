// Several matrix-vector products over one matrix in memory, in one pass over it (NVRTC): y_k = M @ u_k (k < ny <= 2)
// and z_j = v_j @ M (j < nz <= 8) for a row-major M (unit column stride, 16-byte aligned rows). NPBench's bicg asks
// for r @ A and A @ p of one 3 GB matrix: cuBLAS reads A twice (once per GEMV), this kernel once.
// - A block of 256 threads owns 256 16-byte vectors of columns (a warp 512 contiguous bytes of each row) and a range of
//   rows; it reads its rows 8 at a time (8 loads in flight per thread), adds v_j[row] * M[row, c] into per-thread z
//   sums and reduces each row's dot with u_k over the warp by a reduce-scatter of the 8 rows' sums (one shuffle per
//   row and vector, not five), then over the block's warps through shared memory every 32 rows.
// - The grid is one wave (column tiles times row splits near the device's resident blocks); each block writes its
//   partial z over its rows and its partial y over its columns, and a second small kernel sums the partials in a
//   fixed order: the result is the same on every run (no atomics).
// The CPU runs the host reference (the same sums, in the order of the rows).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "tegula/ir/dtype.hpp"
#include "tegula/runtime/fwd.hpp"

namespace tegula::libs {

constexpr int matrix_pass_max_y = 2;  // products M @ u in one pass
constexpr int matrix_pass_max_z = 8;  // products v @ M in one pass
constexpr int matrix_pass_threads = 256;

// The matrix: rows x cols of dtype t (float32 or float64), element (r, c) at address + (r * ld + c) * size.
struct pass_matrix {
  ir::dtype t = ir::dtype::f64;
  std::uintptr_t address = 0;  // device address (cuda) or host pointer (cpu)
  std::int64_t rows = 0, cols = 0, ld = 0;
};

// Whether the kernel reads m as it lies: float32/float64, address and row stride in bytes multiples of 16, ld >= cols.
bool matrix_pass_fits(const pass_matrix& m);

// One output: `count` consecutive vectors (a narrow matrix's rows for z, one vector otherwise) starting at vector
// `first` of its side, written contiguously to `address`.
struct pass_output {
  std::uintptr_t address = 0;
  int first = 0, count = 1;
};

// The products: u holds ny vectors of m.cols elements one after another, v nz vectors of m.rows elements; each y
// output covers vectors of u (results of m.rows elements), each z output vectors of v (m.cols elements each).
struct pass_problem {
  pass_matrix m;
  std::uintptr_t u = 0, v = 0;
  int ny = 0, nz = 0;
  std::vector<pass_output> y, z;
};

// The CUDA source of the pass kernels tg_pass_<NY>_<NZ> (NY in 0..2, NZ in {0, 1, 2, 4, 8}) and tg_pass_finish for
// float32 or float64 (the prebuilt library lists it).
std::string matrix_pass_source(ir::dtype t);

// The pass on `s` (its scratch memory from the device pool, in stream order). Throws invalid_argument for a problem
// out of bounds (counts, a matrix the kernel cannot read as it lies).
void matrix_pass(rt::device& dev, const rt::stream& s, const pass_problem& p);
// The same sums on the host (pointers are host memory).
void matrix_pass_host(const pass_problem& p);

// The kernel the most recent pass on this thread ran ("tg_pass_1_1"; "host reference" on the CPU) and its dtype, for
// tegula.explain.
struct pass_last_run {
  std::string kernel;
  ir::dtype t = ir::dtype::f64;
  int ny = 0, nz = 0;
};
pass_last_run& matrix_pass_last();

// The grid the pass takes on `dev` (tests and explain): column tiles, row splits, rows per split.
struct pass_grid {
  std::int64_t col_tiles = 1, row_splits = 1, rows_per_split = 0;
};
pass_grid matrix_pass_grid(const pass_matrix& m, int resident_blocks);

}  // namespace tegula::libs
