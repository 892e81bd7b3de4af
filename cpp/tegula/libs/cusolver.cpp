// Dense factorisations through cuSOLVER (see cusolver.hpp): the 64-bit generic API where it exists,
// the typed one for orgqr/ungqr; workspaces from the device's pool, the status word read back.
#include "tegula/libs/cusolver.hpp"

#include <cusolverDn.h>  // types and prototypes only: the library is dlopen'd (DESIGN.md rule 4)

#include <array>
#include <map>
#include <mutex>
#include <vector>

#include "tegula/libs/lu_substitution.hpp"
#include "tegula/runtime/buffer.hpp"
#include "tegula/runtime/profiler.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/runtime/stream.hpp"
#include "tegula/support/config.hpp"
#include "tegula/support/dynlib.hpp"
#include "tegula/support/error.hpp"

namespace tegula::libs {
namespace {

#define TEGULA_SOLVER_FUNCTIONS(X)                                                                       \
  X(cusolverDnCreate) X(cusolverDnSetStream) X(cusolverDnCreateParams) X(cusolverGetVersion)            \
  X(cusolverDnSetAdvOptions)                                                                             \
  X(cusolverDnXgetrf_bufferSize) X(cusolverDnXgetrf) X(cusolverDnXgetrs) X(cusolverDnXpotrf_bufferSize)  \
  X(cusolverDnXpotrf) X(cusolverDnXgeqrf_bufferSize) X(cusolverDnXgeqrf) X(cusolverDnXsyevd_bufferSize)  \
  X(cusolverDnXsyevd) X(cusolverDnXgesvd_bufferSize) X(cusolverDnXgesvd) X(cusolverDnSorgqr_bufferSize)  \
  X(cusolverDnSorgqr) X(cusolverDnDorgqr_bufferSize) X(cusolverDnDorgqr) X(cusolverDnCungqr_bufferSize) \
  X(cusolverDnCungqr) X(cusolverDnZungqr_bufferSize) X(cusolverDnZungqr)

struct api_t {
  dynlib lib;
#define TEGULA_DECL(name) decltype(&::name) name = nullptr;
  TEGULA_SOLVER_FUNCTIONS(TEGULA_DECL)
#undef TEGULA_DECL
};

const api_t& api() {
  static const api_t a = [] {
    const std::vector<std::string> dirs = cuda_library_dirs();
    api_t x;
    x.lib = dynlib::open("cuSOLVER (CUDA's dense linear algebra library)",
                         {"libcusolver.so.12", "libcusolver.so.11", "libcusolver.so"}, dirs);
#define TEGULA_GET(name) x.lib.require(x.name, #name, "cuSOLVER");
    TEGULA_SOLVER_FUNCTIONS(TEGULA_GET)
#undef TEGULA_GET
    return x;
  }();
  return a;
}

void check(cusolverStatus_t s, const char* call) {
  if (s == CUSOLVER_STATUS_SUCCESS) return;
  error_kind k = s == CUSOLVER_STATUS_ALLOC_FAILED ? error_kind::out_of_memory
                 : s == CUSOLVER_STATUS_INVALID_VALUE ? error_kind::invalid_argument
                                                       : error_kind::cuda;
  fail(k, call, " failed with cusolverStatus ", int(s));
}

cudaDataType data_type(ir::dtype t) {
  switch (t) {
    case ir::dtype::f32: return CUDA_R_32F;
    case ir::dtype::f64: return CUDA_R_64F;
    case ir::dtype::c64: return CUDA_C_32F;
    case ir::dtype::c128: return CUDA_C_64F;
    default: fail(error_kind::type_error, "cuSOLVER takes float32, float64, complex64 or complex128, not ", ir::name(t));
  }
}
cudaDataType real_type(ir::dtype t) { return t == ir::dtype::f32 || t == ir::dtype::c64 ? CUDA_R_32F : CUDA_R_64F; }

// One handle and params object per device; calls are serialised (cuSOLVER handles are not
// thread-safe for concurrent use).
struct ctx {
  cusolverDnHandle_t h = nullptr;
  cusolverDnParams_t params = nullptr;
  int getrf_algorithm = 0;
};

int& wanted_getrf_algorithm() {
  static int a = 0;
  return a;
}

std::mutex& lock() {
  static std::mutex m;
  return m;
}

ctx& context(const solver_call& c) {
  static auto* all = new std::map<int, ctx>();  // leaked: handles outlive static destruction
  ctx& x = (*all)[c.dev->ordinal()];
  c.dev->make_current();
  if (!x.h) {
    check(api().cusolverDnCreate(&x.h), "cusolverDnCreate");
    check(api().cusolverDnCreateParams(&x.params), "cusolverDnCreateParams");
  }
  check(api().cusolverDnSetStream(x.h, c.s->handle()), "cusolverDnSetStream");
  if (x.getrf_algorithm != wanted_getrf_algorithm()) {
    check(api().cusolverDnSetAdvOptions(x.params, CUSOLVERDN_GETRF, cusolverAlgMode_t(wanted_getrf_algorithm())),
          "cusolverDnSetAdvOptions");
    x.getrf_algorithm = wanted_getrf_algorithm();
  }
  return x;
}

// Device and host workspaces of the sizes a _bufferSize call asked for, and the status word.
struct scratch {
  std::shared_ptr<rt::buffer> dev, info;
  std::vector<unsigned char> host;
  scratch(const solver_call& c, std::size_t dev_bytes, std::size_t host_bytes)
      : dev(rt::buffer::allocate(std::max<std::size_t>(dev_bytes, 16), c.dev->default_stream())),
        info(rt::buffer::allocate(16, c.dev->default_stream())),
        host(std::max<std::size_t>(host_bytes, 1)) {}
  void* d() const { return reinterpret_cast<void*>(dev->ptr()); }
  int* i() const { return reinterpret_cast<int*>(info->ptr()); }
  int read(const solver_call& c) const { return read2(c)[0]; }
  // The status words at i() and i() + 1, read with one wait.
  std::array<int, 2> read2(const solver_call& c) const {
    std::array<int, 2> v{0, 0};
    info->copy_to_host(v.data(), sizeof v, 0, *c.s);  // synchronises the stream
    return v;
  }
};

template <class T>
T* p(std::uintptr_t x) {
  return reinterpret_cast<T*>(x);
}

// Enqueues getrf of the n x n A in place; its status word goes to the returned scratch's i() (caller holds the lock).
scratch enqueue_getrf(ctx& x, const solver_call& c, std::int64_t n, std::uintptr_t a, std::int64_t lda,
                      std::uintptr_t ipiv) {
  const cudaDataType t = data_type(c.t);
  std::size_t db = 0, hb = 0;
  check(api().cusolverDnXgetrf_bufferSize(x.h, x.params, n, n, t, p<void>(a), lda, t, &db, &hb), "cusolverDnXgetrf_bufferSize");
  scratch w(c, db, hb);
  check(api().cusolverDnXgetrf(x.h, x.params, n, n, t, p<void>(a), lda, p<std::int64_t>(ipiv), t, w.d(), db,
                               w.host.data(), hb, w.i()), "cusolverDnXgetrf");
  return w;
}

// Enqueues getrs with getrf's factors; its status word goes to `info` (caller holds the lock).
void enqueue_getrs(ctx& x, const solver_call& c, char trans, std::int64_t n, std::int64_t nrhs, std::uintptr_t a,
                   std::int64_t lda, std::uintptr_t ipiv, std::uintptr_t b, std::int64_t ldb, int* info) {
  const cudaDataType t = data_type(c.t);
  const cublasOperation_t op = trans == 'T' ? CUBLAS_OP_T : trans == 'C' ? CUBLAS_OP_C : CUBLAS_OP_N;
  check(api().cusolverDnXgetrs(x.h, x.params, op, n, nrhs, t, p<void>(a), lda, p<std::int64_t>(ipiv), t, p<void>(b), ldb,
                               info), "cusolverDnXgetrs");
}

}  // namespace

int getrf(const solver_call& c, std::int64_t n, std::uintptr_t a, std::int64_t lda, std::uintptr_t ipiv) {
  rt::prof::host_scope timing(rt::prof::kind::library, "cusolver getrf", c.s);
  std::lock_guard<std::mutex> g(lock());
  return enqueue_getrf(context(c), c, n, a, lda, ipiv).read(c);
}

void set_getrf_algorithm(int algorithm) {
  if (algorithm != 0 && algorithm != 1) fail(error_kind::invalid_argument, "cuSOLVER's getrf algorithm is 0 or 1");
  std::lock_guard<std::mutex> g(lock());
  wanted_getrf_algorithm() = algorithm;
}

int getrs(const solver_call& c, char trans, std::int64_t n, std::int64_t nrhs, std::uintptr_t a, std::int64_t lda,
          std::uintptr_t ipiv, std::uintptr_t b, std::int64_t ldb) {
  rt::prof::host_scope timing(rt::prof::kind::library, "cusolver getrs", c.s);
  std::lock_guard<std::mutex> g(lock());
  scratch w(c, 0, 0);
  enqueue_getrs(context(c), c, trans, n, nrhs, a, lda, ipiv, b, ldb, w.i());
  return w.read(c);
}

std::array<int, 2> gesv(const solver_call& c, char trans, std::int64_t n, std::int64_t nrhs, std::uintptr_t a,
                        std::int64_t lda, std::uintptr_t ipiv, std::uintptr_t b, std::int64_t ldb, bool substitute) {
  substitute = substitute && nrhs == 1 && n > 0 && (trans == 'N' || trans == 'T') &&
               (c.t == ir::dtype::f32 || c.t == ir::dtype::f64);
  rt::prof::host_scope timing(rt::prof::kind::library, substitute ? "cusolver getrf + substitution" : "cusolver getrf+getrs",
                              c.s);
  std::lock_guard<std::mutex> g(lock());
  ctx& x = context(c);
  scratch w = enqueue_getrf(x, c, n, a, lda, ipiv);
  if (substitute) {
    const int info = w.read(c);  // waits for getrf
    if (info != 0) return {info, 0};
    std::vector<std::int64_t> piv(static_cast<std::size_t>(n));
    rt::buffer::borrow(CUdeviceptr(ipiv), piv.size() * sizeof(std::int64_t), *c.dev)
        ->copy_to_host(piv.data(), piv.size() * sizeof(std::int64_t), 0, *c.s);
    lu_substitute(*c.dev, *c.s, c.t, trans == 'T', n, a, lda, permutation_from_pivots(piv.data(), n), b);
    return {0, 0};
  }
  enqueue_getrs(x, c, trans, n, nrhs, a, lda, ipiv, b, ldb, w.i() + 1);
  return w.read2(c);
}

int potrf(const solver_call& c, bool lower, std::int64_t n, std::uintptr_t a, std::int64_t lda) {
  rt::prof::host_scope timing(rt::prof::kind::library, "cusolver potrf", c.s);
  std::lock_guard<std::mutex> g(lock());
  ctx& x = context(c);
  const cudaDataType t = data_type(c.t);
  const cublasFillMode_t uplo = lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
  std::size_t db = 0, hb = 0;
  check(api().cusolverDnXpotrf_bufferSize(x.h, x.params, uplo, n, t, p<void>(a), lda, t, &db, &hb), "cusolverDnXpotrf_bufferSize");
  scratch w(c, db, hb);
  check(api().cusolverDnXpotrf(x.h, x.params, uplo, n, t, p<void>(a), lda, t, w.d(), db, w.host.data(), hb, w.i()),
        "cusolverDnXpotrf");
  return w.read(c);
}

int geqrf(const solver_call& c, std::int64_t m, std::int64_t n, std::uintptr_t a, std::int64_t lda, std::uintptr_t tau) {
  rt::prof::host_scope timing(rt::prof::kind::library, "cusolver geqrf", c.s);
  std::lock_guard<std::mutex> g(lock());
  ctx& x = context(c);
  const cudaDataType t = data_type(c.t);
  std::size_t db = 0, hb = 0;
  check(api().cusolverDnXgeqrf_bufferSize(x.h, x.params, m, n, t, p<void>(a), lda, t, p<void>(tau), t, &db, &hb),
        "cusolverDnXgeqrf_bufferSize");
  scratch w(c, db, hb);
  check(api().cusolverDnXgeqrf(x.h, x.params, m, n, t, p<void>(a), lda, t, p<void>(tau), t, w.d(), db, w.host.data(),
                               hb, w.i()), "cusolverDnXgeqrf");
  return w.read(c);
}

int orgqr(const solver_call& c, std::int64_t m, std::int64_t n, std::int64_t k, std::uintptr_t a, std::int64_t lda,
          std::uintptr_t tau) {
  rt::prof::host_scope timing(rt::prof::kind::library, "cusolver orgqr", c.s);
  if (m > 2147483647 || lda > 2147483647) fail(error_kind::invalid_argument, "orgqr: matrix too large for cuSOLVER's 32-bit API");
  std::lock_guard<std::mutex> g(lock());
  ctx& x = context(c);
  const int M = int(m), N = int(n), K = int(k), L = int(lda);
  int lwork = 0;
  switch (c.t) {
    case ir::dtype::f32: check(api().cusolverDnSorgqr_bufferSize(x.h, M, N, K, p<float>(a), L, p<float>(tau), &lwork), "orgqr_bufferSize"); break;
    case ir::dtype::f64: check(api().cusolverDnDorgqr_bufferSize(x.h, M, N, K, p<double>(a), L, p<double>(tau), &lwork), "orgqr_bufferSize"); break;
    case ir::dtype::c64: check(api().cusolverDnCungqr_bufferSize(x.h, M, N, K, p<cuComplex>(a), L, p<cuComplex>(tau), &lwork), "ungqr_bufferSize"); break;
    case ir::dtype::c128: check(api().cusolverDnZungqr_bufferSize(x.h, M, N, K, p<cuDoubleComplex>(a), L, p<cuDoubleComplex>(tau), &lwork), "ungqr_bufferSize"); break;
    default: data_type(c.t);
  }
  scratch w(c, std::size_t(lwork) * std::size_t(ir::size_bytes(c.t)), 0);
  switch (c.t) {
    case ir::dtype::f32: check(api().cusolverDnSorgqr(x.h, M, N, K, p<float>(a), L, p<float>(tau), static_cast<float*>(w.d()), lwork, w.i()), "cusolverDnSorgqr"); break;
    case ir::dtype::f64: check(api().cusolverDnDorgqr(x.h, M, N, K, p<double>(a), L, p<double>(tau), static_cast<double*>(w.d()), lwork, w.i()), "cusolverDnDorgqr"); break;
    case ir::dtype::c64: check(api().cusolverDnCungqr(x.h, M, N, K, p<cuComplex>(a), L, p<cuComplex>(tau), static_cast<cuComplex*>(w.d()), lwork, w.i()), "cusolverDnCungqr"); break;
    default: check(api().cusolverDnZungqr(x.h, M, N, K, p<cuDoubleComplex>(a), L, p<cuDoubleComplex>(tau), static_cast<cuDoubleComplex*>(w.d()), lwork, w.i()), "cusolverDnZungqr"); break;
  }
  return w.read(c);
}

int syevd(const solver_call& c, bool vectors, bool lower, std::int64_t n, std::uintptr_t a, std::int64_t lda,
          std::uintptr_t wv) {
  rt::prof::host_scope timing(rt::prof::kind::library, "cusolver syevd", c.s);
  std::lock_guard<std::mutex> g(lock());
  ctx& x = context(c);
  const cudaDataType t = data_type(c.t), rt = real_type(c.t);
  const cusolverEigMode_t jobz = vectors ? CUSOLVER_EIG_MODE_VECTOR : CUSOLVER_EIG_MODE_NOVECTOR;
  const cublasFillMode_t uplo = lower ? CUBLAS_FILL_MODE_LOWER : CUBLAS_FILL_MODE_UPPER;
  std::size_t db = 0, hb = 0;
  check(api().cusolverDnXsyevd_bufferSize(x.h, x.params, jobz, uplo, n, t, p<void>(a), lda, rt, p<void>(wv), t, &db, &hb),
        "cusolverDnXsyevd_bufferSize");
  scratch w(c, db, hb);
  check(api().cusolverDnXsyevd(x.h, x.params, jobz, uplo, n, t, p<void>(a), lda, rt, p<void>(wv), t, w.d(), db,
                               w.host.data(), hb, w.i()), "cusolverDnXsyevd");
  return w.read(c);
}

int gesvd(const solver_call& c, char jobu, char jobvt, std::int64_t m, std::int64_t n, std::uintptr_t a,
          std::int64_t lda, std::uintptr_t s, std::uintptr_t u, std::int64_t ldu, std::uintptr_t vt, std::int64_t ldvt) {
  rt::prof::host_scope timing(rt::prof::kind::library, "cusolver gesvd", c.s);
  if (m < n) fail(error_kind::internal, "gesvd needs m >= n (the caller transposes)");
  std::lock_guard<std::mutex> g(lock());
  ctx& x = context(c);
  const cudaDataType t = data_type(c.t), rt = real_type(c.t);
  std::size_t db = 0, hb = 0;
  check(api().cusolverDnXgesvd_bufferSize(x.h, x.params, static_cast<signed char>(jobu), static_cast<signed char>(jobvt), m,
                                          n, t, p<void>(a), lda, rt, p<void>(s), t, p<void>(u), ldu, t, p<void>(vt), ldvt, t,
                                          &db, &hb), "cusolverDnXgesvd_bufferSize");
  scratch w(c, db, hb);
  check(api().cusolverDnXgesvd(x.h, x.params, static_cast<signed char>(jobu), static_cast<signed char>(jobvt), m, n, t,
                               p<void>(a), lda, rt, p<void>(s), t, p<void>(u), ldu, t, p<void>(vt), ldvt, t, w.d(), db,
                               w.host.data(), hb, w.i()), "cusolverDnXgesvd");
  return w.read(c);
}

std::string cusolver_info() {
  int v = 0;
  api().cusolverGetVersion(&v);
  return str(api().lib.path(), " (version ", v, ")");
}

}  // namespace tegula::libs
