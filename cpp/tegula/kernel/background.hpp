// The background compile pool: kernels compiled off the caller's thread while the array VM runs their expressions
// (issue #26), several at once. Tasks run first come, first served on up to `workers()` threads.
#pragma once
#include <functional>

namespace tegula::kernel::background {

// Queues `task` (it must not throw: it records its own failure). Starts the workers on first use. A worker calls
// task(true); a task dropped at exit (close()), or submitted after it, is called task(false) on the closing thread,
// and must then only release whatever waits on it.
void submit(std::function<void(bool run)> task);
// Blocks until every task submitted so far has finished.
void wait_idle();
// Tasks queued or running.
int pending();
// At process exit: drops queued tasks, waits for running ones and refuses later submits, so no worker is inside
// NVRTC, the driver or a cache while the process tears them down. The bindings call it from Python's atexit (which
// runs before any C++ static is destroyed); std::atexit calls it too, for C++ programs. Idempotent.
void close();
// The pool's threads: the machine's hardware threads less one, at least 1 and at most 16.
int workers();

}  // namespace tegula::kernel::background
