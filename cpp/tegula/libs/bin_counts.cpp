// Privatised bin counts (see bin_counts.hpp).
#include "tegula/libs/bin_counts.hpp"

#include <algorithm>
#include <memory>
#include <tuple>

#include "tegula/libs/cub_jit.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/runtime/driver.hpp"
#include "tegula/runtime/object_code.hpp"
#include "tegula/runtime/stream.hpp"
#include "tegula/support/error.hpp"

namespace tegula::libs {
namespace {

constexpr int threads = 256;
constexpr std::int64_t max_shared_bins = 6144;  // 48 KB of 8-byte counters

// What both counting programs share: a block counts into its own zeroed counters in shared memory (SHARED) and
// adds them to `counts` at the end, or counts straight into `counts`.
const char* block_counts_source = R"(
template <class ACC, bool SHARED>
__device__ ACC* tg_block_counts(ACC* counts, long long bins) {
  extern __shared__ __align__(16) unsigned char tg_smem[];
  if (!SHARED) return counts;
  ACC* local = reinterpret_cast<ACC*>(tg_smem);
  for (long long k = threadIdx.x; k < bins; k += blockDim.x) local[k] = ACC(0);
  __syncthreads();
  return local;
}
template <class ACC, bool SHARED>
__device__ void tg_flush_counts(const ACC* local, ACC* counts, long long bins) {
  if (!SHARED) return;
  __syncthreads();
  for (long long k = threadIdx.x; k < bins; k += blockDim.x)
    if (local[k] != ACC(0)) atomicAdd(&counts[k], local[k]);
}
)";

// ACC: the shared counter type; SHARED: count in shared memory first. W: the weight type (void: ones).
const char* kernel_source = R"(
template <class W, class ACC, bool SHARED>
__device__ void tg_count(const long long* idx, const W* w, long long n, long long bins, ACC* counts) {
  ACC* target = tg_block_counts<ACC, SHARED>(counts, bins);
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const long long k = idx[i];
    if (k >= 0 && k < bins) atomicAdd(&target[k], w ? ACC(w[i]) : ACC(1));
  }
  tg_flush_counts<ACC, SHARED>(target, counts, bins);
}
#define TG_COUNT(name, W, ACC, SHARED)                                                                      \
  extern "C" __global__ void __launch_bounds__(256) name(const long long* idx, const W* w, long long n,       \
                                                         long long bins, ACC* counts) {                     \
    tg_count<W, ACC, SHARED>(idx, w, n, bins, counts);                                                      \
  }
TG_COUNT(tg_count_int64_shared, long long, unsigned long long, true)
TG_COUNT(tg_count_int64_global, long long, unsigned long long, false)
TG_COUNT(tg_count_float64_shared, double, double, true)
TG_COUNT(tg_count_float64_global, double, double, false)
)";

// Values to bins and counts in one pass: TX the values, TE the edges, TW the weights (long long when none), ACC the
// result's counters, SACC a block's shared counters (32-bit without weights: a block counts far fewer than 2^32
// values, count_config). The shared form also copies the edges into shared memory (the corrections read them for
// every value), and guesses a value's bin in the edges' precision.
const char* uniform_source = R"(
template <bool SHARED>
__device__ void tg_count_uniform(const TX* x, const TW* w, long long n, long long bins, const TE* edges, ACC* counts) {
  extern __shared__ __align__(16) unsigned char tg_smem[];
  SACC* local = reinterpret_cast<SACC*>(tg_smem);
  TE* shared_edges = reinterpret_cast<TE*>(tg_smem + ((bins * (long long)sizeof(SACC) + 15) & ~15ll));
  const TE* e = edges;
  if (SHARED) {
    for (long long k = threadIdx.x; k < bins; k += blockDim.x) local[k] = SACC(0);
    for (long long k = threadIdx.x; k <= bins; k += blockDim.x) shared_edges[k] = edges[k];
    __syncthreads();
    e = shared_edges;
  }
  const TE first = e[0], last = e[bins];
  const TE scale = last > first ? (TE)bins / (last - first) : (TE)0;
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const TE v = (TE)x[i];
    if (!(v >= first && v <= last)) continue;  // outside the range, or NaN
    const TE guess = (v - first) * scale;
    long long k = guess >= (TE)(bins - 1) ? bins - 1 : guess > (TE)0 ? (long long)guess : 0;  // (inf, NaN clamp)
    while (k > 0 && v < e[k]) --k;
    while (k < bins - 1 && v >= e[k + 1]) ++k;
    if (SHARED) atomicAdd(&local[k], HAS_W ? SACC(w[i]) : SACC(1));
    else atomicAdd(&counts[k], HAS_W ? ACC(w[i]) : ACC(1));
  }
  if (SHARED) {
    __syncthreads();
    for (long long k = threadIdx.x; k < bins; k += blockDim.x)
      if (local[k] != SACC(0)) atomicAdd(&counts[k], ACC(local[k]));
  }
}
extern "C" __global__ void __launch_bounds__(256) tg_count_uniform_shared(const TX* x, const TW* w, long long n,
                                                                          long long bins, const TE* edges, ACC* counts) {
  tg_count_uniform<true>(x, w, n, bins, edges, counts);
}
extern "C" __global__ void __launch_bounds__(256) tg_count_uniform_global(const TX* x, const TW* w, long long n,
                                                                          long long bins, const TE* edges, ACC* counts) {
  tg_count_uniform<false>(x, w, n, bins, edges, counts);
}
)";

struct count_kernels {
  std::shared_ptr<rt::object_code> code;
  std::shared_ptr<rt::kernel> k[2][2];  // [float64 weights][shared]
};

const count_kernels& kernels_for(rt::device& dev) {
  return kernels_once<count_kernels>(dev.arch(), [&] {
    count_kernels k;
    k.code = compile_nvrtc(bin_counts_source(), {}, dev.arch(), "bin counts", false);
    const char* names[2][2] = {{"tg_count_int64_global", "tg_count_int64_shared"},
                               {"tg_count_float64_global", "tg_count_float64_shared"}};
    for (int f = 0; f < 2; ++f)
      for (int sh = 0; sh < 2; ++sh) k.k[f][sh] = k.code->get_kernel(names[f][sh]);
    return k;
  });
}

struct uniform_kernels {
  std::shared_ptr<rt::object_code> code;
  std::shared_ptr<rt::kernel> k[2];  // [shared]
};

const uniform_kernels& uniform_kernels_for(rt::device& dev, const std::string& x_type, bin_weights w) {
  return kernels_once<uniform_kernels>(std::make_tuple(dev.arch(), x_type, int(w)), [&] {
    uniform_kernels k;
    k.code = compile_nvrtc(bin_counts_uniform_source(x_type, w), {}, dev.arch(), "histogram counts", false);
    k.k[0] = k.code->get_kernel("tg_count_uniform_global");
    k.k[1] = k.code->get_kernel("tg_count_uniform_shared");
    return k;
  });
}

rt::launch_config count_config(rt::device& dev, std::int64_t n, std::int64_t shared_bytes) {
  // Enough blocks to fill the GPU a few times over; each block's shared counters are flushed once.
  const std::int64_t want = (n + threads * 16 - 1) / (threads * 16);
  const std::int64_t most = std::int64_t(dev.sm_count()) * 8;
  // A block counts fewer than 2^31 values, so 32-bit shared counters cannot overflow (a grid of 1056 blocks
  // reaches that at 2^41 values, 8 TB of float32; more blocks beyond).
  const std::int64_t blocks = std::max<std::int64_t>({1, std::min(want, most), (n >> 31) + 1});
  rt::launch_config c = cub_launch_config(unsigned(blocks), threads);
  c.shared_mem = unsigned(shared_bytes);
  return c;
}

}  // namespace

std::string bin_counts_source() { return std::string(block_counts_source) + kernel_source; }

std::string bin_counts_uniform_source(const std::string& x_type, bin_weights w) {
  const char* tx = x_type == "float32" ? "float"
                   : x_type == "float64" ? "double"
                   : x_type == "int32"   ? "int"
                   : x_type == "int64"   ? "long long"
                                         : nullptr;
  if (!tx) fail(error_kind::type_error, "histogram counts take float32, float64, int32 or int64 values, not ", x_type);
  const std::string te = x_type == "float32" ? "float" : "double";
  const std::string tw = w == bin_weights::float64 ? "double" : "long long";
  const std::string acc = w == bin_weights::float64 ? "double" : "unsigned long long";
  const std::string sacc = w == bin_weights::none ? "unsigned int" : acc;
  return std::string("using TX = ") + tx + ";\nusing TE = " + te + ";\nusing TW = " + tw + ";\nusing ACC = " + acc +
         ";\nusing SACC = " + sacc + ";\n#define HAS_W " + (w == bin_weights::none ? "false" : "true") + "\n" +
         uniform_source;
}

// The bins' 8-byte totals set to zero on `s` (a memset node: cheaper than a fill kernel), the device made current.
static void zero_counts(rt::device& dev, const rt::stream& s, std::uintptr_t counts, std::int64_t bins) {
  dev.make_current();
  if (bins > 0) TEGULA_CHECK(rt::drv().cuMemsetD8Async(CUdeviceptr(counts), 0, std::size_t(bins) * 8, s.handle()));
}

void count_bins_uniform(rt::device& dev, const rt::stream& s, std::uintptr_t x, const std::string& x_type,
                        std::int64_t n, std::uintptr_t edges, std::int64_t bins, bin_weights w, std::uintptr_t weights,
                        std::uintptr_t counts) {
  if (n < 0 || bins < 1) fail(error_kind::invalid_argument, "count_bins_uniform: ", n, " values, ", bins, " bins");
  if (w != bin_weights::none && !weights) fail(error_kind::invalid_argument, "count_bins_uniform: weights missing");
  zero_counts(dev, s, counts, bins);
  if (n == 0) return;
  const uniform_kernels& k = uniform_kernels_for(dev, x_type, w);
  // Shared memory: the block's counters (4 bytes each without weights, 8 with), then the bins + 1 edges.
  const std::int64_t counter = w == bin_weights::none ? 4 : 8, edge = x_type == "float32" ? 4 : 8;
  const std::int64_t need = (bins * counter + 15) / 16 * 16 + (bins + 1) * edge;
  const bool shared = need <= 48 * 1024;
  rt::kernel& kern = *k.k[shared ? 1 : 0];
  cub_params p(kern);
  p << x << (w == bin_weights::none ? std::uintptr_t(0) : weights) << static_cast<long long>(n)
    << static_cast<long long>(bins) << edges << counts;
  rt::launch(s, count_config(dev, n, shared ? need : 0), kern, p.buffer());
}

void count_bins(rt::device& dev, const rt::stream& s, std::uintptr_t idx, std::int64_t n, std::int64_t bins,
                bin_weights w, std::uintptr_t weights, std::uintptr_t counts) {
  if (n < 0 || bins < 0) fail(error_kind::invalid_argument, "count_bins: negative length (", n, " elements, ", bins, " bins)");
  if (w != bin_weights::none && !weights) fail(error_kind::invalid_argument, "count_bins: weights missing");
  zero_counts(dev, s, counts, bins);
  if (n == 0 || bins == 0) return;
  const count_kernels& k = kernels_for(dev);
  const bool shared = bins <= max_shared_bins;
  rt::kernel& kern = *k.k[w == bin_weights::float64 ? 1 : 0][shared ? 1 : 0];
  cub_params p(kern);
  p << idx << (w == bin_weights::none ? std::uintptr_t(0) : weights) << static_cast<long long>(n)
    << static_cast<long long>(bins) << counts;
  rt::launch(s, count_config(dev, n, shared ? bins * 8 : 0), kern, p.buffer());
}

}  // namespace tegula::libs
