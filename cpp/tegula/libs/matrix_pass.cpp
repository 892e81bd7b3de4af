// One pass over a matrix for several matrix-vector products (see matrix_pass.hpp).
#include "tegula/libs/matrix_pass.hpp"

#include <algorithm>
#include <memory>
#include <utility>

#include "tegula/libs/cub_jit.hpp"
#include "tegula/runtime/buffer.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/runtime/driver.hpp"
#include "tegula/runtime/object_code.hpp"
#include "tegula/runtime/stream.hpp"
#include "tegula/support/error.hpp"

namespace tegula::libs {
namespace {

// After `using T = float|double; #define VEC 4|2` (one 16-byte vector of T).
const char* kernel_body = R"(
#define THREADS 256
#define CH 8
#define CHUNKS 4
typedef long long ll;
struct __align__(16) tg_vec { T v[VEC]; };

// s[0..P) summed over the warp's lanes, scattered: lane l ends with, in s[0], the sum of value l >> (5 - log2 P)
// (the lanes whose low 5 - log2 P bits are 0 hold them).
template <int H>
__device__ __forceinline__ void tg_fold_half(T* s, int lane, int m) {
  const bool hi = (lane & m) != 0;
#pragma unroll
  for (int i = 0; i < H; ++i) {
    const T send = hi ? s[i] : s[i + H];
    const T keep = hi ? s[i + H] : s[i];
    s[i] = keep + __shfl_xor_sync(0xffffffffu, send, m);
  }
}
template <int P>
__device__ __forceinline__ void tg_reduce_scatter(T (&s)[P], int lane) {
  static_assert(P == 8 || P == 16, "8 or 16 values");
  if constexpr (P == 16) tg_fold_half<8>(s, lane, 16);
  tg_fold_half<4>(s, lane, P == 16 ? 8 : 16);
  tg_fold_half<2>(s, lane, P == 16 ? 4 : 8);
  tg_fold_half<1>(s, lane, P == 16 ? 2 : 4);
  if constexpr (P == 8) s[0] += __shfl_xor_sync(0xffffffffu, s[0], 2);
  s[0] += __shfl_xor_sync(0xffffffffu, s[0], 1);
}

// y partials: yp[(tile * NY + k) * rows + row] (this block's columns); z partials: zp[(split * nz + j) * zld + c],
// zld: cols rounded up to a whole vector (so each partial row starts 16-byte aligned).
template <int NY, int NZ>
__device__ __forceinline__ void tg_pass(const T* __restrict__ M, ll rows, ll cols, ll ld, const T* __restrict__ U,
                                        const T* __restrict__ V, int nz, T* __restrict__ yp, T* __restrict__ zp,
                                        ll rows_per_split) {
  constexpr int P = NY * CH;
  __shared__ T ys[2][THREADS / 32][(NY > 0 ? NY : 1) * CH * CHUNKS];
  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const ll tile = blockIdx.x, split = blockIdx.y;
  const ll c0 = tile * (THREADS * VEC) + (ll)threadIdx.x * VEC;
  const ll zld = (cols + VEC - 1) / VEC * VEC;
  const ll r_begin = split * rows_per_split;
  const ll r_end = min(rows, r_begin + rows_per_split);
  const bool full = c0 + VEC <= cols, any = c0 < cols;
  T u[NY > 0 ? NY : 1][VEC];
#pragma unroll
  for (int k = 0; k < NY; ++k)
#pragma unroll
    for (int e = 0; e < VEC; ++e) u[k][e] = c0 + e < cols ? U[k * cols + c0 + e] : T(0);
  T z[NZ > 0 ? NZ : 1][VEC];
#pragma unroll
  for (int j = 0; j < (NZ > 0 ? NZ : 1); ++j)
#pragma unroll
    for (int e = 0; e < VEC; ++e) z[j][e] = T(0);
  int chunk = 0, buf = 0;
  for (ll r = r_begin; r < r_end; r += CH) {
    T a[CH][VEC];
#pragma unroll
    for (int rr = 0; rr < CH; ++rr) {
      const ll row = r + rr;
      const T* p = M + row * ld + c0;
      if (row < r_end && full) {
        const tg_vec w = *reinterpret_cast<const tg_vec*>(p);
#pragma unroll
        for (int e = 0; e < VEC; ++e) a[rr][e] = w.v[e];
      } else {
#pragma unroll
        for (int e = 0; e < VEC; ++e) a[rr][e] = (row < r_end && c0 + e < cols) ? p[e] : T(0);
      }
    }
    if constexpr (NZ > 0) {
#pragma unroll
      for (int rr = 0; rr < CH; ++rr) {
        const ll row = r + rr;
#pragma unroll
        for (int j = 0; j < (NZ > 0 ? NZ : 1); ++j) {
          if (j < nz) {
            const T vj = row < r_end ? V[j * rows + row] : T(0);
#pragma unroll
            for (int e = 0; e < VEC; ++e) z[j][e] = fma(vj, a[rr][e], z[j][e]);
          }
        }
      }
    }
    if constexpr (NY > 0) {
      T s[P];
#pragma unroll
      for (int k = 0; k < NY; ++k)
#pragma unroll
        for (int rr = 0; rr < CH; ++rr) {
          T d = T(0);
#pragma unroll
          for (int e = 0; e < VEC; ++e) d = fma(a[rr][e], u[k][e], d);
          s[k * CH + rr] = d;
        }
      tg_reduce_scatter<P>(s, lane);
      constexpr int SH = P == 8 ? 2 : 1;  // 5 - log2(P)
      if ((lane & ((1 << SH) - 1)) == 0) ys[buf][warp][chunk * P + (lane >> SH)] = s[0];
      ++chunk;
      if (chunk == CHUNKS || r + CH >= r_end) {
        __syncthreads();
        const ll first = r - (ll)(chunk - 1) * CH;
        for (int t = threadIdx.x; t < chunk * P; t += THREADS) {
          const int c = t / P, idx = t % P, k = idx / CH, rr = idx % CH;
          const ll row = first + (ll)c * CH + rr;
          if (row < r_end) {
            T acc = T(0);
#pragma unroll
            for (int w = 0; w < THREADS / 32; ++w) acc += ys[buf][w][t];
            yp[(tile * NY + k) * rows + row] = acc;
          }
        }
        buf ^= 1;
        chunk = 0;
      }
    }
  }
  if constexpr (NZ > 0) {
    if (!any) return;
#pragma unroll
    for (int j = 0; j < (NZ > 0 ? NZ : 1); ++j) {
      if (j >= nz) continue;
      T* out = zp + (split * nz + j) * zld + c0;
      if (full) {
        tg_vec w;
#pragma unroll
        for (int e = 0; e < VEC; ++e) w.v[e] = z[j][e];
        *reinterpret_cast<tg_vec*>(out) = w;
      } else {
#pragma unroll
        for (int e = 0; e < VEC; ++e)
          if (c0 + e < cols) out[e] = z[j][e];
      }
    }
  }
}

#define TG_PASS(NY, NZ)                                                                                          \
  extern "C" __global__ void __launch_bounds__(THREADS) tg_pass_##NY##_##NZ(                                    \
      const T* M, ll rows, ll cols, ll ld, const T* U, const T* V, int nz, T* yp, T* zp, ll rows_per_split) { \
    tg_pass<NY, NZ>(M, rows, cols, ld, U, V, nz, yp, zp, rows_per_split);                                       \
  }
TG_PASS(0, 1) TG_PASS(0, 2) TG_PASS(0, 4) TG_PASS(0, 8)
TG_PASS(1, 0) TG_PASS(1, 1) TG_PASS(1, 2) TG_PASS(1, 4) TG_PASS(1, 8)
TG_PASS(2, 0) TG_PASS(2, 1) TG_PASS(2, 2) TG_PASS(2, 4) TG_PASS(2, 8)

// out[i] = sum over p < count of part[p * stride + i], in the order of p.
extern "C" __global__ void tg_pass_finish(const T* part, ll count, ll stride, ll n, T* out) {
  const ll i = (ll)blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  T acc = T(0);
  for (ll p = 0; p < count; ++p) acc += part[p * stride + i];
  out[i] = acc;
}
)";

constexpr int z_variants[] = {0, 1, 2, 4, 8};

const char* c_type(ir::dtype t) {
  if (t == ir::dtype::f32) return "float";
  if (t == ir::dtype::f64) return "double";
  fail(error_kind::type_error, "the matrix pass takes float32 or float64, not ", ir::name(t));
}

int vec_of(ir::dtype t) { return 16 / static_cast<int>(ir::size_bytes(t)); }

// The NZ variant a pass of nz products of v @ M takes: the smallest compiled count holding them.
int z_variant(int nz) {
  for (int v : z_variants)
    if (v >= nz) return v;
  return matrix_pass_max_z;
}

struct pass_kernels {
  std::shared_ptr<rt::object_code> code;
  std::shared_ptr<rt::kernel> pass[matrix_pass_max_y + 1][5];
  std::shared_ptr<rt::kernel> finish;
  int resident = 0;  // blocks per SM of the (1, 1) variant, the grid's measure
};

const pass_kernels& kernels_for(rt::device& dev, ir::dtype t) {
  return kernels_once<pass_kernels>(std::make_pair(dev.arch(), t), [&] {
    pass_kernels k;
    k.code = compile_nvrtc(matrix_pass_source(t), {}, dev.arch(), "matrix pass", false);
    for (int y = 0; y <= matrix_pass_max_y; ++y)
      for (int zi = 0; zi < 5; ++zi)
        if (y > 0 || zi > 0)
          k.pass[y][zi] = k.code->get_kernel("tg_pass_" + std::to_string(y) + "_" + std::to_string(z_variants[zi]));
    k.finish = k.code->get_kernel("tg_pass_finish");
    return k;
  });
}

int z_index(int variant) {
  for (int i = 0; i < 5; ++i)
    if (z_variants[i] == variant) return i;
  return 4;
}

void check_problem(const pass_problem& p) {
  if (p.ny < 0 || p.ny > matrix_pass_max_y || p.nz < 0 || p.nz > matrix_pass_max_z || p.ny + p.nz == 0)
    fail(error_kind::invalid_argument, "matrix pass: ", p.ny, " products M @ u and ", p.nz,
         " products v @ M (at most ", matrix_pass_max_y, " and ", matrix_pass_max_z, ", at least one)");
  if (p.m.rows < 0 || p.m.cols < 0 || p.m.ld < p.m.cols)
    fail(error_kind::invalid_argument, "matrix pass: a ", p.m.rows, " x ", p.m.cols, " matrix with row stride ", p.m.ld);
  auto outputs = [](const std::vector<pass_output>& outs, int n, const char* side) {
    for (const auto& o : outs)
      if (o.first < 0 || o.count < 1 || o.first + o.count > n)
        fail(error_kind::invalid_argument, "matrix pass: ", side, " output of vectors [", o.first, ", ",
             o.first + o.count, ") of ", n);
  };
  outputs(p.y, p.ny, "a y");
  outputs(p.z, p.nz, "a z");
}

}  // namespace

bool matrix_pass_fits(const pass_matrix& m) {
  if (m.t != ir::dtype::f32 && m.t != ir::dtype::f64) return false;
  const auto item = static_cast<std::int64_t>(ir::size_bytes(m.t));
  return m.address % 16 == 0 && (m.ld * item) % 16 == 0 && m.ld >= m.cols && m.rows >= 0 && m.cols >= 0;
}

std::string matrix_pass_source(ir::dtype t) {
  return std::string("using T = ") + c_type(t) + ";\n#define VEC " + std::to_string(vec_of(t)) + "\n" + kernel_body;
}

pass_grid matrix_pass_grid(const pass_matrix& m, int resident_blocks) {
  pass_grid g;
  const std::int64_t tc = std::int64_t{matrix_pass_threads} * vec_of(m.t);
  g.col_tiles = std::max<std::int64_t>(1, (m.cols + tc - 1) / tc);
  // One wave: as many row splits as fill the resident blocks the column tiles leave, each at least 32 rows.
  const std::int64_t target = std::max<std::int64_t>(1, resident_blocks);
  const std::int64_t max_splits = std::max<std::int64_t>(1, (m.rows + 31) / 32);
  const std::int64_t splits = std::clamp<std::int64_t>((target + g.col_tiles - 1) / g.col_tiles, 1, max_splits);
  std::int64_t per = (m.rows + splits - 1) / splits;
  per = std::max<std::int64_t>(32, (per + 31) / 32 * 32);
  g.rows_per_split = per;
  g.row_splits = std::max<std::int64_t>(1, (m.rows + per - 1) / per);
  return g;
}

void matrix_pass(rt::device& dev, const rt::stream& s, const pass_problem& p) {
  check_problem(p);
  if (!matrix_pass_fits(p.m))
    fail(error_kind::invalid_argument, "matrix pass: the matrix's address or row stride is not a multiple of 16 bytes");
  const pass_kernels& k = kernels_for(dev, p.m.t);
  dev.make_current();
  const std::size_t item = ir::size_bytes(p.m.t);
  const std::int64_t rows = p.m.rows, cols = p.m.cols;
  auto hold = dev.default_stream();
  auto zero_fill = [&](const std::vector<pass_output>& outs, std::int64_t n) {
    for (const auto& o : outs)
      TEGULA_CHECK(rt::drv().cuMemsetD8Async(CUdeviceptr(o.address), 0, static_cast<std::size_t>(n * o.count) * item,
                                             s.handle()));
  };
  if (rows == 0 || cols == 0) {  // empty sums: zeros (and nothing at all for empty outputs)
    if (rows > 0) zero_fill(p.y, rows);
    if (cols > 0) zero_fill(p.z, cols);
    return;
  }
  rt::kernel& pass = *k.pass[p.ny][z_index(z_variant(p.nz))];
  matrix_pass_last() = {pass.name(), p.m.t, p.ny, p.nz};
  const int per_sm = pass.max_active_blocks_per_sm(matrix_pass_threads, 0, dev);
  const pass_grid g = matrix_pass_grid(p.m, std::max(1, per_sm) * dev.sm_count());
  std::shared_ptr<rt::buffer> yp, zp;
  if (p.ny > 0) yp = rt::buffer::allocate(static_cast<std::size_t>(g.col_tiles * p.ny * rows) * item, hold);
  const std::int64_t vec = vec_of(p.m.t), zld = (cols + vec - 1) / vec * vec;  // the kernel's partial z rows
  if (p.nz > 0) zp = rt::buffer::allocate(static_cast<std::size_t>(g.row_splits * p.nz * zld) * item, hold);
  const auto ypa = yp ? std::uintptr_t(yp->ptr()) : 0, zpa = zp ? std::uintptr_t(zp->ptr()) : 0;
  rt::launch_config c = cub_launch_config(unsigned(g.col_tiles), matrix_pass_threads);
  c.grid[1] = unsigned(g.row_splits);
  const auto ll_rows = static_cast<long long>(rows), ll_cols = static_cast<long long>(cols);
  cub_params args(pass);
  args << p.m.address << ll_rows << ll_cols << static_cast<long long>(p.m.ld) << p.u << p.v << p.nz << ypa << zpa
       << static_cast<long long>(g.rows_per_split);
  rt::launch(s, c, pass, args.buffer());
  auto finish = [&](std::uintptr_t part, long long count, long long stride, long long n, std::uintptr_t out) {
    cub_params f(*k.finish);
    f << part << count << stride << n << out;
    rt::launch(s, cub_launch_config(unsigned((n + 255) / 256), 256), *k.finish, f.buffer());
  };
  for (const auto& o : p.y)
    for (int i = 0; i < o.count; ++i)
      finish(ypa + static_cast<std::uintptr_t>((o.first + i) * rows) * item, g.col_tiles, p.ny * ll_rows, ll_rows,
             o.address + static_cast<std::uintptr_t>(i * rows) * item);
  for (const auto& o : p.z)
    for (int i = 0; i < o.count; ++i)
      finish(zpa + static_cast<std::uintptr_t>((o.first + i) * zld) * item, g.row_splits, p.nz * zld, ll_cols,
             o.address + static_cast<std::uintptr_t>(i * cols) * item);
  for (auto* b : {yp.get(), zp.get()})
    if (b) b->close(&s);  // freed in stream order after the kernels
}

namespace {

template <class T>
void host_pass(const pass_problem& p) {
  const T* m = reinterpret_cast<const T*>(p.m.address);
  const T* u = reinterpret_cast<const T*>(p.u);
  const T* v = reinterpret_cast<const T*>(p.v);
  const std::int64_t rows = p.m.rows, cols = p.m.cols;
  std::vector<T> y(static_cast<std::size_t>(p.ny * rows), T(0)), z(static_cast<std::size_t>(p.nz * cols), T(0));
  for (std::int64_t r = 0; r < rows; ++r) {
    const T* row = m + r * p.m.ld;
    for (int k = 0; k < p.ny; ++k) {
      T d = T(0);
      for (std::int64_t c = 0; c < cols; ++c) d += row[c] * u[k * cols + c];
      y[static_cast<std::size_t>(k * rows + r)] = d;
    }
    for (int j = 0; j < p.nz; ++j) {
      const T w = v[j * rows + r];
      T* zj = z.data() + j * cols;
      for (std::int64_t c = 0; c < cols; ++c) zj[c] += w * row[c];
    }
  }
  for (const auto& o : p.y)
    std::copy_n(y.data() + o.first * rows, o.count * rows, reinterpret_cast<T*>(o.address));
  for (const auto& o : p.z)
    std::copy_n(z.data() + o.first * cols, o.count * cols, reinterpret_cast<T*>(o.address));
}

}  // namespace

pass_last_run& matrix_pass_last() {
  static thread_local pass_last_run last;
  return last;
}

void matrix_pass_host(const pass_problem& p) {
  check_problem(p);
  matrix_pass_last() = {"host reference", p.m.t, p.ny, p.nz};
  if (p.m.t == ir::dtype::f32) return host_pass<float>(p);
  if (p.m.t == ir::dtype::f64) return host_pass<double>(p);
  c_type(p.m.t);  // throws
}

}  // namespace tegula::libs
