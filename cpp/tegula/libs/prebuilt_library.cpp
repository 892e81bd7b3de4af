// The library kernels built into the package (see prebuilt_library.hpp).
#include "tegula/libs/prebuilt_library.hpp"

#include "tegula/libs/bin_counts.hpp"
#include "tegula/libs/chained_scan.hpp"
#include "tegula/libs/cub_jit.hpp"
#include "tegula/libs/cub_scan.hpp"
#include "tegula/libs/cub_sort.hpp"
#include "tegula/libs/lu_substitution.hpp"
#include "tegula/libs/matrix_pass.hpp"
#include "tegula/libs/scan_arrays.hpp"
#include "tegula/support/error.hpp"

namespace tegula::libs {

std::vector<jit::compile_request> prebuilt_library_requests(int arch) {
  std::vector<jit::compile_request> out;
  bool cccl = true;
  try {
    (void)cccl_include_dir();
  } catch (const error&) {
    cccl = false;
  }
  if (cccl) {
    // Sorts: the offset type of any n below 2^32 (radix_sort's choice).
    for (const char* key : {"uint32", "uint64", "int32", "int64", "float32", "float64"})
      for (int value_bytes : {0, 4, 8}) {
        const cub_sort_program prog = cub_sort_source(key, value_bytes, 4);
        out.push_back(cub_request(prog.source, {prog.histogram, prog.exclusive_sum, prog.onesweep}, arch));
      }
    // Scans of every dtype into its accumulator (scan_arrays: scan_accumulator).
    using ir::dtype;
    for (dtype t : {dtype::b1, dtype::i8, dtype::i16, dtype::i32, dtype::i64, dtype::u8, dtype::u16, dtype::u32,
                    dtype::u64, dtype::f32, dtype::f64}) {
      const std::string in(ir::name(t)), res(ir::name(scan_accumulator(t)));
      for (bool multiply : {false, true})
        out.push_back(cub_request(cub_scan_source(in, res, multiply, 4).source, {}, arch));
    }
  }
  // The chained float32 scan with the engine's default tile, below and above its look-back delay's grid.
  for (bool multiply : {false, true})
    for (std::int64_t tiles : {std::int64_t(1), std::int64_t(1) << 20}) {
      chained_scan_problem p = scan_settings::default_chained_tile();
      p.multiply = multiply;
      out.push_back(library_request(chained_scan_source_for(p, tiles), {}, arch, "chained scan", false));
    }
  out.push_back(library_request(bin_counts_source(), {}, arch, "bin counts", false));
  for (const char* x : {"float32", "float64", "int32", "int64"})
    for (bin_weights w : {bin_weights::none, bin_weights::int64, bin_weights::float64})
      out.push_back(library_request(bin_counts_uniform_source(x, w), {}, arch, "histogram counts", false));
  for (ir::dtype t : {ir::dtype::f32, ir::dtype::f64})
    out.push_back(library_request(lu_substitution_source(t), {}, arch, "lu substitution", false));
  for (ir::dtype t : {ir::dtype::f32, ir::dtype::f64})
    out.push_back(library_request(matrix_pass_source(t), {}, arch, "matrix pass", false));
  return out;
}

}  // namespace tegula::libs
