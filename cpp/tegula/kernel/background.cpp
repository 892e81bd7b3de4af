// The background compile pool (see background.hpp).
#include "tegula/kernel/background.hpp"

#include <algorithm>
#include <condition_variable>
#include <cstdlib>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace tegula::kernel::background {
namespace {

struct pool {
  std::mutex m;
  std::condition_variable work, idle;
  std::deque<std::function<void()>> queue;
  int busy = 0;
  bool started = false;
  bool closing = false;  // the process is exiting: queued tasks are dropped
  std::vector<std::thread> threads;

  void run() {
    for (;;) {
      std::function<void()> task;
      {
        std::unique_lock<std::mutex> lock(m);
        work.wait(lock, [&] { return !queue.empty() && !closing; });
        task = std::move(queue.front());
        queue.pop_front();
        ++busy;
      }
      task();
      {
        std::lock_guard<std::mutex> lock(m);
        --busy;
        if ((queue.empty() || closing) && busy == 0) idle.notify_all();
      }
    }
  }
};

pool& the_pool() {
  static auto* p = new pool();  // leaked: its threads run until the process exits
  return *p;
}

// At exit, queued compiles are dropped and running ones finished, so no worker is inside NVRTC or the driver
// while their libraries are torn down.
void close_at_exit() {
  pool& p = the_pool();
  std::unique_lock<std::mutex> lock(p.m);
  p.closing = true;
  p.queue.clear();
  p.idle.wait(lock, [&] { return p.busy == 0; });
}

}  // namespace

int workers() {
  const unsigned hw = std::thread::hardware_concurrency();
  return std::clamp(static_cast<int>(hw) - 1, 1, 16);
}

void submit(std::function<void()> task) {
  pool& p = the_pool();
  std::lock_guard<std::mutex> lock(p.m);
  if (p.closing) return;
  if (!p.started) {
    p.started = true;
    std::atexit(close_at_exit);
    for (int i = 0; i < workers(); ++i) {
      p.threads.emplace_back([&p] { p.run(); });
      p.threads.back().detach();
    }
  }
  p.queue.push_back(std::move(task));
  p.work.notify_one();
}

void wait_idle() {
  pool& p = the_pool();
  std::unique_lock<std::mutex> lock(p.m);
  p.idle.wait(lock, [&] { return (p.queue.empty() || p.closing) && p.busy == 0; });
}

int pending() {
  pool& p = the_pool();
  std::lock_guard<std::mutex> lock(p.m);
  return static_cast<int>(p.queue.size()) + p.busy;
}

}  // namespace tegula::kernel::background
