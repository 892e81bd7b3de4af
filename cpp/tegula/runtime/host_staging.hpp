// Small host->device uploads through pinned memory, so the host never waits for the GPU.
//
// A copy from pageable host memory makes the driver wait for the stream's queued work, and the caller
// must then wait for the copy itself before the source may change. Uploads of at most slot_bytes are
// instead copied at once into one of `slots` pinned slots, taken in turn, and the DMA from the slot is
// queued on the stream. A slot is reused only after the event recorded behind its last DMA has passed,
// so a long run of uploads waits for the oldest one, never for the stream. The source may change as
// soon as upload() returns.
#pragma once
#include <cuda.h>

#include <array>
#include <cstddef>
#include <mutex>

namespace tegula::rt {

class device;
class stream;

class host_staging {
 public:
  static constexpr std::size_t slot_bytes = std::size_t(64) << 10;
  static constexpr int slots = 32;  // 2 MiB pinned, allocated at the first upload

  explicit host_staging(device& dev) : dev_(dev) {}
  ~host_staging();  // never runs in practice: devices live until the process ends
  host_staging(const host_staging&) = delete;
  host_staging& operator=(const host_staging&) = delete;

  // Copies `bytes` (at most slot_bytes) from `src` to device address `dst`, ordered on `s`; the
  // device's context must be current.
  void upload(CUdeviceptr dst, const void* src, std::size_t bytes, const stream& s);

 private:
  void allocate();  // the pinned slots and their events (under mutex_)
  device& dev_;
  std::mutex mutex_;
  unsigned char* pinned_ = nullptr;
  std::array<CUevent, slots> fence_{};  // recorded behind each slot's last DMA
  std::array<bool, slots> in_use_{};    // whether fence_[i] was ever recorded
  int next_ = 0;
};

}  // namespace tegula::rt
