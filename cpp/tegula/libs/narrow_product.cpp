// A product whose left operand has few rows (see narrow_product.hpp).
#include "tegula/libs/narrow_product.hpp"

#include <algorithm>
#include <memory>

#include "tegula/libs/cub_jit.hpp"
#include "tegula/runtime/buffer.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/runtime/object_code.hpp"
#include "tegula/runtime/stream.hpp"

namespace tegula::libs {
namespace {

constexpr int threads = 256;
constexpr int staged_rows = 64;  // rows of B per step (A's chunk of them in shared memory)
constexpr int row_classes[] = {1, 2, 4, 8, 16};

// Columns per thread: 4 while the accumulators stay few (M * CPT of them per thread).
constexpr int columns_per_thread(int rows) { return rows <= 4 ? 4 : rows <= 8 ? 2 : 1; }

const char* kernel_body = R"(
#define THREADS 256
#define KS 64
// Block (x, y): columns [x * THREADS * CPT, ...) of rows [y * kc, (y + 1) * kc) of B; thread t owns the columns
// t, t + THREADS, ... (each row's loads coalesced across the block). The partial product goes to slab y of d.
template <int M, int CPT>
__device__ __forceinline__ void tg_narrow(const T* __restrict__ a, long long lda, long long acs,
                                          const T* __restrict__ b, long long ldb, T* __restrict__ d, long long ldd,
                                          long long slab, long long m, long long n, long long k, long long kc) {
  __shared__ T xs[M][KS];
  const long long c0 = (long long)blockIdx.x * (THREADS * CPT) + threadIdx.x;
  const long long k0 = (long long)blockIdx.y * kc;
  const long long k1 = k0 + kc < k ? k0 + kc : k;
  T acc[M][CPT];
#pragma unroll
  for (int i = 0; i < M; ++i)
#pragma unroll
    for (int j = 0; j < CPT; ++j) acc[i][j] = T(0);
  for (long long ks = k0; ks < k1; ks += KS) {
    __syncthreads();
    for (int e = threadIdx.x; e < M * KS; e += THREADS) {
      const int i = e / KS, kk = e % KS;
      xs[i][kk] = (i < m && ks + kk < k1) ? a[i * lda + (ks + kk) * acs] : T(0);
    }
    __syncthreads();
    const int kn = (int)(k1 - ks < KS ? k1 - ks : KS);
    const T* row = b + ks * ldb;
#pragma unroll 4
    for (int kk = 0; kk < kn; ++kk, row += ldb) {
      T w[CPT];
#pragma unroll
      for (int j = 0; j < CPT; ++j) {
        const long long c = c0 + j * THREADS;
        w[j] = c < n ? __ldg(row + c) : T(0);
      }
#pragma unroll
      for (int i = 0; i < M; ++i) {
        const T x = xs[i][kk];
#pragma unroll
        for (int j = 0; j < CPT; ++j) acc[i][j] += x * w[j];
      }
    }
  }
  T* out = d + (long long)blockIdx.y * slab;
#pragma unroll
  for (int i = 0; i < M; ++i)
#pragma unroll
    for (int j = 0; j < CPT; ++j) {
      const long long c = c0 + j * THREADS;
      if (i < m && c < n) out[i * ldd + c] = acc[i][j];
    }
}

#define TG_NARROW(M, CPT)                                                                                        \
  extern "C" __global__ void __launch_bounds__(THREADS) tg_narrow_##M(const T* a, long long lda, long long acs,  \
      const T* b, long long ldb, T* d, long long ldd, long long slab, long long m, long long n, long long k,      \
      long long kc) {                                                                                            \
    tg_narrow<M, CPT>(a, lda, acs, b, ldb, d, ldd, slab, m, n, k, kc);                                           \
  }
TG_NARROW(1, 4)
TG_NARROW(2, 4)
TG_NARROW(4, 4)
TG_NARROW(8, 2)
TG_NARROW(16, 1)

// d[i, j] = the sum over s of p[s, i, j] (p: splits slabs of m x n, packed), in order of s.
extern "C" __global__ void __launch_bounds__(THREADS) tg_narrow_sum(const T* __restrict__ p, long long splits,
                                                                   long long m, long long n, T* __restrict__ d,
                                                                   long long ldd) {
  const long long e = (long long)blockIdx.x * THREADS + threadIdx.x;
  if (e >= m * n) return;
  T s = T(0);
  for (long long q = 0; q < splits; ++q) s += p[q * m * n + e];
  d[(e / n) * ldd + e % n] = s;
}
)";

const char* c_type(ir::dtype t) {
  if (t == ir::dtype::f32) return "float";
  if (t == ir::dtype::f64) return "double";
  fail(error_kind::type_error, "the narrow product takes float32 or float64, not ", ir::name(t));
}

struct narrow_kernels {
  std::shared_ptr<rt::object_code> code;
  std::shared_ptr<rt::kernel> product[5], sum;
};

const narrow_kernels& kernels_for(rt::device& dev, ir::dtype t) {
  return kernels_once<narrow_kernels>(std::make_pair(dev.arch(), t), [&] {
    narrow_kernels k;
    k.code = compile_nvrtc(narrow_product_source(t), {}, dev.arch(), "narrow product", false);
    for (int i = 0; i < 5; ++i) k.product[i] = k.code->get_kernel("tg_narrow_" + std::to_string(row_classes[i]));
    k.sum = k.code->get_kernel("tg_narrow_sum");
    return k;
  });
}

}  // namespace

std::string narrow_product_source(ir::dtype t) { return std::string("using T = ") + c_type(t) + ";\n" + kernel_body; }

void narrow_product(rt::device& dev, const rt::stream& s, ir::dtype t, std::int64_t m, std::int64_t n,
                    std::int64_t k, std::uintptr_t a, std::int64_t lda, std::int64_t a_col_stride, std::uintptr_t b,
                    std::int64_t ldb, std::uintptr_t d, std::int64_t ldd) {
  c_type(t);
  if (m < 1 || m > narrow_max_rows || n < 1 || k < 1)
    fail(error_kind::invalid_argument, "narrow_product: m must be 1..", narrow_max_rows, " and n, k positive; got m ",
         m, ", n ", n, ", k ", k);
  if (ldb < n || ldd < n)
    fail(error_kind::invalid_argument, "narrow_product: ldb ", ldb, " and ldd ", ldd, " must be at least n ", n);
  if (!a || !b || !d) fail(error_kind::invalid_argument, "narrow_product: a null operand");
  int cls = 0;
  while (row_classes[cls] < m) ++cls;
  const narrow_kernels& kern = kernels_for(dev, t);
  dev.make_current();
  const std::int64_t per_block = threads * columns_per_thread(row_classes[cls]);
  const std::int64_t xblocks = (n + per_block - 1) / per_block;
  if (xblocks > 0x7fffffff) fail(error_kind::invalid_argument, "narrow_product: n ", n, " is too large");
  // Split k so that there are about four blocks per SM, each at least 128 rows of B.
  const std::int64_t want = std::max<std::int64_t>(1, (4 * std::max(dev.sm_count(), 1) + xblocks - 1) / xblocks);
  std::int64_t splits = std::clamp<std::int64_t>(want, 1, std::max<std::int64_t>(1, k / 128));
  std::int64_t kc = (k + splits - 1) / splits;
  kc = (kc + staged_rows - 1) / staged_rows * staged_rows;
  splits = (k + kc - 1) / kc;
  const std::size_t elem = ir::size_bytes(t);
  std::shared_ptr<rt::buffer> part;
  std::uintptr_t out = d;
  std::int64_t out_ld = ldd, slab = 0;
  if (splits > 1) {
    part = rt::buffer::allocate(static_cast<std::size_t>(splits * m * n) * elem, dev.default_stream());
    out = std::uintptr_t(part->ptr()), out_ld = n, slab = m * n;
  }
  const auto ll = [](std::int64_t v) { return static_cast<long long>(v); };
  rt::kernel& pk = *kern.product[cls];
  cub_params pp(pk);
  pp << a << ll(lda) << ll(a_col_stride) << b << ll(ldb) << out << ll(out_ld) << ll(slab) << ll(m) << ll(n) << ll(k)
     << ll(kc);
  rt::launch_config c = cub_launch_config(unsigned(xblocks), unsigned(threads));
  c.grid[1] = unsigned(splits);
  rt::launch(s, c, pk, pp.buffer());
  if (part) {
    cub_params sp(*kern.sum);
    sp << out << ll(splits) << ll(m) << ll(n) << d << ll(ldd);
    const std::int64_t blocks = (m * n + threads - 1) / threads;
    rt::launch(s, cub_launch_config(unsigned(blocks), unsigned(threads)), *kern.sum, sp.buffer());
    part->close(&s);  // freed in order after the kernels
  }
}

}  // namespace tegula::libs
