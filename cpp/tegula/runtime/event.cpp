// Events: markers in a stream, for ordering between streams and for timing on the GPU.
#include "tegula/runtime/event.hpp"

#include "tegula/runtime/device.hpp"
#include "tegula/runtime/driver.hpp"
#include "tegula/runtime/stream.hpp"
#include "tegula/support/error.hpp"

namespace tegula::rt {

std::shared_ptr<event> event::create(device& dev, bool timing, bool blocking_sync) {
  dev.make_current();
  unsigned flags = (timing ? 0u : unsigned(CU_EVENT_DISABLE_TIMING)) |
                   (blocking_sync ? unsigned(CU_EVENT_BLOCKING_SYNC) : 0u);
  CUevent h = nullptr;
  TEGULA_CHECK(drv().cuEventCreate(&h, flags));
  return std::shared_ptr<event>(new event(h, timing));
}

event::~event() {
  if (handle_) drv().cuEventDestroy(handle_);  // destructor: nothing to report to
}

void event::record(const stream& s) {
  TEGULA_CHECK(drv().cuEventRecord(handle_, s.handle()));
  recorded_ = true;
}

void event::synchronize() const { TEGULA_CHECK(drv().cuEventSynchronize(handle_)); }

bool event::query() const {
  CUresult r = drv().cuEventQuery(handle_);
  if (r == CUDA_ERROR_NOT_READY) return false;
  check(r, "cuEventQuery");
  return true;
}

float event::elapsed_ms(const event& start, const event& end) {
  if (!start.timing_ || !end.timing_)
    fail(error_kind::invalid_argument, "elapsed time needs two events created with timing=True");
  if (!start.recorded_ || !end.recorded_)
    fail(error_kind::invalid_argument, "elapsed time needs both events recorded on a stream first");
  float ms = 0;
  CUresult r = drv().cuEventElapsedTime(&ms, start.handle_, end.handle_);
  if (r == CUDA_ERROR_NOT_READY)
    fail(error_kind::invalid_argument, "elapsed time asked before the events completed: synchronize the end event first");
  check(r, "cuEventElapsedTime");
  return ms;
}

}  // namespace tegula::rt
