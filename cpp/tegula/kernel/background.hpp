// The background compile pool: kernels compiled off the caller's thread while the array VM runs their expressions
// (issue #26), several at once. Tasks run first come, first served on up to `workers()` threads.
#pragma once
#include <functional>

namespace tegula::kernel::background {

// Queues `task` (it must not throw: it records its own failure). Starts the workers on first use.
void submit(std::function<void()> task);
// Blocks until every task submitted so far has finished.
void wait_idle();
// Tasks queued or running.
int pending();
// The pool's threads: the machine's hardware threads less one, at least 1 and at most 16.
int workers();

}  // namespace tegula::kernel::background
