// Sync-free blocked substitutions after getrf (see lu_substitution.hpp).
#include "tegula/libs/lu_substitution.hpp"

#include <map>
#include <memory>
#include <mutex>
#include <numeric>
#include <utility>

#include "tegula/libs/cub_jit.hpp"
#include "tegula/runtime/buffer.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/runtime/object_code.hpp"
#include "tegula/runtime/stream.hpp"

namespace tegula::libs {
namespace {

constexpr int warps = 4;

// The kernels, for `using T = float;` or double. sync[0] hands out tickets; sync[1 + r] says block row r is solved.
const char* kernel_body = R"(
#define NB 32
#define WARPS 4
__device__ __forceinline__ unsigned tg_ld_acquire(const unsigned* p) {
  unsigned v;
  asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void tg_st_release(unsigned* p, unsigned v) {
  asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
}

// UPPER: x = U^-1 b with U upper (its diagonal included). Otherwise x = L^-1 (P b), L unit lower (below a's
// diagonal), P given by perm. Block rows are solved bottom-up for U, top-down for L.
template <bool UPPER>
__device__ void tg_substitute(const T* a, long long lda, long long n, const T* b, const int* perm, T* x,
                              unsigned* sync) {
  __shared__ long long s_row;
  __shared__ T d[NB][NB + 1];    // the diagonal block, identity-padded past n
  __shared__ T inv[NB][NB + 1];  // its inverse
  __shared__ T part[WARPS][NB];  // each warp's share of the off-diagonal products
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const long long nb = (n + NB - 1) / NB;
  if (threadIdx.x == 0) s_row = atomicAdd(&sync[0], 1u);
  __syncthreads();
  const long long r = UPPER ? nb - 1 - s_row : s_row;
  const long long r0 = r * NB, i = r0 + lane;
  const bool row_ok = i < n;
  for (int e = threadIdx.x; e < NB * NB; e += NB * WARPS) {
    const int ii = e % NB, kk = e / NB;
    d[ii][kk] = (r0 + ii < n && r0 + kk < n) ? a[(r0 + ii) + (r0 + kk) * lda] : T(ii == kk ? 1 : 0);
  }
  __syncthreads();
  if (warp == 0) {  // lane j: column j of the diagonal block's inverse
    const int j = lane;
    if (UPPER) {
      for (int ii = NB - 1; ii > j; --ii) inv[ii][j] = T(0);
      inv[j][j] = T(1) / d[j][j];
      for (int ii = j - 1; ii >= 0; --ii) {
        T s = T(0);
        for (int k = ii + 1; k <= j; ++k) s += d[ii][k] * inv[k][j];
        inv[ii][j] = -s / d[ii][ii];
      }
    } else {
      for (int ii = 0; ii < j; ++ii) inv[ii][j] = T(0);
      inv[j][j] = T(1);
      for (int ii = j + 1; ii < NB; ++ii) {
        T s = T(0);
        for (int k = j; k < ii; ++k) s += d[ii][k] * inv[k][j];
        inv[ii][j] = -s;
      }
    }
  }
  // The blocks this row depends on, in the order they are solved; warp w takes every WARPS-th.
  const long long deps = UPPER ? nb - 1 - r : r;
  T acc = T(0);
  for (long long k = warp; k < deps; k += WARPS) {
    const long long c0 = (UPPER ? nb - 1 - k : k) * NB;
    T l[NB];
#pragma unroll
    for (int kk = 0; kk < NB; ++kk) l[kk] = (row_ok && c0 + kk < n) ? a[i + (c0 + kk) * lda] : T(0);
    while (tg_ld_acquire(&sync[1 + c0 / NB]) == 0u) {
    }
    const T xv = c0 + lane < n ? __ldcg(&x[c0 + lane]) : T(0);
#pragma unroll
    for (int kk = 0; kk < NB; ++kk) acc += l[kk] * __shfl_sync(0xffffffffu, xv, kk);
  }
  part[warp][lane] = acc;
  __syncthreads();
  if (warp == 0) {
    T v = row_ok ? b[perm ? perm[i] : i] : T(0);
#pragma unroll
    for (int w = 0; w < WARPS; ++w) v -= part[w][lane];
    T out = T(0);
#pragma unroll
    for (int kk = 0; kk < NB; ++kk) out += inv[lane][kk] * __shfl_sync(0xffffffffu, v, kk);
    if (row_ok) __stcg(&x[i], out);
    __threadfence();
    __syncwarp();
    if (lane == 0) tg_st_release(&sync[1 + r], 1u);
  }
}

extern "C" __global__ void __launch_bounds__(NB * WARPS) tg_lu_lower(const T* a, long long lda, long long n,
                                                                    const T* b, const int* perm, T* y, unsigned* sync) {
  tg_substitute<false>(a, lda, n, b, perm, y, sync);
}
extern "C" __global__ void __launch_bounds__(NB * WARPS) tg_lu_upper(const T* a, long long lda, long long n,
                                                                    const T* y, T* x, unsigned* sync) {
  tg_substitute<true>(a, lda, n, y, nullptr, x, sync);
}
)";

const char* c_type(ir::dtype t) {
  if (t == ir::dtype::f32) return "float";
  if (t == ir::dtype::f64) return "double";
  fail(error_kind::type_error, "the LU substitution kernels take float32 or float64, not ", ir::name(t));
}

struct substitution_kernels {
  std::shared_ptr<rt::object_code> code;
  std::shared_ptr<rt::kernel> lower, upper;
};

const substitution_kernels& kernels_for(rt::device& dev, ir::dtype t) {
  static std::mutex m;
  static auto* cache = new std::map<std::pair<int, ir::dtype>, std::unique_ptr<substitution_kernels>>();
  std::lock_guard<std::mutex> g(m);
  auto& slot = (*cache)[{dev.arch(), t}];
  if (!slot) {
    auto k = std::make_unique<substitution_kernels>();
    k->code = compile_nvrtc(lu_substitution_source(t), {}, dev.arch(), "lu substitution", false);
    k->lower = k->code->get_kernel("tg_lu_lower");
    k->upper = k->code->get_kernel("tg_lu_upper");
    slot = std::move(k);
  }
  return *slot;
}

}  // namespace

std::vector<std::int32_t> permutation_from_pivots(const std::int64_t* ipiv, std::int64_t n) {
  if (n < 0 || n > 0x7fffffff) fail(error_kind::invalid_argument, "a permutation of ", n, " rows");
  std::vector<std::int32_t> perm(static_cast<std::size_t>(n));
  std::iota(perm.begin(), perm.end(), 0);
  for (std::int64_t i = 0; i < n; ++i) {
    const std::int64_t p = ipiv[i] - 1;
    if (p < i || p >= n)
      fail(error_kind::internal, "getrf's pivot ", ipiv[i], " of row ", i + 1, " is outside [", i + 1, ", ", n, "]");
    std::swap(perm[static_cast<std::size_t>(i)], perm[static_cast<std::size_t>(p)]);
  }
  return perm;
}

std::string lu_substitution_source(ir::dtype t) {
  return std::string("using T = ") + c_type(t) + ";\n" + kernel_body;
}

void lu_substitute(rt::device& dev, const rt::stream& s, ir::dtype t, std::int64_t n, std::uintptr_t a,
                   std::int64_t lda, const std::vector<std::int32_t>& perm, std::uintptr_t b) {
  if (n <= 0) return;
  if (static_cast<std::int64_t>(perm.size()) != n)
    fail(error_kind::internal, "lu_substitute: ", perm.size(), " permutation entries for ", n, " rows");
  if (lda < n) fail(error_kind::invalid_argument, "lu_substitute: lda ", lda, " < n ", n);
  const substitution_kernels& k = kernels_for(dev, t);
  dev.make_current();
  const std::int64_t blocks = (n + substitution_rows - 1) / substitution_rows;
  const std::size_t elem = ir::size_bytes(t);
  auto hold = dev.default_stream();
  auto perm_d = rt::buffer::allocate(perm.size() * sizeof(std::int32_t), hold);
  auto y = rt::buffer::allocate(static_cast<std::size_t>(n) * elem, hold);
  auto sync = rt::buffer::allocate(2 * static_cast<std::size_t>(blocks + 1) * sizeof(std::uint32_t), hold);
  perm_d->copy_from_host(perm.data(), perm.size() * sizeof(std::int32_t), 0, s);
  sync->fill(0, s);
  const auto sync_lower = std::uintptr_t(sync->ptr()), sync_upper = sync_lower + (blocks + 1) * sizeof(std::uint32_t);
  const rt::launch_config c = cub_launch_config(unsigned(blocks), unsigned(substitution_rows * warps));
  cub_params lo(*k.lower);
  lo << a << static_cast<long long>(lda) << static_cast<long long>(n) << b << std::uintptr_t(perm_d->ptr())
     << std::uintptr_t(y->ptr()) << sync_lower;
  rt::launch(s, c, *k.lower, lo.buffer());
  cub_params up(*k.upper);
  up << a << static_cast<long long>(lda) << static_cast<long long>(n) << std::uintptr_t(y->ptr()) << b << sync_upper;
  rt::launch(s, c, *k.upper, up.buffer());
  for (auto* buf : {perm_d.get(), y.get(), sync.get()}) buf->close(&s);  // freed in order after the kernels
}

}  // namespace tegula::libs
