// Matrix products through cuBLASLt (see cublaslt.hpp). Row-major problems are posed to cuBLASLt's
// column-major model as the transposed product: D^T = op(B)^T op(A)^T, so B's buffer is cuBLASLt's A.
#include "tegula/libs/cublaslt.hpp"

#include <cublasLt.h>  // types and prototypes only: the library is dlopen'd (DESIGN.md rule 4)

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "tegula/runtime/buffer.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/runtime/event.hpp"
#include "tegula/runtime/profiler.hpp"
#include "tegula/runtime/stream.hpp"
#include "tegula/support/config.hpp"
#include "tegula/support/dynlib.hpp"
#include "tegula/support/error.hpp"

namespace tegula::libs {
namespace {

#define TEGULA_LT_FUNCTIONS(X)                                                                            \
  X(cublasLtCreate) X(cublasLtDestroy) X(cublasLtGetVersion) X(cublasLtGetStatusString)                   \
  X(cublasLtMatmulDescCreate) X(cublasLtMatmulDescDestroy) X(cublasLtMatmulDescSetAttribute)             \
  X(cublasLtMatrixLayoutCreate) X(cublasLtMatrixLayoutDestroy) X(cublasLtMatrixLayoutSetAttribute)       \
  X(cublasLtMatmulPreferenceCreate) X(cublasLtMatmulPreferenceDestroy)                                   \
  X(cublasLtMatmulPreferenceSetAttribute) X(cublasLtMatmulAlgoGetHeuristic) X(cublasLtMatmul)

struct api_t {
  dynlib lib;
#define TEGULA_DECL(name) decltype(&::name) name = nullptr;
  TEGULA_LT_FUNCTIONS(TEGULA_DECL)
#undef TEGULA_DECL
};

const api_t& api() {
  static const api_t a = [] {
    const std::vector<std::string> dirs = cuda_library_dirs();
    api_t x;
    x.lib = dynlib::open("cuBLASLt (CUDA's matrix-product library)",
                         {"libcublasLt.so.13", "libcublasLt.so.12", "libcublasLt.so"}, dirs);
#define TEGULA_GET(name) x.lib.require(x.name, #name, "cuBLASLt");
    TEGULA_LT_FUNCTIONS(TEGULA_GET)
#undef TEGULA_GET
    return x;
  }();
  return a;
}

void check(cublasStatus_t s, const char* call) {
  if (s == CUBLAS_STATUS_SUCCESS) return;
  const char* text = api().cublasLtGetStatusString(s);
  error_kind k = s == CUBLAS_STATUS_ALLOC_FAILED ? error_kind::out_of_memory
                 : s == CUBLAS_STATUS_NOT_SUPPORTED || s == CUBLAS_STATUS_INVALID_VALUE ? error_kind::invalid_argument
                                                                                          : error_kind::cuda;
  fail(k, call, " failed: ", text ? text : "unknown cuBLAS status", " (", int(s), ")");
}

cudaDataType_t data_type(ir::dtype t) {
  switch (t) {
    case ir::dtype::bf16: return CUDA_R_16BF;
    case ir::dtype::f16: return CUDA_R_16F;
    case ir::dtype::f32: return CUDA_R_32F;
    case ir::dtype::f64: return CUDA_R_64F;
    case ir::dtype::f8e4m3: return CUDA_R_8F_E4M3;
    case ir::dtype::f8e5m2: return CUDA_R_8F_E5M2;
    default: fail(error_kind::type_error, "cuBLASLt matmul does not take ", ir::name(t), " operands");
  }
}

cublasLtEpilogue_t epilogue_value(epilogue e) {
  switch (e) {
    case epilogue::none: return CUBLASLT_EPILOGUE_DEFAULT;
    case epilogue::relu: return CUBLASLT_EPILOGUE_RELU;
    case epilogue::bias: return CUBLASLT_EPILOGUE_BIAS;
    case epilogue::relu_bias: return CUBLASLT_EPILOGUE_RELU_BIAS;
    case epilogue::gelu: return CUBLASLT_EPILOGUE_GELU;
    case epilogue::gelu_bias: return CUBLASLT_EPILOGUE_GELU_BIAS;
    case epilogue::relu_aux: return CUBLASLT_EPILOGUE_RELU_AUX;
    case epilogue::relu_aux_bias: return CUBLASLT_EPILOGUE_RELU_AUX_BIAS;
    case epilogue::gelu_aux: return CUBLASLT_EPILOGUE_GELU_AUX;
    case epilogue::gelu_aux_bias: return CUBLASLT_EPILOGUE_GELU_AUX_BIAS;
  }
  return CUBLASLT_EPILOGUE_DEFAULT;
}

bool has_bias(epilogue e) {
  return e == epilogue::bias || e == epilogue::relu_bias || e == epilogue::gelu_bias || e == epilogue::relu_aux_bias ||
         e == epilogue::gelu_aux_bias;
}
bool has_aux(epilogue e) {
  return e == epilogue::relu_aux || e == epilogue::relu_aux_bias || e == epilogue::gelu_aux || e == epilogue::gelu_aux_bias;
}

// A plan: descriptors for one problem shape and the algorithm the heuristic chose.
struct plan {
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr, d = nullptr;
  cublasLtMatmulAlgo_t algo{};
  bool f64_scale = false;
  ~plan() {
    if (op) api().cublasLtMatmulDescDestroy(op);
    for (auto l : {a, b, c, d})
      if (l) api().cublasLtMatrixLayoutDestroy(l);
  }
};

constexpr std::size_t workspace_bytes = 32u << 20;

struct per_device {
  cublasLtHandle_t handle = nullptr;
  std::shared_ptr<rt::buffer> workspace;
  std::map<std::string, std::unique_ptr<plan>> plans;
};

std::mutex& lock() {
  static std::mutex m;
  return m;
}

per_device& state(rt::device& dev, const rt::stream& s) {
  static std::map<int, per_device>* all = new std::map<int, per_device>();  // leaked: handles outlive exit
  per_device& st = (*all)[dev.ordinal()];
  if (!st.handle) {
    dev.make_current();
    check(api().cublasLtCreate(&st.handle), "cublasLtCreate");
    st.workspace = rt::buffer::allocate(workspace_bytes, dev.default_stream());
    dev.default_stream()->synchronize();
  }
  (void)s;
  return st;
}

std::string key_of(const matmul_problem& p) {
  return str(int(p.in), ",", int(p.out), ",", p.tf32, ",", p.m, ",", p.n, ",", p.k, ",", p.batch, ",", p.trans_a, ",",
             p.trans_b, ",", p.lda, ",", p.ldb, ",", p.ldc, ",", p.ldd, ",", p.stride_a, ",", p.stride_b, ",",
             p.stride_c, ",", p.stride_d, ",", int(p.ep), ",", p.c != 0, ",", p.bias % 16 == 0, ",",
             (p.a | p.b | p.d | p.c) % 16 == 0);
}

cublasLtMatrixLayout_t layout(cudaDataType_t t, std::int64_t rows, std::int64_t cols, std::int64_t ld,
                              std::int64_t batch, std::int64_t stride) {
  cublasLtMatrixLayout_t l = nullptr;
  check(api().cublasLtMatrixLayoutCreate(&l, t, std::uint64_t(rows), std::uint64_t(cols), ld), "cublasLtMatrixLayoutCreate");
  if (batch > 1) {
    int count = int(batch);
    check(api().cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_BATCH_COUNT, &count, sizeof count),
          "cublasLtMatrixLayoutSetAttribute");
    check(api().cublasLtMatrixLayoutSetAttribute(l, CUBLASLT_MATRIX_LAYOUT_STRIDED_BATCH_OFFSET, &stride, sizeof stride),
          "cublasLtMatrixLayoutSetAttribute");
  }
  return l;
}

// Up to `count` algorithms cuBLASLt's heuristic proposes for the plan's descriptors, best first.
std::vector<cublasLtMatmulHeuristicResult_t> heuristics(cublasLtHandle_t h, const plan& pl, const matmul_problem& p,
                                                        int count) {
  cublasLtMatmulPreference_t pref = nullptr;
  check(api().cublasLtMatmulPreferenceCreate(&pref), "cublasLtMatmulPreferenceCreate");
  std::uint64_t ws = workspace_bytes;
  check(api().cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES, &ws, sizeof ws),
        "set MAX_WORKSPACE_BYTES");
  std::vector<cublasLtMatmulHeuristicResult_t> results(std::size_t(std::max(count, 1)));
  int found = 0;
  cublasStatus_t st = api().cublasLtMatmulAlgoGetHeuristic(h, pl.op, pl.a, pl.b, pl.c, pl.d, pref, int(results.size()),
                                                           results.data(), &found);
  api().cublasLtMatmulPreferenceDestroy(pref);
  check(st, "cublasLtMatmulAlgoGetHeuristic");
  if (found < 1)
    fail(error_kind::invalid_argument, "cuBLASLt has no algorithm for a ", ir::name(p.in), " ", p.m, "x", p.k, " @ ",
         p.k, "x", p.n, " product with epilogue ", epilogue_name(p.ep), " (alignment or layout not supported)");
  results.resize(std::size_t(found));
  return results;
}

std::unique_ptr<plan> make_plan(cublasLtHandle_t h, const matmul_problem& p) {
  auto pl = std::make_unique<plan>();
  const bool f64 = p.in == ir::dtype::f64;
  cublasComputeType_t compute = f64 ? CUBLAS_COMPUTE_64F
                                : (p.in == ir::dtype::f32 && p.tf32) ? CUBLAS_COMPUTE_32F_FAST_TF32
                                                                      : CUBLAS_COMPUTE_32F;
  pl->f64_scale = f64;
  check(api().cublasLtMatmulDescCreate(&pl->op, compute, f64 ? CUDA_R_64F : CUDA_R_32F), "cublasLtMatmulDescCreate");
  // cuBLASLt's A is our B: op N when B's buffer holds (k, n) row-major, T when it holds B^T.
  cublasOperation_t ta = p.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N, tb = p.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N;
  check(api().cublasLtMatmulDescSetAttribute(pl->op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta), "set TRANSA");
  check(api().cublasLtMatmulDescSetAttribute(pl->op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb), "set TRANSB");
  cublasLtEpilogue_t ep = epilogue_value(p.ep);
  check(api().cublasLtMatmulDescSetAttribute(pl->op, CUBLASLT_MATMUL_DESC_EPILOGUE, &ep, sizeof ep), "set EPILOGUE");
  if (has_bias(p.ep)) {
    cudaDataType_t bt = data_type(p.out);  // the bias has the output's dtype
    check(api().cublasLtMatmulDescSetAttribute(pl->op, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &bt, sizeof bt),
          "set BIAS_DATA_TYPE");
  }
  if (has_aux(p.ep)) {
    std::int64_t ld = p.ldd;
    check(api().cublasLtMatmulDescSetAttribute(pl->op, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, &ld, sizeof ld), "set AUX_LD");
    if (p.batch > 1) {
      std::int64_t st = p.stride_d;
      check(api().cublasLtMatmulDescSetAttribute(pl->op, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE, &st, sizeof st),
            "set AUX_BATCH_STRIDE");
    }
  }
  const cudaDataType_t in = data_type(p.in), out = data_type(p.out);
  pl->a = p.trans_b ? layout(in, p.k, p.n, p.ldb, p.batch, p.stride_b) : layout(in, p.n, p.k, p.ldb, p.batch, p.stride_b);
  pl->b = p.trans_a ? layout(in, p.m, p.k, p.lda, p.batch, p.stride_a) : layout(in, p.k, p.m, p.lda, p.batch, p.stride_a);
  pl->c = layout(out, p.n, p.m, p.c ? p.ldc : p.ldd, p.batch, p.c ? p.stride_c : p.stride_d);
  pl->d = layout(out, p.n, p.m, p.ldd, p.batch, p.stride_d);

  pl->algo = heuristics(h, *pl, p, 1).front().algo;
  return pl;
}

}  // namespace

std::string epilogue_name(epilogue e) {
  static const char* names[] = {"none", "relu", "bias", "relu_bias", "gelu", "gelu_bias", "relu_aux", "relu_aux_bias",
                                "gelu_aux", "gelu_aux_bias"};
  return names[int(e)];
}

epilogue epilogue_from_name(const std::string& s) {
  for (int i = 0; i <= int(epilogue::gelu_aux_bias); ++i)
    if (epilogue_name(epilogue(i)) == s) return epilogue(i);
  fail(error_kind::invalid_argument, "unknown epilog '", s, "': use one of none, relu, bias, relu_bias, gelu, gelu_bias, "
       "relu_aux, relu_aux_bias, gelu_aux, gelu_aux_bias");
}

namespace {

void validate(const matmul_problem& p) {
  if (p.m < 0 || p.n < 0 || p.k < 0 || p.batch < 1) fail(error_kind::invalid_argument, "matmul: negative extents");
  if (ir::is_float8(p.in) && (!p.trans_b || p.trans_a))
    fail(error_kind::invalid_argument, "cuBLASLt float8 products need A row-major (m, k) and B given transposed, as "
         "an (n, k) array (its .T)");
  if (has_bias(p.ep) && !p.bias) fail(error_kind::invalid_argument, "epilog ", epilogue_name(p.ep), " needs a bias");
  if (has_aux(p.ep) && !p.aux) fail(error_kind::invalid_argument, "epilog ", epilogue_name(p.ep), " needs an aux output");
}

// The cached plan for p, with its bias and aux pointers set (caller holds lock()).
plan& plan_for(per_device& st, const matmul_problem& p) {
  std::string key = key_of(p);
  auto it = st.plans.find(key);
  if (it == st.plans.end()) {
    if (st.plans.size() > 256) st.plans.clear();
    it = st.plans.emplace(key, make_plan(st.handle, p)).first;
  }
  plan& pl = *it->second;
  if (has_bias(p.ep)) {
    const void* bias = reinterpret_cast<const void*>(p.bias);
    check(api().cublasLtMatmulDescSetAttribute(pl.op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias), "set BIAS_POINTER");
  }
  if (has_aux(p.ep)) {
    void* aux = reinterpret_cast<void*>(p.aux);
    check(api().cublasLtMatmulDescSetAttribute(pl.op, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, &aux, sizeof aux),
          "set AUX_POINTER");
  }
  return pl;
}

cublasStatus_t run(per_device& st, const plan& pl, const cublasLtMatmulAlgo_t& algo, const matmul_problem& p,
                   const rt::stream& s) {
  const float alpha32 = float(p.alpha), beta32 = float(p.beta);
  const void* alpha = pl.f64_scale ? static_cast<const void*>(&p.alpha) : &alpha32;
  const void* beta = pl.f64_scale ? static_cast<const void*>(&p.beta) : &beta32;
  const void* c = reinterpret_cast<const void*>(p.c ? p.c : p.d);
  return api().cublasLtMatmul(st.handle, pl.op, alpha, reinterpret_cast<const void*>(p.b), pl.a,
                              reinterpret_cast<const void*>(p.a), pl.b, beta, c, pl.c, reinterpret_cast<void*>(p.d),
                              pl.d, &algo, reinterpret_cast<void*>(st.workspace->ptr()), workspace_bytes, s.handle());
}

}  // namespace

void matmul(rt::device& dev, const rt::stream& s, const matmul_problem& p) {
  validate(p);
  if (p.m == 0 || p.n == 0) return;
  rt::prof::host_scope timing(rt::prof::kind::library, "cublasLt matmul " + epilogue_name(p.ep), &s);
  std::lock_guard<std::mutex> g(lock());
  dev.make_current();
  per_device& st = state(dev, s);
  plan& pl = plan_for(st, p);
  check(run(st, pl, pl.algo, p, s), "cublasLtMatmul");
}

std::vector<std::pair<int, double>> autotune(rt::device& dev, const rt::stream& s, const matmul_problem& p,
                                             int candidates, int repeats) {
  validate(p);
  if (p.m == 0 || p.n == 0) return {};
  if (candidates < 1 || repeats < 1) fail(error_kind::invalid_argument, "autotune needs candidates and repeats >= 1");
  std::lock_guard<std::mutex> g(lock());
  dev.make_current();
  per_device& st = state(dev, s);
  plan& pl = plan_for(st, p);
  auto algos = heuristics(st.handle, pl, p, candidates);
  // Round robin: each round runs every candidate once between the two events, so a clock or power drift
  // during tuning (an H200 under a long bf16 run slows down) spreads over all candidates instead of penalising the
  // ones timed last. Each candidate's time is its median over the rounds. Each run waits for the one before it to
  // finish, as a product called on its own does: timed back to back (the GPU never idle), the candidates ranked
  // differently from how they then ran one call at a time (H200, 8192^3 bf16 relu_bias: the pick ran 2% slower
  // than the heuristic's own choice, twice).
  std::vector<bool> works(algos.size());
  for (std::size_t i = 0; i < algos.size(); ++i) works[i] = run(st, pl, algos[i].algo, p, s) == CUBLAS_STATUS_SUCCESS;
  auto start = rt::event::create(dev), end = rt::event::create(dev);
  std::vector<std::vector<double>> ms(algos.size());
  for (int r = 0; r < repeats; ++r)
    for (std::size_t i = 0; i < algos.size(); ++i) {
      if (!works[i]) continue;
      start->record(s);
      check(run(st, pl, algos[i].algo, p, s), "cublasLtMatmul (autotune)");
      end->record(s);
      end->synchronize();
      ms[i].push_back(double(rt::event::elapsed_ms(*start, *end)));
    }
  std::vector<std::pair<int, double>> times;
  for (std::size_t i = 0; i < algos.size(); ++i) {
    if (!works[i]) {  // this algorithm refuses: skipped
      times.emplace_back(int(i), -1.0);
      continue;
    }
    std::nth_element(ms[i].begin(), ms[i].begin() + ms[i].size() / 2, ms[i].end());
    times.emplace_back(int(i), ms[i][ms[i].size() / 2]);
  }
  // The fastest, unless it beats the heuristic's own first choice by less than 3% (within the noise of a tuning
  // run, where keeping the heuristic's choice is the steadier bet).
  int best = -1;
  for (auto [rank, t] : times)
    if (t > 0 && (best < 0 || t < times[best].second)) best = rank;
  if (best > 0 && times[0].second > 0 && times[best].second > 0.97 * times[0].second) best = 0;
  if (best >= 0) pl.algo = algos[best].algo;  // later calls of this shape use it
  return times;
}

std::string cublaslt_info() {
  const api_t& a = api();
  return str(a.lib.path(), " (version ", a.cublasLtGetVersion(), ")");
}

}  // namespace tegula::libs
