// Bindings for libs/: the CUDA libraries behind tegula.math and tegula.numpy (cuBLASLt, cuFFT, cuSOLVER, CUB).
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "tegula/array/library_node.hpp"
#include "tegula/array/storage.hpp"
#include "tegula/bindings/bind_support.hpp"
#include "tegula/bindings/py_array.hpp"
#include "tegula/bindings/runtime_common.hpp"
#include "tegula/bindings/torch_tensor.hpp"
#include "tegula/ir/dtype.hpp"
#include "tegula/libs/bin_count_arrays.hpp"
#include "tegula/libs/bin_counts.hpp"
#include "tegula/libs/cub_jit.hpp"
#include "tegula/libs/chained_scan.hpp"
#include "tegula/libs/cub_scan.hpp"
#include "tegula/libs/cub_sort.hpp"
#include "tegula/libs/cublaslt.hpp"
#include "tegula/libs/cufft.hpp"
#include "tegula/libs/fft_arrays.hpp"
#include "tegula/libs/matmul_arrays.hpp"
#include "tegula/libs/matmul_epilogue_arrays.hpp"
#include "tegula/libs/matrix_pass.hpp"
#include "tegula/libs/matrix_products.hpp"
#include "tegula/libs/scan_arrays.hpp"
#include "tegula/libs/solver_arrays.hpp"
#include "tegula/libs/sort_arrays.hpp"
#include "tegula/libs/cusolver.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/support/error.hpp"

namespace tegula::bind {

// The array-level entry points (libs/*_arrays.hpp): they take engine arrays, materialise inputs and flush
// readers of outputs themselves; Python's NumPy layer passes arrays, never device pointers.
static void bind_array_calls(nb::module_& m) {
  using array::node_ptr;
  auto node_of = [](const std::optional<py_array>& a) { return a ? a->n : node_ptr(); };
  m.def("gemm", [](const py_array& a, const py_array& b, std::vector<std::int64_t> batch, std::int64_t m_,
                   std::int64_t n, std::int64_t k, const std::string& t) {
    return py_array{libs::gemm(a.n, b.n, batch, m_, n, k, dtype_named(t))};
  }, nb::arg("a"), nb::arg("b"), nb::arg("batch"), nb::arg("m"), nb::arg("n"), nb::arg("k"), nb::arg("dtype"),
  "batch + (m, k) @ batch + (k, n) of one float or complex dtype through cuBLASLt (the CPU: a host reference); "
  "operands passed in place where their layout allows (libs/matmul_arrays.hpp).");
  m.def("matrix_product", [](const py_array& mat, const py_array& x, int side) {
    return py_array{libs::matrix_product(mat.n, x.n, side)};
  }, nb::arg("m"), nb::arg("x"), nb::arg("side"),
  "Pending m @ x (side 0) or x @ m (side 1) over matrix m in memory: computed when read, in one pass over m with "
  "the other held products over m (libs/matrix_products.hpp).");
  m.def("matrix_product_applies", [](const py_array& mat) {
    std::string why;
    const bool ok = libs::matrix_product_applies(mat.n, &why);
    return nb::make_tuple(ok, why);
  }, nb::arg("m"), "(whether the matrix pass reads m as it lies, why not).");
  m.def("array_library", [](const py_array& x) -> std::optional<std::string> {
    if (x.n->kind != array::node_kind::library) return std::nullopt;
    return x.n->library->describe(*x.n);
  }, nb::arg("x"), "What computes pending x when a library call does (library_node.hpp), else None.");
  m.def("matrix_pass_last", [] {
    const auto& l = libs::matrix_pass_last();
    return nb::make_tuple(l.kernel, std::string(ir::name(l.t)), l.ny, l.nz);
  }, "(kernel, dtype, products M @ u, products v @ M) of the most recent matrix pass on this thread.");
  m.def("set_lone_matrix_pass", &libs::set_lone_matrix_pass, nb::arg("on"),
        "Whether a matrix product no other held product joins takes the pass (True) or cuBLASLt (False); returns "
        "the previous setting.");
  m.def("matrix_pass_source", [](const std::string& t) { return libs::matrix_pass_source(dtype_named(t)); },
        nb::arg("dtype"), "The CUDA source of the matrix pass kernels for float32 or float64.");
  m.def("library_last", [] {
    const auto& l = array::library_last();
    return nb::make_tuple(l.what, l.joined);
  }, "(what computed the most recent library node on this thread, how many nodes that call computed).");
  m.def("gemm_operand", [](const py_array& x, std::vector<std::int64_t> batch, std::int64_t rows, std::int64_t cols,
                           bool narrow) {
    libs::gemm_operand op = libs::gemm_operand_of(x.n, batch, rows, cols, narrow);
    return nb::make_tuple(py_array{op.x}, op.trans, op.ld, op.batch_stride, op.copied);
  }, nb::arg("x"), nb::arg("batch"), nb::arg("rows"), nb::arg("cols"), nb::arg("narrow") = false,
  "How gemm hands x to cuBLASLt: (array read, trans, leading dimension, batch stride, copied).");
  m.def("fft_last_axis", [](const py_array& x, const std::string& kind, std::int64_t n, bool inverse,
                            bool overwrite_input) {
    libs::fft_kind k = kind == "c2c" ? libs::fft_kind::c2c : kind == "r2c" ? libs::fft_kind::r2c
                     : kind == "c2r" ? libs::fft_kind::c2r
                                     : (fail(error_kind::invalid_argument, "fft kind must be c2c, r2c or c2r, got ", kind),
                                        libs::fft_kind::c2c);
    return py_array{libs::fft_last_axis(x.n, k, n, inverse, overwrite_input)};
  }, nb::arg("x"), nb::arg("kind"), nb::arg("n"), nb::arg("inverse") = false, nb::arg("overwrite_input") = false,
  "The n-point transforms of x's last axis through cuFFT: a new array (libs/fft_arrays.hpp).");
  m.def("inclusive_scan", [](const py_array& x, bool multiply) { return py_array{libs::inclusive_scan(x.n, multiply)}; },
        nb::arg("x"), nb::arg("multiply") = false,
        "cumsum (cumprod) of x's elements in C order in one pass, by the engine set_scan_engine chose (libs/scan_arrays.hpp).");
  m.def("scan_engine", []() {
    const auto& s = libs::current_scan_settings();
    const auto& t = s.tile;
    nb::dict tile;
    tile["threads"] = t.threads, tile["items"] = t.items, tile["load"] = t.load, tile["store"] = t.store;
    tile["blocks_per_sm"] = t.blocks_per_sm, tile["delay"] = t.delay, tile["lookback_warps"] = t.lookback_warps;
    tile["status_stride"] = t.status_stride, tile["min_blocks"] = t.min_blocks;
    return nb::make_tuple(libs::scan_engine_name(s.engine), tile);
  }, "(engine, chained tile) a long float32 scan takes now.");
  m.def("set_scan_engine", [](const std::string& engine, nb::kwargs tile) {
    libs::scan_settings s;
    s.engine = libs::scan_engine_from_name(engine);
    auto& t = s.tile;
    for (auto [key, value] : tile) {
      std::string k = nb::cast<std::string>(key);
      int v = nb::cast<int>(value);
      if (k == "threads") t.threads = v;
      else if (k == "items") t.items = v;
      else if (k == "load") t.load = v;
      else if (k == "store") t.store = v;
      else if (k == "blocks_per_sm") t.blocks_per_sm = v;
      else if (k == "delay") t.delay = v;
      else if (k == "lookback_warps") t.lookback_warps = v;
      else if (k == "status_stride") t.status_stride = v;
      else if (k == "min_blocks") t.min_blocks = v;
      else fail(error_kind::type_error, "set_scan_engine: unknown tile setting '", k, "'");
    }
    libs::set_scan_settings(s);
  }, nb::arg("engine"), nb::arg("tile"),
  "Sets the engine ('chained' or 'cub') and the chained scan's tile (settings not named: the defaults).");
  m.def("radix_sort", [node_of](const py_array& keys, const std::optional<py_array>& values, int end_bit,
                                bool overwrite_inputs) {
    auto [k, v] = libs::radix_sort(keys.n, node_of(values), end_bit, overwrite_inputs);
    return nb::make_tuple(py_array{k}, v ? nb::cast(py_array{v}) : nb::none());
  }, nb::arg("keys"), nb::arg("values").none(), nb::arg("end_bit"), nb::arg("overwrite_inputs") = false,
  "(keys, values) sorted stably through CUB's onesweep radix sort (the CPU: a host reference); see "
  "libs/sort_arrays.hpp.");
  m.def("bin_counts", [node_of](const py_array& idx, std::int64_t bins, const std::optional<py_array>& weights) {
    return py_array{libs::count_bins(idx.n, bins, node_of(weights))};
  }, nb::arg("idx"), nb::arg("bins"), nb::arg("weights").none() = nb::none(),
  "bincount's counts of int64 bin indices on a GPU (libs/bin_count_arrays.hpp).");
  m.def("bin_counts_uniform", [node_of](const py_array& x, const py_array& edges, const std::optional<py_array>& weights) {
    return py_array{libs::count_bins_uniform(x.n, edges.n, node_of(weights))};
  }, nb::arg("x"), nb::arg("edges"), nb::arg("weights").none() = nb::none(),
  "histogram's counts of values into sorted edges' bins in one pass on a GPU (libs/bin_count_arrays.hpp).");
}

// tegula.math's products (libs/matmul_epilogue_arrays.hpp): a plan over engine arrays (torch tensors read here, in
// C++, for the float8 dtypes tegula.numpy lacks); a repeat run is one call that allocates the result and calls
// cuBLASLt.
static void bind_fused_gemm(nb::module_& m) {
  using array::node_ptr;
  auto operand = [](nb::handle x, const char* what) -> node_ptr {
    if (nb::isinstance<py_array>(x)) return nb::cast<const py_array&>(x).n;
    if (is_torch_tensor(x.ptr())) return torch_leaf(x.ptr());
    fail(error_kind::type_error, "tegula.math.matmul: ", what, " must be a tegula array or a torch tensor, not ",
         Py_TYPE(x.ptr())->tp_name);
  };
  auto result = [](const libs::gemm_result& r) -> nb::object {
    if (r.aux) return nb::make_tuple(py_array{r.d}, py_array{r.aux});
    return nb::cast(py_array{r.d});
  };
  nb::class_<libs::fused_gemm_plan>(m, "FusedGemmPlan",
      "D = act(alpha * a @ b + beta * c + bias) (and the pre-activation for *_aux epilogues), checked once for "
      "repeated runs (libs/matmul_epilogue_arrays.hpp).")
      .def("__init__", [operand](libs::fused_gemm_plan* self, nb::handle a, nb::handle b,
                                 const std::optional<py_array>& c, const std::optional<py_array>& bias, double alpha,
                                 double beta, const std::string& epilog, bool tf32, int sm_count,
                                 const std::optional<std::string>& out_dtype) {
        libs::gemm_epilogue e = libs::epilogue_named(epilog, bias ? bias->n : node_ptr());
        e.alpha = alpha, e.beta = beta;
        if (c) e.c = c->n;
        libs::gemm_options o;
        o.tf32 = tf32, o.sm_count = sm_count;
        if (out_dtype) o.out = dtype_named(*out_dtype);
        new (self) libs::fused_gemm_plan(operand(a, "a"), operand(b, "b"), std::move(e), o);
      }, nb::arg("a"), nb::arg("b"), nb::arg("c").none(), nb::arg("bias").none(), nb::arg("alpha"), nb::arg("beta"),
      nb::arg("epilog"), nb::arg("tf32"), nb::arg("sm_count"), nb::arg("out_dtype").none())
      .def("run", [result](libs::fused_gemm_plan& p) { return result(p.run()); },
           "The product on the operands' current values: a new array d, or (d, aux).")
      .def("autotune", [](libs::fused_gemm_plan& p, int candidates, int repeats, const std::string& search,
                          int max_configs) {
        std::vector<libs::tuned_algo> tuned = p.autotune(candidates, repeats, libs::tune_search_from_name(search),
                                                         max_configs);
        nb::list out;
        for (const auto& t : tuned) out.append(nb::make_tuple(t.rank, t.ms, t.ratio, t.config, t.kept, t.round_robin));
        return out;
      }, nb::arg("candidates"), nb::arg("repeats"), nb::arg("search"), nb::arg("max_configs"),
      "Times candidates (search='heuristic': the heuristic's first N; 'wide': the fastest N of up to max_configs "
      "configurations of the heuristic's algorithms), keeps the fastest for this shape and returns [(rank, ms, ratio "
      "to the heuristic's first, config, kept, round_robin)]; [] on the CPU.")
      .def_prop_ro("batch", [](const libs::fused_gemm_plan& p) { return p.batch(); })
      .def_prop_ro("shape", [](const libs::fused_gemm_plan& p) { return p.shape(); })
      .def_prop_ro("dtype", [](const libs::fused_gemm_plan& p) { return std::string(ir::name(p.result_dtype())); })
      .def_prop_ro("on_cuda", &libs::fused_gemm_plan::on_cuda);
}

void bind_libs(nb::module_& m) {
  bind_array_calls(m);
  bind_fused_gemm(m);
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

  // cuSOLVER over arrays (libs/solver_arrays.hpp): each matrix a C-contiguous (columns, ld) array holding the
  // column-major matrix, overwritten in place; each returns LAPACK's info (read back, synchronising).
  namespace sv = libs::solver;
  auto job = [](const std::string& j) { return j.empty() ? 'N' : j[0]; };
  m.def("solver_set_getrf_algorithm", &libs::set_getrf_algorithm, nb::arg("algorithm"),
        "cuSOLVER's getrf algorithm for later LU factorisations (0: the default, or 1).");
  m.def("solver_getrf", [](const py_array& a, const py_array& ipiv) { return sv::getrf(a.n, ipiv.n); },
        nb::arg("a"), nb::arg("ipiv"), "LU of the (n, n) a in place; ipiv: n int64 pivots (1-based).");
  m.def("solver_gesv", [job](const std::string& trans, const py_array& a, const py_array& ipiv, const py_array& b,
                             bool substitute) {
    auto info = sv::gesv(job(trans), a.n, ipiv.n, b.n, substitute);
    return std::make_pair(info[0], info[1]);
  }, nb::arg("trans"), nb::arg("a"), nb::arg("ipiv"), nb::arg("b"), nb::arg("substitute") = false,
  "getrf then getrs with one wait: (getrf's info, getrs's info); b (nrhs, n) becomes X; substitute: tegula's "
  "substitution kernels replace getrs for one real right-hand side (libs/lu_substitution.hpp).");
  m.def("solver_potrf", [](bool lower, const py_array& a) { return sv::potrf(lower, a.n); }, nb::arg("lower"),
        nb::arg("a"));
  m.def("solver_geqrf", [](const py_array& a, const py_array& tau) { return sv::geqrf(a.n, tau.n); }, nb::arg("a"),
        nb::arg("tau"));
  m.def("solver_orgqr", [](std::int64_t k, const py_array& a, const py_array& tau) { return sv::orgqr(k, a.n, tau.n); },
        nb::arg("k"), nb::arg("a"), nb::arg("tau"));
  m.def("solver_syevd", [](bool vectors, bool lower, const py_array& a, const py_array& w) {
    return sv::syevd(vectors, lower, a.n, w.n);
  }, nb::arg("vectors"), nb::arg("lower"), nb::arg("a"), nb::arg("w"));
  m.def("solver_gesvd", [job](const std::string& jobu, const std::string& jobvt, const py_array& a, const py_array& s,
                              const py_array& u, const py_array& vt) {
    return sv::gesvd(job(jobu), job(jobvt), a.n, s.n, u.n, vt.n);
  }, nb::arg("jobu"), nb::arg("jobvt"), nb::arg("a"), nb::arg("s"), nb::arg("u"), nb::arg("vt"));
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
