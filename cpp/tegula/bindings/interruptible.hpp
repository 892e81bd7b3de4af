// Waiting from Python while Ctrl-C still works: GPU synchronisations, NVRTC compiles and interpreted kernels run
// with the GIL released and look at Python's signals every few milliseconds. When a handler raises (Ctrl-C gives
// KeyboardInterrupt), the wait stops and that exception reaches the caller; the GPU work or the compile goes on
// in the background and nothing is left half done.
#pragma once
#include <functional>
#include <memory>

#include "tegula/jit/compiler.hpp"

#include "tegula/bindings/bind_support.hpp"

namespace tegula::rt {
class event;
class stream;
}  // namespace tegula::rt

namespace tegula::bind {

class signal_watch {
 public:
  signal_watch() = default;
  ~signal_watch();
  signal_watch(const signal_watch&) = delete;
  signal_watch& operator=(const signal_watch&) = delete;

  // Without the GIL: runs Python's signal handlers (taking the GIL briefly); true when one raised. The exception is
  // kept for rethrow().
  bool check();
  bool raised() const { return raised_; }
  // With the GIL: makes the kept exception current again and throws it as nb::python_error.
  [[noreturn]] void rethrow();

 private:
  bool raised_ = false;
  PyObject* exc_[3] = {nullptr, nullptr, nullptr};
};

// Without the GIL: returns when done() is true (spinning for the first ~200 us, then sleeping between polls), or
// false as soon as `watch` sees a signal handler raise.
bool wait_until(const std::function<bool()>& done, signal_watch& watch);

// With the GIL: waits for the stream's (event's) work like synchronize(), but Ctrl-C raises KeyboardInterrupt.
void interruptible_sync(const rt::stream& s);
void interruptible_sync(const rt::event& e);

// With the GIL: NVRTC through the jit caches on a worker thread while this one watches Python's signals (Ctrl-C
// raises KeyboardInterrupt at once; the compile finishes in the background and lands in the cache).
std::shared_ptr<const jit::compiled> compile_interruptibly(const jit::compile_request& r);

}  // namespace tegula::bind
