// Interruptible waits (see interruptible.hpp).
#include "tegula/bindings/interruptible.hpp"

#include <chrono>
#include <thread>

#include "tegula/runtime/event.hpp"
#include "tegula/runtime/stream.hpp"

namespace tegula::bind {

signal_watch::~signal_watch() {
  if (exc_[0] || exc_[1] || exc_[2]) {
    nb::gil_scoped_acquire g;
    Py_XDECREF(exc_[0]);
    Py_XDECREF(exc_[1]);
    Py_XDECREF(exc_[2]);
  }
}

bool signal_watch::check() {
  nb::gil_scoped_acquire g;
  if (PyErr_CheckSignals() == 0) return false;
  PyErr_Fetch(&exc_[0], &exc_[1], &exc_[2]);
  raised_ = true;
  return true;
}

void signal_watch::rethrow() {
  PyErr_Restore(exc_[0], exc_[1], exc_[2]);
  exc_[0] = exc_[1] = exc_[2] = nullptr;
  throw nb::python_error();
}

bool wait_until(const std::function<bool()>& done, signal_watch& watch) {
  using clock = std::chrono::steady_clock;
  const auto start = clock::now();
  auto last_check = start;
  while (!done()) {
    const auto now = clock::now();
    const auto waited = now - start;
    if (waited < std::chrono::microseconds(200)) {
      std::this_thread::yield();
      continue;
    }
    if (now - last_check > std::chrono::milliseconds(5)) {
      last_check = now;
      if (watch.check()) return false;
    }
    std::this_thread::sleep_for(waited < std::chrono::milliseconds(5) ? std::chrono::microseconds(20)
                                                                       : std::chrono::microseconds(500));
  }
  return true;
}

void interruptible_sync(const rt::stream& s) {
  signal_watch watch;
  bool done;
  {
    nb::gil_scoped_release g;
    done = wait_until([&] { return s.query(); }, watch);
    if (done) s.synchronize();  // reports an error of the finished work the same way synchronize() does
  }
  if (!done) watch.rethrow();
}

void interruptible_sync(const rt::event& e) {
  signal_watch watch;
  bool done;
  {
    nb::gil_scoped_release g;
    done = wait_until([&] { return e.query(); }, watch);
    if (done) e.synchronize();
  }
  if (!done) watch.rethrow();
}

}  // namespace tegula::bind
