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
  std::deque<std::function<void(bool)>> queue;
  int busy = 0;
  bool started = false;
  bool closing = false;  // the process is exiting: queued tasks are dropped
  std::vector<std::thread> threads;

  void run() {
    for (;;) {
      std::function<void(bool)> task;
      {
        std::unique_lock<std::mutex> lock(m);
        work.wait(lock, [&] { return !queue.empty() && !closing; });
        task = std::move(queue.front());
        queue.pop_front();
        ++busy;
      }
      task(true);
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

void close_at_exit() { close(); }

}  // namespace

// std::atexit alone is not enough: it runs its handler after the destructors of every static constructed after the
// first submit (a worker's first compile constructs some, e.g. the profiler's compile log), and a worker still
// compiling then writes to a destroyed object (a segfault at exit, seen on the H100 in session 24 when a process
// exited with compiles running). Python's atexit runs before any static is destroyed.
void close() {
  pool& p = the_pool();
  std::deque<std::function<void(bool)>> dropped;
  {
    std::unique_lock<std::mutex> lock(p.m);
    p.closing = true;
    dropped.swap(p.queue);
  }
  for (auto& task : dropped) task(false);
  std::unique_lock<std::mutex> lock(p.m);
  p.idle.wait(lock, [&] { return p.busy == 0; });
}

int workers() {
  const unsigned hw = std::thread::hardware_concurrency();
  return std::clamp(static_cast<int>(hw) - 1, 1, 16);
}

void submit(std::function<void(bool)> task) {
  pool& p = the_pool();
  std::unique_lock<std::mutex> lock(p.m);
  if (p.closing) {
    lock.unlock();
    task(false);
    return;
  }
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
