// Kernel launch: a validated launch configuration and parameters packed at the kernel's offsets.
#include "tegula/runtime/launch.hpp"

#include <chrono>
#include <cstdint>

#include "tegula/runtime/device.hpp"
#include "tegula/runtime/driver.hpp"
#include "tegula/runtime/module.hpp"
#include "tegula/runtime/profiler.hpp"
#include "tegula/runtime/stream.hpp"
#include "tegula/support/error.hpp"

namespace tegula::rt {
namespace {

std::string dims(const std::array<unsigned, 3>& d) { return str("(", d[0], ", ", d[1], ", ", d[2], ")"); }

[[noreturn]] void launch_failed(CUresult r, const launch_config& c, const kernel& k) {
  try {
    throw_cuda_error(r, "cuLaunchKernel");
  } catch (const error& e) {
    throw error(e.kind(), str("launching kernel '", k.name(), "' with grid ", dims(c.grid), ", block ",
                              dims(c.block), ", shared_mem ", c.shared_mem, ": ", e.what()),
                e.code());
  }
}

}  // namespace

void launch_config::validate() const {
  for (int i = 0; i < 3; ++i) {
    if (grid[i] == 0) fail(error_kind::invalid_argument, "grid ", dims(grid), " has a zero dimension");
    if (block[i] == 0) fail(error_kind::invalid_argument, "block ", dims(block), " has a zero dimension");
    if (cluster[i] == 0) fail(error_kind::invalid_argument, "cluster ", dims(cluster), " has a zero dimension");
  }
  unsigned long long threads = 1ull * block[0] * block[1] * block[2];
  if (threads > 1024)
    fail(error_kind::invalid_argument, "block ", dims(block), " has ", threads,
         " threads; CUDA allows at most 1024 per block");
  if (block[2] > 64) fail(error_kind::invalid_argument, "block ", dims(block), ": z may be at most 64");
  if (grid[1] > 65535 || grid[2] > 65535)
    fail(error_kind::invalid_argument, "grid ", dims(grid), ": y and z may be at most 65535");
  if (grid[0] > 2147483647u) fail(error_kind::invalid_argument, "grid ", dims(grid), ": x may be at most 2^31-1");
}

void launch(const stream& s, const launch_config& c, kernel& k, param_buffer& params) {
  const driver_api& api = drv();
  CUfunction f = k.function(s.dev());
  // The default streams (handles 0, 1, 2) mean "of the current context": make it the stream's device.
  if (reinterpret_cast<std::uintptr_t>(s.handle()) <= 2) s.dev().make_current();
  std::size_t size = params.size();
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, params.data(), CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                   CU_LAUNCH_PARAM_END};
  note_launch(&k.name());
  prof::launch_scope timing(s, c, k);
  CUresult r;
  if (c.cluster == std::array<unsigned, 3>{1, 1, 1} && !c.cooperative) {
    r = api.cuLaunchKernel(f, c.grid[0], c.grid[1], c.grid[2], c.block[0], c.block[1], c.block[2],
                           c.shared_mem, s.handle(), nullptr, size ? extra : nullptr);
  } else {
    CUlaunchAttribute attrs[2] = {};
    unsigned n = 0;
    if (c.cluster != std::array<unsigned, 3>{1, 1, 1}) {
      attrs[n].id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
      attrs[n].value.clusterDim.x = c.cluster[0];
      attrs[n].value.clusterDim.y = c.cluster[1];
      attrs[n].value.clusterDim.z = c.cluster[2];
      ++n;
    }
    if (c.cooperative) {
      attrs[n].id = CU_LAUNCH_ATTRIBUTE_COOPERATIVE;
      attrs[n].value.cooperative = 1;
      ++n;
    }
    CUlaunchConfig lc{};
    lc.gridDimX = c.grid[0], lc.gridDimY = c.grid[1], lc.gridDimZ = c.grid[2];
    lc.blockDimX = c.block[0], lc.blockDimY = c.block[1], lc.blockDimZ = c.block[2];
    lc.sharedMemBytes = c.shared_mem;
    lc.hStream = s.handle();
    lc.attrs = attrs;
    lc.numAttrs = n;
    r = api.cuLaunchKernelEx(&lc, f, nullptr, size ? extra : nullptr);
  }
  if (r != CUDA_SUCCESS) launch_failed(r, c, k);
}

launch_timing time_bare_launches(const stream& s, const launch_config& c, kernel& k, param_buffer& params,
                                 int n) {
  const driver_api& api = drv();
  CUfunction f = k.function(s.dev());
  std::size_t size = params.size();
  void* extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, params.data(), CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
                   CU_LAUNCH_PARAM_END};
  using clock = std::chrono::steady_clock;
  auto t0 = clock::now();
  for (int i = 0; i < n; ++i) {
    CUresult r = api.cuLaunchKernel(f, c.grid[0], c.grid[1], c.grid[2], c.block[0], c.block[1], c.block[2],
                                    c.shared_mem, s.handle(), nullptr, size ? extra : nullptr);
    if (r != CUDA_SUCCESS) launch_failed(r, c, k);
  }
  auto t1 = clock::now();
  TEGULA_CHECK(api.cuStreamSynchronize(s.handle()));
  auto t2 = clock::now();
  launch_timing t;
  t.call_us = std::chrono::duration<double, std::micro>(t1 - t0).count() / n;
  t.total_us = std::chrono::duration<double, std::micro>(t2 - t0).count() / n;
  return t;
}

}  // namespace tegula::rt
