// Devices: the GPUs the driver sees, each with its primary context (shared with PyTorch/CuPy).
#include "tegula/runtime/device.hpp"

#include <vector>

#include "tegula/runtime/driver.hpp"
#include "tegula/runtime/host_staging.hpp"
#include "tegula/runtime/memory_pool.hpp"
#include "tegula/runtime/stream.hpp"
#include "tegula/support/error.hpp"

namespace tegula::rt {
namespace {

// Leaked on purpose: buffers freed at interpreter exit still need their device and pool, and the
// driver may already be shutting down when static destructors run.
std::vector<std::unique_ptr<device>>& all_devices() {
  static auto* devices = new std::vector<std::unique_ptr<device>>();
  return *devices;
}

}  // namespace

int device::count() {
  int n = 0;
  TEGULA_CHECK(drv().cuDeviceGetCount(&n));
  return n;
}

device& device::get(int ordinal) {
  static std::once_flag once;
  std::call_once(once, [] {
    int n = count();
    auto& v = all_devices();
    for (int i = 0; i < n; ++i) v.emplace_back(new device(i));
  });
  auto& v = all_devices();
  if (ordinal < 0 || ordinal >= int(v.size()))
    fail(error_kind::invalid_argument, "device ordinal ", ordinal, " is out of range: this machine has ",
         v.size(), " CUDA device", v.size() == 1 ? "" : "s");
  return *v[ordinal];
}

device& device::current() {
  const driver_api& api = drv();
  CUcontext ctx = nullptr;
  TEGULA_CHECK(api.cuCtxGetCurrent(&ctx));
  if (!ctx) return get(0);
  CUdevice dev = 0;
  TEGULA_CHECK(api.cuCtxGetDevice(&dev));
  for (int i = 0, n = count(); i < n; ++i)
    if (get(i).handle() == dev) return get(i);
  return get(0);
}

device::device(int ordinal) : ordinal_(ordinal) {
  const driver_api& api = drv();
  TEGULA_CHECK(api.cuDeviceGet(&handle_, ordinal));
  char name[256] = {};
  TEGULA_CHECK(api.cuDeviceGetName(name, sizeof name, handle_));
  name_ = name;
  cc_major_ = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR);
  cc_minor_ = attribute(CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR);
  sm_count_ = attribute(CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT);
  TEGULA_CHECK(api.cuDeviceTotalMem(&total_memory_, handle_));
}

device::~device() = default;

int device::attribute(CUdevice_attribute a) const {
  int value = 0;
  TEGULA_CHECK(drv().cuDeviceGetAttribute(&value, a, handle_));
  return value;
}

CUcontext device::context() {
  std::call_once(context_once_, [&] { TEGULA_CHECK(drv().cuDevicePrimaryCtxRetain(&context_, handle_)); });
  return context_;
}

void device::make_current() {
  CUcontext want = context();
  const driver_api& api = drv();
  CUcontext now = nullptr;
  TEGULA_CHECK(api.cuCtxGetCurrent(&now));
  if (now != want) TEGULA_CHECK(api.cuCtxSetCurrent(want));
}

void device::synchronize() {
  make_current();
  TEGULA_CHECK(drv().cuCtxSynchronize());
}

bool device::can_access_peer(const device& other) const {
  if (&other == this) return true;
  int ok = 0;
  TEGULA_CHECK(drv().cuDeviceCanAccessPeer(&ok, handle_, other.handle_));
  return ok != 0;
}

void device::enable_peer_access(device& other) {
  if (&other == this || !can_access_peer(other)) return;
  CUcontext peer = other.context();
  make_current();
  CUresult r = drv().cuCtxEnablePeerAccess(peer, 0);
  if (r != CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED) TEGULA_CHECK(r);
}

memory_pool& device::pool() {
  std::call_once(pool_once_, [&] { pool_.reset(new memory_pool(*this)); });
  return *pool_;
}

host_staging& device::staging() {
  std::call_once(staging_once_, [&] { staging_.reset(new host_staging(*this)); });
  return *staging_;
}

}  // namespace tegula::rt

namespace tegula::rt {

const std::shared_ptr<stream>& device::default_stream() {
  std::call_once(stream_once_, [&] { default_stream_ = stream::legacy_default(*this); });
  return default_stream_;
}

}  // namespace tegula::rt
