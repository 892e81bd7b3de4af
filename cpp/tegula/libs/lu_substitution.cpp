// Sync-free blocked substitutions after getrf (see lu_substitution.hpp).
#include "tegula/libs/lu_substitution.hpp"

#include <memory>
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

// x = M^-1 b' for the triangular M: lower or UPPER; M is getrf's factor stored in a (TRANS: its transpose, so
// M(i, k) = a[k + i lda]); unit diagonal for L and L^T (UPPER == TRANS). b'[i] = b[in_perm[i]] (b without in_perm);
// with out_perm, x is also scattered: out[out_perm[i]] = x[i]. Block rows are solved top-down (lower) or bottom-up.
template <bool UPPER, bool TRANS>
__device__ void tg_substitute(const T* a, long long lda, long long n, const T* b, const int* in_perm, T* x,
                              const int* out_perm, T* out_x, unsigned* sync) {
  constexpr bool UNIT = UPPER == TRANS;
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
    const long long gi = r0 + ii, gk = r0 + kk;
    d[ii][kk] = (gi < n && gk < n) ? a[TRANS ? gk + gi * lda : gi + gk * lda] : T(ii == kk ? 1 : 0);
  }
  __syncthreads();
  if (warp == 0) {  // lane j: column j of the diagonal block's inverse
    const int j = lane;
    if (UPPER) {
      for (int ii = NB - 1; ii > j; --ii) inv[ii][j] = T(0);
      inv[j][j] = UNIT ? T(1) : T(1) / d[j][j];
      for (int ii = j - 1; ii >= 0; --ii) {
        T s = T(0);
        for (int k = ii + 1; k <= j; ++k) s += d[ii][k] * inv[k][j];
        inv[ii][j] = UNIT ? -s : -s / d[ii][ii];
      }
    } else {
      for (int ii = 0; ii < j; ++ii) inv[ii][j] = T(0);
      inv[j][j] = UNIT ? T(1) : T(1) / d[j][j];
      for (int ii = j + 1; ii < NB; ++ii) {
        T s = T(0);
        for (int k = j; k < ii; ++k) s += d[ii][k] * inv[k][j];
        inv[ii][j] = UNIT ? -s : -s / d[ii][ii];
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
    for (int kk = 0; kk < NB; ++kk)
      l[kk] = (row_ok && c0 + kk < n) ? a[TRANS ? (c0 + kk) + i * lda : i + (c0 + kk) * lda] : T(0);
    while (tg_ld_acquire(&sync[1 + c0 / NB]) == 0u) {
    }
    const T xv = c0 + lane < n ? __ldcg(&x[c0 + lane]) : T(0);
#pragma unroll
    for (int kk = 0; kk < NB; ++kk) acc += l[kk] * __shfl_sync(0xffffffffu, xv, kk);
  }
  part[warp][lane] = acc;
  __syncthreads();
  if (warp == 0) {
    T v = row_ok ? b[in_perm ? in_perm[i] : i] : T(0);
#pragma unroll
    for (int w = 0; w < WARPS; ++w) v -= part[w][lane];
    T out = T(0);
#pragma unroll
    for (int kk = 0; kk < NB; ++kk) out += inv[lane][kk] * __shfl_sync(0xffffffffu, v, kk);
    if (row_ok) {
      __stcg(&x[i], out);
      if (out_perm) out_x[out_perm[i]] = out;
    }
    __threadfence();
    __syncwarp();
    if (lane == 0) tg_st_release(&sync[1 + r], 1u);
  }
}

// A = P L U (a: getrf's factors of A): y = L^-1 P^T b, then x = U^-1 y.
extern "C" __global__ void __launch_bounds__(NB * WARPS) tg_lu_lower(const T* a, long long lda, long long n,
                                                                    const T* b, const int* perm, T* y, unsigned* sync) {
  tg_substitute<false, false>(a, lda, n, b, perm, y, nullptr, nullptr, sync);
}
extern "C" __global__ void __launch_bounds__(NB * WARPS) tg_lu_upper(const T* a, long long lda, long long n,
                                                                    const T* y, T* x, unsigned* sync) {
  tg_substitute<true, false>(a, lda, n, y, nullptr, x, nullptr, nullptr, sync);
}
// A^T = P L U (a: getrf's factors of A^T), so A = U^T L^T P^T: z = U^-T b, then w = L^-T z (in place) and x = P w.
extern "C" __global__ void __launch_bounds__(NB * WARPS) tg_lu_lower_t(const T* a, long long lda, long long n,
                                                                      const T* b, T* z, unsigned* sync) {
  tg_substitute<false, true>(a, lda, n, b, nullptr, z, nullptr, nullptr, sync);
}
extern "C" __global__ void __launch_bounds__(NB * WARPS) tg_lu_upper_t(const T* a, long long lda, long long n,
                                                                      T* z, const int* perm, T* x, unsigned* sync) {
  tg_substitute<true, true>(a, lda, n, z, nullptr, z, perm, x, sync);
}
)";

const char* c_type(ir::dtype t) {
  if (t == ir::dtype::f32) return "float";
  if (t == ir::dtype::f64) return "double";
  fail(error_kind::type_error, "the LU substitution kernels take float32 or float64, not ", ir::name(t));
}

struct substitution_kernels {
  std::shared_ptr<rt::object_code> code;
  std::shared_ptr<rt::kernel> lower, upper, lower_t, upper_t;
};

const substitution_kernels& kernels_for(rt::device& dev, ir::dtype t) {
  return kernels_once<substitution_kernels>(std::make_pair(dev.arch(), t), [&] {
    substitution_kernels k;
    k.code = compile_nvrtc(lu_substitution_source(t), {}, dev.arch(), "lu substitution", false);
    k.lower = k.code->get_kernel("tg_lu_lower");
    k.upper = k.code->get_kernel("tg_lu_upper");
    k.lower_t = k.code->get_kernel("tg_lu_lower_t");
    k.upper_t = k.code->get_kernel("tg_lu_upper_t");
    return k;
  });
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

void lu_substitute(rt::device& dev, const rt::stream& s, ir::dtype t, bool transposed, std::int64_t n,
                   std::uintptr_t a, std::int64_t lda, const std::vector<std::int32_t>& perm, std::uintptr_t b) {
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
  const auto ll = static_cast<long long>(lda), nn = static_cast<long long>(n);
  const auto yp = std::uintptr_t(y->ptr()), pp = std::uintptr_t(perm_d->ptr());
  if (!transposed) {  // y = L^-1 P^T b, b = U^-1 y
    cub_params lo(*k.lower);
    lo << a << ll << nn << b << pp << yp << sync_lower;
    rt::launch(s, c, *k.lower, lo.buffer());
    cub_params up(*k.upper);
    up << a << ll << nn << yp << b << sync_upper;
    rt::launch(s, c, *k.upper, up.buffer());
  } else {  // y = U^-T b, y = L^-T y, b = P y
    cub_params lo(*k.lower_t);
    lo << a << ll << nn << b << yp << sync_lower;
    rt::launch(s, c, *k.lower_t, lo.buffer());
    cub_params up(*k.upper_t);
    up << a << ll << nn << yp << pp << b << sync_upper;
    rt::launch(s, c, *k.upper_t, up.buffer());
  }
  for (auto* buf : {perm_d.get(), y.get(), sync.get()}) buf->close(&s);  // freed in order after the kernels
}

}  // namespace tegula::libs
