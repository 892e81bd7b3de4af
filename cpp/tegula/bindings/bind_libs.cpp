// Bindings for libs/: the CUDA libraries behind tegula.math and tegula.numpy (cuBLASLt, cuFFT, cuSOLVER, CUB).
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "tegula/array/storage.hpp"
#include "tegula/bindings/bind_support.hpp"
#include "tegula/bindings/runtime_common.hpp"
#include "tegula/ir/dtype.hpp"
#include "tegula/libs/bin_counts.hpp"
#include "tegula/libs/cub_jit.hpp"
#include "tegula/libs/chained_scan.hpp"
#include "tegula/libs/cub_scan.hpp"
#include "tegula/libs/cub_sort.hpp"
#include "tegula/libs/cublaslt.hpp"
#include "tegula/libs/cufft.hpp"
#include "tegula/libs/cusolver.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/support/error.hpp"

namespace tegula::bind {
namespace {

ir::dtype dtype_arg(const std::string& name) {
  std::optional<ir::dtype> t = ir::dtype_from_name(name);
  if (!t) fail(error_kind::type_error, "unknown dtype '", name, "'");
  return *t;
}

}  // namespace

void bind_libs(nb::module_& m) {
  m.def("cublaslt_matmul", [](int device, const std::string& in, const std::string& out, std::int64_t m_, std::int64_t n,
                              std::int64_t k, std::int64_t batch, bool trans_a, bool trans_b, std::uintptr_t a,
                              std::int64_t lda, std::int64_t stride_a, std::uintptr_t b, std::int64_t ldb,
                              std::int64_t stride_b, std::uintptr_t d, std::int64_t ldd, std::int64_t stride_d,
                              std::uintptr_t c, std::int64_t ldc, std::int64_t stride_c, double alpha, double beta,
                              const std::string& epilog, std::uintptr_t bias, std::uintptr_t aux, bool tf32,
                              nb::handle stream, int autotune, int repeats, const std::string& search,
                              int max_configs, int sm_count) -> nb::object {
    libs::matmul_problem p;
    p.in = dtype_arg(in);
    p.out = dtype_arg(out);
    p.tf32 = tf32;
    p.m = m_, p.n = n, p.k = k, p.batch = batch;
    p.trans_a = trans_a, p.trans_b = trans_b;
    p.a = a, p.lda = lda, p.stride_a = stride_a;
    p.b = b, p.ldb = ldb, p.stride_b = stride_b;
    p.d = d, p.ldd = ldd, p.stride_d = stride_d;
    p.c = c, p.ldc = ldc, p.stride_c = stride_c;
    p.alpha = alpha, p.beta = beta;
    p.ep = libs::epilogue_from_name(epilog);
    p.bias = bias, p.aux = aux;
    p.sm_count = sm_count;
    rt::device& dev = rt::device::get(device);
    std::shared_ptr<rt::stream> hold;
    const rt::stream& s = stream.is_none() ? array::array_stream(dev) : to_stream(stream, hold);
    if (autotune > 0) {
      if (search != "heuristic" && search != "wide")
        fail(error_kind::invalid_argument, "autotune search must be 'heuristic' or 'wide', got '", search, "'");
      std::vector<libs::tuned_algo> tuned;
      {
        nb::gil_scoped_release g;
        tuned = libs::autotune(dev, s, p, autotune, repeats,
                               search == "wide" ? libs::tune_search::wide : libs::tune_search::heuristic, max_configs);
      }
      nb::list out;
      for (const auto& t : tuned) out.append(nb::make_tuple(t.rank, t.ms, t.ratio, t.config, t.kept, t.round_robin));
      return out;
    }
    nb::gil_scoped_release g;
    libs::matmul(dev, s, p);
    return nb::none();
  }, nb::arg("device"), nb::arg("in_dtype"), nb::arg("out_dtype"), nb::arg("m"), nb::arg("n"), nb::arg("k"),
  nb::arg("batch"), nb::arg("trans_a"), nb::arg("trans_b"), nb::arg("a"), nb::arg("lda"), nb::arg("stride_a"),
  nb::arg("b"), nb::arg("ldb"), nb::arg("stride_b"), nb::arg("d"), nb::arg("ldd"), nb::arg("stride_d"), nb::arg("c"),
  nb::arg("ldc"), nb::arg("stride_c"), nb::arg("alpha"), nb::arg("beta"), nb::arg("epilog"), nb::arg("bias"),
  nb::arg("aux"), nb::arg("tf32"), nb::arg("stream").none() = nb::none(), nb::arg("autotune") = 0,
  nb::arg("repeats") = 5, nb::arg("search") = "heuristic", nb::arg("max_configs") = 1000, nb::arg("sm_count") = 0,
  "D = alpha * op(A) @ op(B) + beta * C through cuBLASLt, row-major operands (see libs/cublaslt.hpp). With "
  "autotune=N, times N candidates (search='heuristic': the heuristic's first N; 'wide': the fastest N of up to "
  "max_configs configurations of the heuristic's algorithms), keeps the fastest for this shape and returns "
  "[(rank, ms, ratio to the heuristic's first, config, kept, round_robin)].");
  m.def("cublaslt_info", &libs::cublaslt_info, "The loaded cuBLASLt library and its version (loads it).");

  m.def("cufft", [](int device, const std::string& kind, bool double_precision, bool inverse,
                    std::vector<std::int64_t> shape, std::int64_t batch, std::uintptr_t in, std::uintptr_t out,
                    nb::handle stream) {
    libs::fft_problem p;
    p.kind = kind == "c2c" ? libs::fft_kind::c2c : kind == "r2c" ? libs::fft_kind::r2c
           : kind == "c2r" ? libs::fft_kind::c2r
                           : (fail(error_kind::invalid_argument, "fft kind must be c2c, r2c or c2r, got ", kind), libs::fft_kind::c2c);
    p.double_precision = double_precision;
    p.inverse = inverse;
    p.shape = std::move(shape);
    p.batch = batch;
    p.in = in, p.out = out;
    rt::device& dev = rt::device::get(device);
    std::shared_ptr<rt::stream> hold;
    const rt::stream& s = stream.is_none() ? array::array_stream(dev) : to_stream(stream, hold);
    nb::gil_scoped_release g;
    libs::fft(dev, s, p);
  }, nb::arg("device"), nb::arg("kind"), nb::arg("double_precision"), nb::arg("inverse"), nb::arg("shape"),
  nb::arg("batch"), nb::arg("in_ptr"), nb::arg("out_ptr"), nb::arg("stream").none() = nb::none(),
  "Batched FFTs over packed contiguous data through cuFFT (see libs/cufft.hpp).");
  m.def("cufft_info", &libs::cufft_info, "The loaded cuFFT library and its version (loads it).");

  // cuSOLVER: column-major matrices in place; each returns LAPACK's info (read back, synchronising).
  struct call_args {
    libs::solver_call c;
    std::shared_ptr<rt::stream> hold;
  };
  auto solver = [](int device, const std::string& dtype) {
    auto a = std::make_shared<call_args>();
    rt::device& dev = rt::device::get(device);
    a->c.dev = &dev;
    a->c.s = &array::array_stream(dev);
    a->c.t = dtype_arg(dtype);
    return a;
  };
  m.def("solver_set_getrf_algorithm", &libs::set_getrf_algorithm, nb::arg("algorithm"),
        "cuSOLVER's getrf algorithm for later LU factorisations (0: the default, or 1).");
  m.def("solver_getrf", [solver](int device, const std::string& dtype, std::int64_t n, std::uintptr_t a, std::int64_t lda,
                                 std::uintptr_t ipiv) {
    auto x = solver(device, dtype);
    nb::gil_scoped_release g;
    return libs::getrf(x->c, n, a, lda, ipiv);
  });
  m.def("solver_getrs", [solver](int device, const std::string& dtype, const std::string& trans, std::int64_t n,
                                 std::int64_t nrhs, std::uintptr_t a, std::int64_t lda, std::uintptr_t ipiv, std::uintptr_t b,
                                 std::int64_t ldb) {
    auto x = solver(device, dtype);
    nb::gil_scoped_release g;
    return libs::getrs(x->c, trans.empty() ? 'N' : trans[0], n, nrhs, a, lda, ipiv, b, ldb);
  });
  m.def("solver_gesv", [solver](int device, const std::string& dtype, const std::string& trans, std::int64_t n,
                                std::int64_t nrhs, std::uintptr_t a, std::int64_t lda, std::uintptr_t ipiv, std::uintptr_t b,
                                std::int64_t ldb, bool substitute) {
    auto x = solver(device, dtype);
    nb::gil_scoped_release g;
    auto info = libs::gesv(x->c, trans.empty() ? 'N' : trans[0], n, nrhs, a, lda, ipiv, b, ldb, substitute);
    return std::make_pair(info[0], info[1]);
  }, nb::arg("device"), nb::arg("dtype"), nb::arg("trans"), nb::arg("n"), nb::arg("nrhs"), nb::arg("a"), nb::arg("lda"),
  nb::arg("ipiv"), nb::arg("b"), nb::arg("ldb"), nb::arg("substitute") = false,
  "getrf then getrs with one wait: (getrf's info, getrs's info); substitute: tegula's substitution kernels replace "
  "getrs for one real right-hand side (libs/lu_substitution.hpp).");
  m.def("solver_potrf", [solver](int device, const std::string& dtype, bool lower, std::int64_t n, std::uintptr_t a,
                                 std::int64_t lda) {
    auto x = solver(device, dtype);
    nb::gil_scoped_release g;
    return libs::potrf(x->c, lower, n, a, lda);
  });
  m.def("solver_geqrf", [solver](int device, const std::string& dtype, std::int64_t mm, std::int64_t n, std::uintptr_t a,
                                 std::int64_t lda, std::uintptr_t tau) {
    auto x = solver(device, dtype);
    nb::gil_scoped_release g;
    return libs::geqrf(x->c, mm, n, a, lda, tau);
  });
  m.def("solver_orgqr", [solver](int device, const std::string& dtype, std::int64_t mm, std::int64_t n, std::int64_t k,
                                 std::uintptr_t a, std::int64_t lda, std::uintptr_t tau) {
    auto x = solver(device, dtype);
    nb::gil_scoped_release g;
    return libs::orgqr(x->c, mm, n, k, a, lda, tau);
  });
  m.def("solver_syevd", [solver](int device, const std::string& dtype, bool vectors, bool lower, std::int64_t n,
                                 std::uintptr_t a, std::int64_t lda, std::uintptr_t w) {
    auto x = solver(device, dtype);
    nb::gil_scoped_release g;
    return libs::syevd(x->c, vectors, lower, n, a, lda, w);
  });
  m.def("solver_gesvd", [solver](int device, const std::string& dtype, const std::string& jobu, const std::string& jobvt,
                                 std::int64_t mm, std::int64_t n, std::uintptr_t a, std::int64_t lda, std::uintptr_t s,
                                 std::uintptr_t u, std::int64_t ldu, std::uintptr_t vt, std::int64_t ldvt) {
    auto x = solver(device, dtype);
    nb::gil_scoped_release g;
    return libs::gesvd(x->c, jobu[0], jobvt[0], mm, n, a, lda, s, u, ldu, vt, ldvt);
  });
  m.def("cusolver_info", &libs::cusolver_info, "The loaded cuSOLVER library and its version (loads it).");

  m.def("cub_radix_sort", [](int device, const std::string& key_type, int value_bytes, std::uintptr_t keys0,
                             std::uintptr_t keys1, std::uintptr_t values0, std::uintptr_t values1, std::int64_t n,
                             int end_bit, std::uintptr_t input_keys, std::uintptr_t input_values) {
    libs::radix_sort_problem p;
    p.key_type = key_type, p.value_bytes = value_bytes;
    p.keys[0] = keys0, p.keys[1] = keys1, p.values[0] = values0, p.values[1] = values1;
    p.n = n, p.end_bit = end_bit;
    p.input_keys = input_keys, p.input_values = input_values;
    rt::device& dev = rt::device::get(device);
    nb::gil_scoped_release g;
    return libs::radix_sort(dev, array::array_stream(dev), p);
  }, nb::arg("device"), nb::arg("key_type"), nb::arg("value_bytes"), nb::arg("keys0"), nb::arg("keys1"),
  nb::arg("values0"), nb::arg("values1"), nb::arg("n"), nb::arg("end_bit"), nb::arg("input_keys") = 0,
  nb::arg("input_values") = 0,
  "Stable LSD radix sort of n keys (uint32/uint64 on bits [0, end_bit), or int32/int64/float32/float64 in NumPy's "
  "order) and opaque values through CUB's onesweep kernels (NVRTC); both buffers are overwritten, input_keys/"
  "input_values (when given) are read and left alone; returns which buffer holds the result (see libs/cub_sort.hpp).");
  auto weights_kind = [](const std::string& weights) {
    if (weights == "none") return libs::bin_weights::none;
    if (weights == "int64") return libs::bin_weights::int64;
    if (weights == "float64") return libs::bin_weights::float64;
    fail(error_kind::type_error, "bin count weights are none, int64 or float64, not ", weights);
  };
  m.def("count_bins", [weights_kind](int device, std::uintptr_t idx, std::int64_t n, std::int64_t bins,
                                     const std::string& weights, std::uintptr_t weights_ptr, std::uintptr_t counts) {
    libs::bin_weights w = weights_kind(weights);
    rt::device& dev = rt::device::get(device);
    nb::gil_scoped_release g;
    libs::count_bins(dev, array::array_stream(dev), idx, n, bins, w, weights_ptr, counts);
  }, nb::arg("device"), nb::arg("idx_ptr"), nb::arg("n"), nb::arg("bins"), nb::arg("weights"), nb::arg("weights_ptr"),
  nb::arg("counts_ptr"),
  "counts[k] = the sum of weights[i] (or 1) over the n int64 bin indices with 0 <= idx[i] < bins (counts zeroed "
  "first), counted per block in shared memory (libs/bin_counts.hpp); counts: int64 (weights none/int64) or float64.");
  m.def("count_bins_uniform", [weights_kind](int device, std::uintptr_t x, const std::string& x_type, std::int64_t n,
                                             std::uintptr_t edges, std::int64_t bins, const std::string& weights,
                                             std::uintptr_t weights_ptr, std::uintptr_t counts) {
    libs::bin_weights w = weights_kind(weights);
    rt::device& dev = rt::device::get(device);
    nb::gil_scoped_release g;
    libs::count_bins_uniform(dev, array::array_stream(dev), x, x_type, n, edges, bins, w, weights_ptr, counts);
  }, nb::arg("device"), nb::arg("x_ptr"), nb::arg("x_type"), nb::arg("n"), nb::arg("edges_ptr"), nb::arg("bins"),
  nb::arg("weights"), nb::arg("weights_ptr"), nb::arg("counts_ptr"),
  "histogram's counts of n values into the bins of the sorted edges (bins + 1 of them, equal bins for speed), found "
  "and counted in one pass (libs/bin_counts.hpp).");
  m.def("cub_inclusive_scan", [](int device, const std::string& in_type, const std::string& out_type, bool multiply,
                                 std::uintptr_t in, std::uintptr_t out, std::int64_t n, int threads, int items,
                                 int load, int delay) {
    libs::scan_problem p;
    p.in_type = in_type, p.out_type = out_type, p.multiply = multiply, p.in = in, p.out = out, p.n = n;
    p.threads = threads, p.items = items, p.load = load, p.delay = delay;
    rt::device& dev = rt::device::get(device);
    nb::gil_scoped_release g;
    libs::inclusive_scan(dev, array::array_stream(dev), p);
  }, nb::arg("device"), nb::arg("in_type"), nb::arg("out_type"), nb::arg("multiply"), nb::arg("in_ptr"),
  nb::arg("out_ptr"), nb::arg("n"), nb::arg("threads") = 0, nb::arg("items") = 0, nb::arg("load") = 0, nb::arg("delay") = 0,
  "Inclusive sum (or product) of n contiguous elements through CUB's single-pass scan (NVRTC); threads/items pick "
  "the tile (0: tegula's choice); see libs/cub_scan.hpp.");
  m.def("chained_inclusive_scan", [](int device, bool multiply, std::uintptr_t in, std::uintptr_t out, std::int64_t n,
                                     int threads, int items, int load, int store, int blocks_per_sm, int delay,
                                     int lookback_warps, int status_stride, int min_blocks) {
    libs::chained_scan_problem p;
    p.multiply = multiply, p.in = in, p.out = out, p.n = n;
    p.threads = threads, p.items = items, p.load = load, p.store = store, p.blocks_per_sm = blocks_per_sm;
    p.delay = delay, p.lookback_warps = lookback_warps;
    p.status_stride = status_stride, p.min_blocks = min_blocks;
    rt::device& dev = rt::device::get(device);
    nb::gil_scoped_release g;
    libs::chained_inclusive_scan(dev, array::array_stream(dev), p);
  }, nb::arg("device"), nb::arg("multiply"), nb::arg("in_ptr"), nb::arg("out_ptr"), nb::arg("n"), nb::arg("threads") = 0,
  nb::arg("items") = 0, nb::arg("load") = 0, nb::arg("store") = 0, nb::arg("blocks_per_sm") = 0, nb::arg("delay") = 0,
  nb::arg("lookback_warps") = 0, nb::arg("status_stride") = 0, nb::arg("min_blocks") = 0,
  "Inclusive sum (or product) of n contiguous float32 elements (16-byte aligned) through tegula's own single-pass "
  "chained scan (NVRTC); threads/items pick the tile, load/store the cache variants (0: tegula's choice); see "
  "libs/chained_scan.hpp.");
  m.def("cub_include_dir", &libs::cccl_include_dir, "The CCCL header folder CUB is compiled from (raises if none).");
}

}  // namespace tegula::bind
