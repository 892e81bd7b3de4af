// The background compile pool (kernel/background.hpp): tasks run on workers; at exit close() waits for running
// tasks and hands queued ones, and any submitted later, task(false) so that what waits on them is released.
// ctest runs each test in its own process, so close() here does not close the pool for another test.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "tegula/kernel/background.hpp"

namespace bg = tegula::kernel::background;

TEST(KernelBackground, RunsTasksAndWaitsForThem) {
  std::atomic<int> ran{0};
  for (int i = 0; i < 20; ++i) bg::submit([&](bool run) { if (run) ++ran; });
  bg::wait_idle();
  EXPECT_EQ(ran.load(), 20);
  EXPECT_EQ(bg::pending(), 0);
}

TEST(KernelBackground, CloseFinishesRunningTasksAndReleasesQueuedOnes) {
  std::atomic<int> ran{0}, dropped{0}, finished{0};
  std::atomic<bool> started{false};
  const int n = bg::workers() + 8;  // more tasks than workers: some are still queued when close() runs
  for (int i = 0; i < n; ++i)
    bg::submit([&](bool run) {
      if (!run) {
        ++dropped;
        return;
      }
      ++ran;
      started = true;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      ++finished;
    });
  while (!started) std::this_thread::yield();
  bg::close();
  EXPECT_EQ(ran.load(), finished.load());  // no task is still running once close() returns
  EXPECT_EQ(ran.load() + dropped.load(), n);
  EXPECT_GT(dropped.load(), 0);
  bool late = true;
  bg::submit([&](bool run) { late = run; });  // after close: called at once, not run
  EXPECT_FALSE(late);
  bg::wait_idle();  // returns: nothing runs any more
  bg::close();      // idempotent
}
