// Matrix products through cuBLASLt (see cublaslt.hpp). Row-major problems are posed to cuBLASLt's
// column-major model as the transposed product: D^T = op(B)^T op(A)^T, so B's buffer is cuBLASLt's A.
#include "tegula/libs/cublaslt.hpp"

#include <cublasLt.h>  // types and prototypes only: the library is dlopen'd (DESIGN.md rule 4)

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <tuple>
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
  X(cublasLtMatmulPreferenceSetAttribute) X(cublasLtMatmulAlgoGetHeuristic) X(cublasLtMatmul)                \
  X(cublasLtMatmulAlgoGetIds) X(cublasLtMatmulAlgoInit) X(cublasLtMatmulAlgoCheck)                        \
  X(cublasLtMatmulAlgoCapGetAttribute) X(cublasLtMatmulAlgoConfigSetAttribute)                           \
  X(cublasLtMatmulAlgoConfigGetAttribute)

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
    case ir::dtype::c64: return CUDA_C_32F;
    case ir::dtype::c128: return CUDA_C_64F;
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

// A plan: descriptors for one problem shape and the algorithm the heuristic chose.
struct plan {
  cublasLtMatmulDesc_t op = nullptr;
  cublasLtMatrixLayout_t a = nullptr, b = nullptr, c = nullptr, d = nullptr;
  cublasLtMatmulAlgo_t algo{};
  bool f64_scale = false;  // alpha and beta as doubles (float64, complex128), else floats
  cublasComputeType_t compute = CUBLAS_COMPUTE_32F;  // what cublasLtMatmulAlgoGetIds/Init need
  cudaDataType_t scale = CUDA_R_32F, in = CUDA_R_16BF, out = CUDA_R_16BF;
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

// The alignment cuBLASLt may assume of a buffer: the largest power of two dividing its address, at most 256 (its
// default assumption: an algorithm chosen under it may read a less aligned view wrongly). 256 for no buffer.
std::uint32_t alignment_of(std::uintptr_t address) {
  if (address == 0) return 256;
  return std::uint32_t(std::min<std::uintptr_t>(256, address & (~address + 1)));
}

std::string key_of(const matmul_problem& p) {
  return str(int(p.in), ",", int(p.out), ",", p.tf32, ",", p.m, ",", p.n, ",", p.k, ",", p.batch, ",", p.trans_a, ",",
             p.trans_b, ",", p.lda, ",", p.ldb, ",", p.ldc, ",", p.ldd, ",", p.stride_a, ",", p.stride_b, ",",
             p.stride_c, ",", p.stride_d, ",", p.sm_count, ",", int(p.ep), ",", p.c != 0, ",", p.bias % 16 == 0, ",",
             alignment_of(p.a), ",", alignment_of(p.b), ",", alignment_of(p.c), ",", alignment_of(p.d));
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
  // cuBLASLt's A is our B (and its B our A): each buffer's alignment, so no algorithm needs more than it has.
  const std::pair<cublasLtMatmulPreferenceAttributes_t, std::uintptr_t> aligns[] = {
      {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_A_BYTES, p.b}, {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_B_BYTES, p.a},
      {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_C_BYTES, p.c ? p.c : p.d}, {CUBLASLT_MATMUL_PREF_MIN_ALIGNMENT_D_BYTES, p.d}};
  for (const auto& [attr, address] : aligns) {
    std::uint32_t bytes = alignment_of(address);
    check(api().cublasLtMatmulPreferenceSetAttribute(pref, attr, &bytes, sizeof bytes), "set MIN_ALIGNMENT");
  }
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

// One algorithm configuration: cuBLASLt's config attributes of an algo descriptor.
struct algo_config {
  std::int32_t id = 0, splitk = 1;
  std::uint32_t tile = 0, stages = 0, swizzle = 0, custom = 0, reduction = 0;
  std::uint16_t cluster = 0;
  auto key() const { return std::tuple(id, tile, stages, swizzle, custom, cluster, splitk, reduction); }
};

// One value of an algo descriptor's attribute, read by `get` (cuBLASLt's config or capability getter).
template <class T, class Attr>
T algo_attr(cublasStatus_t (*get)(const cublasLtMatmulAlgo_t*, Attr, void*, std::size_t, std::size_t*),
            const cublasLtMatmulAlgo_t& a, Attr attr, const char* what) {
  T v{};
  std::size_t written = 0;
  check(get(&a, attr, &v, sizeof v, &written), what);
  return v;
}

template <class T>
T config_attr(const cublasLtMatmulAlgo_t& a, cublasLtMatmulAlgoConfigAttributes_t attr) {
  return algo_attr<T>(api().cublasLtMatmulAlgoConfigGetAttribute, a, attr, "cublasLtMatmulAlgoConfigGetAttribute");
}

template <class T>
void set_config(cublasLtMatmulAlgo_t& a, cublasLtMatmulAlgoConfigAttributes_t attr, T v) {
  check(api().cublasLtMatmulAlgoConfigSetAttribute(&a, attr, &v, sizeof v), "cublasLtMatmulAlgoConfigSetAttribute");
}

algo_config config_of(const cublasLtMatmulAlgo_t& a) {
  algo_config c;
  c.id = config_attr<std::int32_t>(a, CUBLASLT_ALGO_CONFIG_ID);
  c.tile = config_attr<std::uint32_t>(a, CUBLASLT_ALGO_CONFIG_TILE_ID);
  c.stages = config_attr<std::uint32_t>(a, CUBLASLT_ALGO_CONFIG_STAGES_ID);
  c.swizzle = config_attr<std::uint32_t>(a, CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING);
  c.custom = config_attr<std::uint32_t>(a, CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION);
  c.cluster = config_attr<std::uint16_t>(a, CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID);
  c.splitk = config_attr<std::int32_t>(a, CUBLASLT_ALGO_CONFIG_SPLITK_NUM);
  c.reduction = config_attr<std::uint32_t>(a, CUBLASLT_ALGO_CONFIG_REDUCTION_SCHEME);
  return c;
}

// The ids are cublasLt.h's enumerators (cublasLtMatmulTile_t, cublasLtMatmulStages_t, cublasLtClusterShape_t).
std::string describe(const algo_config& c) {
  return str("algo ", c.id, " tile ", c.tile, " stages ", c.stages, " cluster ", c.cluster, " swizzle ", c.swizzle,
             " custom ", c.custom, c.splitk > 1 ? str(" splitk ", c.splitk, " reduction ", c.reduction) : std::string());
}

template <class T>
std::vector<T> cap_list(const cublasLtMatmulAlgo_t& a, cublasLtMatmulAlgoCapAttributes_t attr) {
  std::size_t bytes = 0;
  if (api().cublasLtMatmulAlgoCapGetAttribute(&a, attr, nullptr, 0, &bytes) != CUBLAS_STATUS_SUCCESS || bytes == 0) return {};
  std::vector<T> v(bytes / sizeof(T));
  check(api().cublasLtMatmulAlgoCapGetAttribute(&a, attr, v.data(), v.size() * sizeof(T), &bytes),
        "cublasLtMatmulAlgoCapGetAttribute");
  return v;
}

template <class T>
T cap_value(const cublasLtMatmulAlgo_t& a, cublasLtMatmulAlgoCapAttributes_t attr) {
  return algo_attr<T>(api().cublasLtMatmulAlgoCapGetAttribute, a, attr, "cublasLtMatmulAlgoCapGetAttribute");
}

// The configurations of the heuristic's own algorithms (by id) that cuBLASLt accepts for this problem: every tile,
// stage count, cluster shape (auto, 1x1, 2x1, 1x2, 2x2, 4x1, 1x4), CTA swizzling and custom option each id
// declares, without split K. The heuristic's proposals come first, in its order, then the stage counts they use
// before the others; at most `limit` in all.
std::vector<cublasLtMatmulAlgo_t> wide_space(cublasLtHandle_t h, const plan& pl,
                                             const std::vector<cublasLtMatmulAlgo_t>& seeds, std::size_t limit) {
  std::vector<cublasLtMatmulAlgo_t> out;
  std::set<decltype(algo_config{}.key())> seen;
  std::vector<std::int32_t> ids;
  std::vector<std::uint32_t> seed_stages;
  for (const auto& seed : seeds) {
    algo_config c = config_of(seed);
    if (seen.insert(c.key()).second) out.push_back(seed);
    if (std::find(ids.begin(), ids.end(), c.id) == ids.end()) ids.push_back(c.id);
    if (std::find(seed_stages.begin(), seed_stages.end(), c.stages) == seed_stages.end()) seed_stages.push_back(c.stages);
  }
  const std::uint16_t clusters[] = {CUBLASLT_CLUSTER_SHAPE_AUTO, CUBLASLT_CLUSTER_SHAPE_1x1x1, CUBLASLT_CLUSTER_SHAPE_2x1x1,
                                    CUBLASLT_CLUSTER_SHAPE_1x2x1, CUBLASLT_CLUSTER_SHAPE_2x2x1, CUBLASLT_CLUSTER_SHAPE_4x1x1,
                                    CUBLASLT_CLUSTER_SHAPE_1x4x1};
  for (int pass = 0; pass < 2; ++pass)  // pass 0: the seeds' stage counts; pass 1: the others
    for (std::int32_t id : ids) {
      cublasLtMatmulAlgo_t base{};
      if (api().cublasLtMatmulAlgoInit(h, pl.compute, pl.scale, pl.in, pl.in, pl.out, pl.out, id, &base) !=
          CUBLAS_STATUS_SUCCESS)
        continue;
      std::vector<std::uint32_t> tiles = cap_list<std::uint32_t>(base, CUBLASLT_ALGO_CAP_TILE_IDS);
      std::vector<std::uint32_t> stages = cap_list<std::uint32_t>(base, CUBLASLT_ALGO_CAP_STAGES_IDS);
      if (tiles.empty()) tiles.push_back(CUBLASLT_MATMUL_TILE_UNDEFINED);
      if (stages.empty()) stages.push_back(CUBLASLT_MATMUL_STAGES_UNDEFINED);
      const std::uint32_t swizzles = cap_value<std::uint32_t>(base, CUBLASLT_ALGO_CAP_CTA_SWIZZLING_SUPPORT) ? 2 : 1;
      const std::uint32_t customs =
          std::uint32_t(std::clamp(cap_value<std::int32_t>(base, CUBLASLT_ALGO_CAP_CUSTOM_OPTION_MAX), 0, 15)) + 1;
      for (std::uint32_t st : stages) {
        const bool seeded = std::find(seed_stages.begin(), seed_stages.end(), st) != seed_stages.end();
        if (seeded != (pass == 0)) continue;
        for (std::uint32_t tile : tiles)
          for (std::uint16_t cl : clusters)
            for (std::uint32_t sw = 0; sw < swizzles; ++sw)
              for (std::uint32_t cu = 0; cu < customs; ++cu) {
                if (out.size() >= limit) return out;
                cublasLtMatmulAlgo_t a = base;
                set_config(a, CUBLASLT_ALGO_CONFIG_TILE_ID, tile);
                set_config(a, CUBLASLT_ALGO_CONFIG_STAGES_ID, st);
                set_config(a, CUBLASLT_ALGO_CONFIG_CLUSTER_SHAPE_ID, cl);
                set_config(a, CUBLASLT_ALGO_CONFIG_CTA_SWIZZLING, sw);
                set_config(a, CUBLASLT_ALGO_CONFIG_CUSTOM_OPTION, cu);
                cublasLtMatmulHeuristicResult_t r{};
                if (api().cublasLtMatmulAlgoCheck(h, pl.op, pl.a, pl.b, pl.c, pl.d, &a, &r) != CUBLAS_STATUS_SUCCESS ||
                    r.workspaceSize > workspace_bytes)
                  continue;
                if (seen.insert(config_of(a).key()).second) out.push_back(a);
              }
      }
    }
  return out;
}

std::unique_ptr<plan> make_plan(cublasLtHandle_t h, const matmul_problem& p) {
  auto pl = std::make_unique<plan>();
  const bool f64 = p.in == ir::dtype::f64 || p.in == ir::dtype::c128, cplx = ir::is_complex(p.in);
  cublasComputeType_t compute = f64 ? CUBLAS_COMPUTE_64F
                                : (p.in == ir::dtype::f32 && p.tf32) ? CUBLAS_COMPUTE_32F_FAST_TF32
                                                                      : CUBLAS_COMPUTE_32F;
  pl->f64_scale = f64;
  pl->compute = compute;
  pl->scale = cplx ? (f64 ? CUDA_C_64F : CUDA_C_32F) : f64 ? CUDA_R_64F : CUDA_R_32F;
  check(api().cublasLtMatmulDescCreate(&pl->op, compute, pl->scale), "cublasLtMatmulDescCreate");
  // cuBLASLt's A is our B: op N when B's buffer holds (k, n) row-major, T when it holds B^T.
  cublasOperation_t ta = p.trans_b ? CUBLAS_OP_T : CUBLAS_OP_N, tb = p.trans_a ? CUBLAS_OP_T : CUBLAS_OP_N;
  check(api().cublasLtMatmulDescSetAttribute(pl->op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta), "set TRANSA");
  check(api().cublasLtMatmulDescSetAttribute(pl->op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb), "set TRANSB");
  if (p.sm_count > 0) {
    std::int32_t sms = p.sm_count;
    check(api().cublasLtMatmulDescSetAttribute(pl->op, CUBLASLT_MATMUL_DESC_SM_COUNT_TARGET, &sms, sizeof sms),
          "set SM_COUNT_TARGET");
  }
  cublasLtEpilogue_t ep = epilogue_value(p.ep);
  check(api().cublasLtMatmulDescSetAttribute(pl->op, CUBLASLT_MATMUL_DESC_EPILOGUE, &ep, sizeof ep), "set EPILOGUE");
  if (epilogue_has_bias(p.ep)) {
    cudaDataType_t bt = data_type(p.out);  // the bias has the output's dtype
    check(api().cublasLtMatmulDescSetAttribute(pl->op, CUBLASLT_MATMUL_DESC_BIAS_DATA_TYPE, &bt, sizeof bt),
          "set BIAS_DATA_TYPE");
  }
  if (epilogue_has_aux(p.ep)) {
    std::int64_t ld = p.ldd;
    check(api().cublasLtMatmulDescSetAttribute(pl->op, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_LD, &ld, sizeof ld), "set AUX_LD");
    if (p.batch > 1) {
      std::int64_t st = p.stride_d;
      check(api().cublasLtMatmulDescSetAttribute(pl->op, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_BATCH_STRIDE, &st, sizeof st),
            "set AUX_BATCH_STRIDE");
    }
  }
  const cudaDataType_t in = data_type(p.in), out = data_type(p.out);
  pl->in = in, pl->out = out;
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

activation epilogue_activation(epilogue e) {
  switch (e) {
    case epilogue::relu: case epilogue::relu_bias: case epilogue::relu_aux: case epilogue::relu_aux_bias:
      return activation::relu;
    case epilogue::gelu: case epilogue::gelu_bias: case epilogue::gelu_aux: case epilogue::gelu_aux_bias:
      return activation::gelu;
    default: return activation::none;
  }
}

bool epilogue_has_bias(epilogue e) {
  return e == epilogue::bias || e == epilogue::relu_bias || e == epilogue::gelu_bias || e == epilogue::relu_aux_bias ||
         e == epilogue::gelu_aux_bias;
}

bool epilogue_has_aux(epilogue e) {
  return e == epilogue::relu_aux || e == epilogue::relu_aux_bias || e == epilogue::gelu_aux || e == epilogue::gelu_aux_bias;
}

epilogue epilogue_of(activation act, bool bias, bool aux) {
  switch (act) {
    case activation::none:
      if (aux) fail(error_kind::invalid_argument, "an aux output (the pre-activation) needs a relu or gelu epilogue");
      return bias ? epilogue::bias : epilogue::none;
    case activation::relu:
      return aux ? (bias ? epilogue::relu_aux_bias : epilogue::relu_aux) : bias ? epilogue::relu_bias : epilogue::relu;
    case activation::gelu:
      return aux ? (bias ? epilogue::gelu_aux_bias : epilogue::gelu_aux) : bias ? epilogue::gelu_bias : epilogue::gelu;
  }
  return epilogue::none;
}

tune_search tune_search_from_name(const std::string& s) {
  if (s == "heuristic") return tune_search::heuristic;
  if (s == "wide") return tune_search::wide;
  fail(error_kind::invalid_argument, "autotune search must be 'heuristic' or 'wide', got '", s, "'");
}

namespace {

void validate(const matmul_problem& p) {
  if (p.m < 0 || p.n < 0 || p.k < 0 || p.batch < 1) fail(error_kind::invalid_argument, "matmul: negative extents");
  if (p.sm_count < 0) fail(error_kind::invalid_argument, "matmul: sm_count must be >= 0 (0: every multiprocessor)");
  if (ir::is_complex(p.in) && (p.ep != epilogue::none || p.out != p.in || p.tf32))
    fail(error_kind::invalid_argument, "cuBLASLt complex products take no epilogue, tf32 or other output dtype");
  if (ir::is_float8(p.in) && (!p.trans_b || p.trans_a))
    fail(error_kind::invalid_argument, "cuBLASLt float8 products need A row-major (m, k) and B given transposed, as "
         "an (n, k) array (its .T)");
  if (epilogue_has_bias(p.ep) && !p.bias) fail(error_kind::invalid_argument, "epilog ", epilogue_name(p.ep), " needs a bias");
  if (epilogue_has_aux(p.ep) && !p.aux) fail(error_kind::invalid_argument, "epilog ", epilogue_name(p.ep), " needs an aux output");
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
  if (epilogue_has_bias(p.ep)) {
    const void* bias = reinterpret_cast<const void*>(p.bias);
    check(api().cublasLtMatmulDescSetAttribute(pl.op, CUBLASLT_MATMUL_DESC_BIAS_POINTER, &bias, sizeof bias), "set BIAS_POINTER");
  }
  if (epilogue_has_aux(p.ep)) {
    void* aux = reinterpret_cast<void*>(p.aux);
    check(api().cublasLtMatmulDescSetAttribute(pl.op, CUBLASLT_MATMUL_DESC_EPILOGUE_AUX_POINTER, &aux, sizeof aux),
          "set AUX_POINTER");
  }
  return pl;
}

cublasStatus_t run(per_device& st, const plan& pl, const cublasLtMatmulAlgo_t& algo, const matmul_problem& p,
                   const rt::stream& s) {
  // Real scales, or complex ones with a zero imaginary part: (real, imaginary) pairs of the scale type.
  const float alpha32[2] = {float(p.alpha), 0.0f}, beta32[2] = {float(p.beta), 0.0f};
  const double alpha64[2] = {p.alpha, 0.0}, beta64[2] = {p.beta, 0.0};
  const void* alpha = pl.f64_scale ? static_cast<const void*>(alpha64) : alpha32;
  const void* beta = pl.f64_scale ? static_cast<const void*>(beta64) : beta32;
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

std::vector<tuned_algo> autotune(rt::device& dev, const rt::stream& s, const matmul_problem& p, int candidates,
                                 int repeats, tune_search search, int max_configs) {
  validate(p);
  if (p.m == 0 || p.n == 0) return {};
  if (candidates < 1 || repeats < 1) fail(error_kind::invalid_argument, "autotune needs candidates and repeats >= 1");
  if (search == tune_search::wide && max_configs < 1) fail(error_kind::invalid_argument, "autotune needs max_configs >= 1");
  std::lock_guard<std::mutex> g(lock());
  dev.make_current();
  per_device& st = state(dev, s);
  plan& pl = plan_for(st, p);
  std::vector<cublasLtMatmulAlgo_t> space;
  for (const auto& r : heuristics(st.handle, pl, p, search == tune_search::wide ? std::max(candidates, 32) : candidates))
    space.push_back(r.algo);
  if (search == tune_search::wide) space = wide_space(st.handle, pl, space, std::size_t(max_configs));
  auto start = rt::event::create(dev), end = rt::event::create(dev);
  // One run between the two events, on its own: it waits for the run before it to finish, as a product called on
  // its own does. Timed back to back (the GPU never idle), candidates ranked differently from how they then ran one
  // call at a time (H200, 8192^3 bf16 relu_bias: the pick ran 2% slower than the heuristic's own choice, twice).
  // A negative time: the algorithm refused the problem.
  auto time_one = [&](const cublasLtMatmulAlgo_t& a) {
    start->record(s);
    if (run(st, pl, a, p, s) != CUBLAS_STATUS_SUCCESS) return -1.0;
    end->record(s);
    end->synchronize();
    return double(rt::event::elapsed_ms(*start, *end));
  };
  std::vector<tuned_algo> out(space.size());
  std::vector<std::size_t> finalists;
  for (std::size_t i = 0; i < space.size(); ++i) out[i] = {int(i), -1.0, -1.0, describe(config_of(space[i])), false, false};
  if (search == tune_search::wide) {
    // The screen: each configuration the faster of two runs after a first run (which loads its kernel), as a
    // ratio to the heuristic's first timed just before it (every 8 configurations): an H200 under seconds of bf16
    // products slows by 10% or more as it reaches its power limit, which would otherwise favour whatever is
    // screened first. One far slower than the heuristic's first (3x on its first run) is not run again. The
    // fastest `candidates` by ratio (always with the heuristic's first) go on to the round robin.
    double ref = -1;
    auto best_of_two = [&](const cublasLtMatmulAlgo_t& a) {
      double x = time_one(a), y = time_one(a);
      return x < 0 || y < 0 ? -1.0 : std::min(x, y);
    };
    for (std::size_t i = 0; i < space.size(); ++i) {
      if (i % 8 == 0) {
        time_one(space[0]);
        ref = best_of_two(space[0]);
      }
      double first = time_one(space[i]);
      if (first < 0 || ref <= 0 || first > 3 * ref) continue;
      out[i].ms = best_of_two(space[i]);
      if (out[i].ms > 0) out[i].ratio = out[i].ms / ref;
    }
    std::vector<std::size_t> order;
    for (std::size_t i = 1; i < space.size(); ++i)
      if (out[i].ratio > 0) order.push_back(i);
    std::sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return out[x].ratio < out[y].ratio; });
    finalists.push_back(0);
    for (std::size_t i = 0; i < order.size() && int(finalists.size()) < candidates; ++i) finalists.push_back(order[i]);
  } else {
    for (std::size_t i = 0; i < space.size(); ++i)
      if (run(st, pl, space[i], p, s) == CUBLAS_STATUS_SUCCESS) finalists.push_back(i);  // the rest refuse
  }
  // Round robin: each round runs every finalist once, so a clock or power drift during tuning (an H200 under a
  // long bf16 run slows down) spreads over all of them instead of penalising the ones timed last. Each one's time
  // is its median over the rounds.
  std::vector<std::vector<double>> ms(space.size());
  for (int r = 0; r < repeats; ++r)
    for (std::size_t i : finalists) {
      double t = time_one(space[i]);
      if (t < 0) check(CUBLAS_STATUS_EXECUTION_FAILED, "cublasLtMatmul (autotune)");
      ms[i].push_back(t);
    }
  for (std::size_t i : finalists) {
    std::nth_element(ms[i].begin(), ms[i].begin() + ms[i].size() / 2, ms[i].end());
    out[i].ms = ms[i][ms[i].size() / 2];
    out[i].round_robin = true;
  }
  const bool first_runs = !finalists.empty() && finalists[0] == 0;  // the heuristic's own choice was timed
  if (first_runs)
    for (std::size_t i : finalists) out[i].ratio = out[i].ms / out[0].ms;
  // The fastest, unless it beats the heuristic's own first choice by less than 3% (within the noise of a tuning
  // run, where keeping the heuristic's choice is the steadier bet).
  std::size_t best = space.size();
  for (std::size_t i : finalists)
    if (best == space.size() || out[i].ms < out[best].ms) best = i;
  if (best != 0 && best != space.size() && first_runs && out[best].ms > 0.97 * out[0].ms) best = 0;
  if (best != space.size()) {
    pl.algo = space[best];  // later calls of this shape use it
    out[best].kept = true;
  }
  return out;
}

std::string cublaslt_info() {
  const api_t& a = api();
  return str(a.lib.path(), " (version ", a.cublasLtGetVersion(), ")");
}

}  // namespace tegula::libs
