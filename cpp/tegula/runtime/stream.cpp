// Streams: tegula-owned (created here) or borrowed (a handle from PyTorch, CuPy or the user).
#include "tegula/runtime/stream.hpp"

#include <cstdint>

#include "tegula/runtime/device.hpp"
#include "tegula/runtime/driver.hpp"
#include "tegula/runtime/event.hpp"

namespace tegula::rt {

std::shared_ptr<stream> stream::create(device& dev, bool non_blocking, int priority) {
  dev.make_current();
  CUstream h = nullptr;
  TEGULA_CHECK(drv().cuStreamCreateWithPriority(&h, non_blocking ? CU_STREAM_NON_BLOCKING : CU_STREAM_DEFAULT,
                                                priority));
  return std::shared_ptr<stream>(new stream(h, dev, true));
}

std::shared_ptr<stream> stream::wrap(CUstream handle, device& dev) {
  return std::shared_ptr<stream>(new stream(handle, dev, false));
}

std::shared_ptr<stream> stream::wrap(CUstream handle) {
  auto raw = reinterpret_cast<std::uintptr_t>(handle);
  if (raw <= 2) return wrap(handle, device::current());
  CUdevice d = 0;
  TEGULA_CHECK(drv().cuStreamGetDevice(handle, &d));
  for (int i = 0, n = device::count(); i < n; ++i)
    if (device::get(i).handle() == d) return wrap(handle, device::get(i));
  return wrap(handle, device::current());
}

std::shared_ptr<stream> stream::legacy_default(device& dev) { return wrap(nullptr, dev); }

stream::~stream() {
  if (owned_ && handle_) drv().cuStreamDestroy(handle_);  // destructor: nothing to report to
}

int stream::priority() const {
  int p = 0;
  TEGULA_CHECK(drv().cuStreamGetPriority(handle_, &p));
  return p;
}

void stream::synchronize() const {
  dev_->make_current();
  TEGULA_CHECK(drv().cuStreamSynchronize(handle_));
}

bool stream::query() const {
  CUresult r = drv().cuStreamQuery(handle_);
  if (r == CUDA_ERROR_NOT_READY) return false;
  check(r, "cuStreamQuery");
  return true;
}

void stream::wait(const event& e) const { TEGULA_CHECK(drv().cuStreamWaitEvent(handle_, e.handle(), 0)); }

void stream::wait(const stream& other) const {
  if (other.handle_ == handle_) return;
  auto e = event::create(other.dev(), /*timing=*/false);
  e->record(other);
  wait(*e);  // the driver keeps the dependency after the event is destroyed
}

}  // namespace tegula::rt
