// Small host->device uploads through pinned memory (see host_staging.hpp).
#include "tegula/runtime/host_staging.hpp"

#include <cstring>

#include "tegula/runtime/device.hpp"
#include "tegula/runtime/driver.hpp"
#include "tegula/runtime/stream.hpp"
#include "tegula/support/error.hpp"

namespace tegula::rt {

host_staging::~host_staging() {
  const driver_api& api = drv();
  for (CUevent e : fence_)
    if (e) api.cuEventDestroy(e);
  if (pinned_) api.cuMemFreeHost(pinned_);
}

void host_staging::allocate() {
  const driver_api& api = drv();
  void* p = nullptr;
  TEGULA_CHECK(api.cuMemHostAlloc(&p, slot_bytes * slots, 0));
  pinned_ = static_cast<unsigned char*>(p);
  for (CUevent& e : fence_) TEGULA_CHECK(api.cuEventCreate(&e, CU_EVENT_DISABLE_TIMING));
}

void host_staging::upload(CUdeviceptr dst, const void* src, std::size_t bytes, const stream& s) {
  if (bytes > slot_bytes)
    fail(error_kind::invalid_argument, "host staging: ", bytes, " bytes exceed a slot of ", slot_bytes);
  const driver_api& api = drv();
  std::lock_guard<std::mutex> lock(mutex_);
  if (!pinned_) allocate();
  const int i = next_;
  next_ = (next_ + 1) % slots;
  // The slot's previous DMA must have read it before it is overwritten.
  if (in_use_[i]) TEGULA_CHECK(api.cuEventSynchronize(fence_[i]));
  unsigned char* slot = pinned_ + std::size_t(i) * slot_bytes;
  std::memcpy(slot, src, bytes);
  TEGULA_CHECK(api.cuMemcpyHtoDAsync(dst, slot, bytes, s.handle()));
  TEGULA_CHECK(api.cuEventRecord(fence_[i], s.handle()));
  in_use_[i] = true;
}

}  // namespace tegula::rt
