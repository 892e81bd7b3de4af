// Devices: the GPUs the driver sees, each with its primary context (shared with PyTorch/CuPy).
#pragma once
#include <cuda.h>

#include <memory>
#include <mutex>
#include <string>

namespace tegula::rt {

class host_staging;
class memory_pool;
class stream;

class device {
 public:
  static int count();                 // throws driver_missing when there is no driver
  static device& get(int ordinal);    // process-wide; invalid_argument for a bad ordinal
  // The device of this thread's current context, or device 0 when no context is current.
  static device& current();

  int ordinal() const { return ordinal_; }
  CUdevice handle() const { return handle_; }
  const std::string& name() const { return name_; }
  int cc_major() const { return cc_major_; }
  int cc_minor() const { return cc_minor_; }
  int arch() const { return cc_major_ * 10 + cc_minor_; }  // 90 for sm_90
  int sm_count() const { return sm_count_; }
  std::size_t total_memory() const { return total_memory_; }
  int attribute(CUdevice_attribute attribute) const;

  // The retained primary context (retained on first use, released never: it must outlive every
  // object that may still free memory at interpreter exit).
  CUcontext context();
  // Makes the primary context current on this thread when it is not already.
  void make_current();
  void synchronize();
  // Whether this device's kernels can address `other`'s memory directly (NVLink or PCIe peer to peer).
  bool can_access_peer(const device& other) const;
  // Lets this device's context address `other`'s cuMemAlloc'd memory (idempotent; a no-op for itself and
  // where the hardware has no peer path).
  void enable_peer_access(device& other);
  memory_pool& pool();
  // Pinned slots for small host->device uploads (see host_staging.hpp).
  host_staging& staging();
  // The legacy default stream (handle 0) of this device, as a shared, borrowed stream object.
  const std::shared_ptr<stream>& default_stream();

 private:
  explicit device(int ordinal);
  ~device();  // never runs: devices live until the process ends (see all_devices)
  friend struct std::default_delete<device>;
  int ordinal_;
  CUdevice handle_ = 0;
  std::string name_;
  int cc_major_ = 0, cc_minor_ = 0, sm_count_ = 0;
  std::size_t total_memory_ = 0;
  std::once_flag context_once_, pool_once_, stream_once_, staging_once_;
  CUcontext context_ = nullptr;
  std::unique_ptr<memory_pool> pool_;
  std::unique_ptr<host_staging> staging_;
  std::shared_ptr<stream> default_stream_;
};

}  // namespace tegula::rt
