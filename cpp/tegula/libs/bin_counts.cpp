// Privatised bin counts (see bin_counts.hpp).
#include "tegula/libs/bin_counts.hpp"

#include <algorithm>
#include <map>
#include <memory>
#include <mutex>

#include "tegula/libs/cub_jit.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/runtime/object_code.hpp"
#include "tegula/runtime/stream.hpp"
#include "tegula/support/error.hpp"

namespace tegula::libs {
namespace {

constexpr int threads = 256;
constexpr std::int64_t max_shared_bins = 6144;  // 48 KB of 8-byte counters

// ACC: the shared counter type; SHARED: count in shared memory first. W: the weight type (void: ones).
const char* kernel_source = R"(
template <class W, class ACC, bool SHARED>
__device__ void tg_count(const long long* idx, const W* w, long long n, long long bins, ACC* counts) {
  extern __shared__ __align__(16) unsigned char tg_smem[];
  ACC* local = reinterpret_cast<ACC*>(tg_smem);
  if (SHARED) {
    for (long long k = threadIdx.x; k < bins; k += blockDim.x) local[k] = ACC(0);
    __syncthreads();
  }
  ACC* target = SHARED ? local : counts;
  const long long stride = (long long)gridDim.x * blockDim.x;
  for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
    const long long k = idx[i];
    if (k >= 0 && k < bins) atomicAdd(&target[k], w ? ACC(w[i]) : ACC(1));
  }
  if (SHARED) {
    __syncthreads();
    for (long long k = threadIdx.x; k < bins; k += blockDim.x)
      if (local[k] != ACC(0)) atomicAdd(&counts[k], local[k]);
  }
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

struct count_kernels {
  std::shared_ptr<rt::object_code> code;
  std::shared_ptr<rt::kernel> k[2][2];  // [float64 weights][shared]
};

const count_kernels& kernels_for(rt::device& dev) {
  static std::mutex m;
  static auto* cache = new std::map<int, std::unique_ptr<count_kernels>>();
  std::lock_guard<std::mutex> g(m);
  auto& slot = (*cache)[dev.arch()];
  if (!slot) {
    auto k = std::make_unique<count_kernels>();
    k->code = compile_nvrtc(bin_counts_source(), {}, dev.arch(), "bin counts", false);
    const char* names[2][2] = {{"tg_count_int64_global", "tg_count_int64_shared"},
                               {"tg_count_float64_global", "tg_count_float64_shared"}};
    for (int f = 0; f < 2; ++f)
      for (int sh = 0; sh < 2; ++sh) k->k[f][sh] = k->code->get_kernel(names[f][sh]);
    slot = std::move(k);
  }
  return *slot;
}

}  // namespace

std::string bin_counts_source() { return kernel_source; }

void count_bins(rt::device& dev, const rt::stream& s, std::uintptr_t idx, std::int64_t n, std::int64_t bins,
                bin_weights w, std::uintptr_t weights, std::uintptr_t counts) {
  if (n < 0 || bins < 0) fail(error_kind::invalid_argument, "count_bins: negative length (", n, " elements, ", bins, " bins)");
  if (n == 0 || bins == 0) return;
  if (w != bin_weights::none && !weights) fail(error_kind::invalid_argument, "count_bins: weights missing");
  const count_kernels& k = kernels_for(dev);
  dev.make_current();
  const bool shared = bins <= max_shared_bins;
  rt::kernel& kern = *k.k[w == bin_weights::float64 ? 1 : 0][shared ? 1 : 0];
  // Enough blocks to fill the GPU a few times over; each block's shared counters are flushed once.
  const std::int64_t want = (n + threads * 16 - 1) / (threads * 16);
  const std::int64_t most = std::int64_t(dev.sm_count()) * 8;
  rt::launch_config c = cub_launch_config(unsigned(std::max<std::int64_t>(1, std::min(want, most))), threads);
  c.shared_mem = shared ? unsigned(bins * 8) : 0;
  cub_params p(kern);
  p << idx << (w == bin_weights::none ? std::uintptr_t(0) : weights) << static_cast<long long>(n)
    << static_cast<long long>(bins) << counts;
  rt::launch(s, c, kern, p.buffer());
}

}  // namespace tegula::libs
