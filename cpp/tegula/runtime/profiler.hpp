// The profiler's recorder: while active, every kernel launch (with GPU time from a pair of events), every
// interpreted kernel run, JIT compile, allocation, free and copy becomes a record. Inactive, each hook costs one
// relaxed atomic load. tegula.profile() (Python) starts and stops it and builds tables and traces from the records.
#pragma once
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tegula::rt {

class event;
class kernel;
class stream;
struct launch_config;

namespace prof {

enum class kind { launch, interpret, compile, alloc, free, copy, library };
const char* kind_name(kind k);

struct record {
  kind what = kind::launch;
  std::string name;       // kernel / program / library call; copies: "h2d", "d2h", "d2d"
  int device = -1;        // -1: the host (interpreter)
  std::array<unsigned, 3> grid{0, 0, 0}, block{0, 0, 0};
  unsigned shared = 0;    // dynamic shared memory, bytes
  std::uint64_t bytes = 0;  // moved by a launch when its caller knows, allocated, freed or copied
  double start_us = 0;      // host clock, microseconds since start()
  double host_us = 0;       // host time spent in the call (0 for a launch left untimed by GPU-timing sampling)
  double gpu_start_us = -1; // GPU timeline (µs since the device's first record), -1 when not timed
  double gpu_us = -1;       // GPU duration from events, -1 when not timed
  std::string detail;       // compile: "memory", "disk" or "compiled"
};

bool active() noexcept;
// Starts recording (clearing what an earlier profile left). gpu_timing records a pair of timing events around
// launches: around each of a kernel's first `timed_first` launches and then every `time_every`-th one (1: every
// launch). Untimed launches keep their host record (gpu_us -1; host_us 0, to keep them cheap). A timing event pair
// costs about 4.6 us of host time on the H200 machines and stops the GPU from overlapping one kernel's tail with the
// next one's start, so sampling keeps launch-bound loops near full speed; library calls and copies are always timed.
void start(bool gpu_timing = true, int time_every = 1, int timed_first = 4);
// Stops, waits for the timed work and returns the records in start order.
std::vector<record> stop();

// The bytes the next launch on this thread moves (the caller knows its arrays); consumed by that launch.
void note_bytes(std::uint64_t bytes);

// Brackets one GPU launch: events before and after on the launch stream when timing.
class launch_scope {
 public:
  launch_scope(const stream& s, const launch_config& c, const kernel& k);
  ~launch_scope();
  launch_scope(const launch_scope&) = delete;
  launch_scope& operator=(const launch_scope&) = delete;

 private:
  const stream* s_ = nullptr;
  std::size_t index_ = 0;
  std::uint64_t generation_ = 0;  // the profile this launch belongs to
  std::uint64_t t0_ = 0;  // host clock ticks
};

// Brackets host work (an interpreted kernel, a library call) by wall time; on a stream, also by GPU events.
class host_scope {
 public:
  host_scope(kind what, std::string name, const stream* s = nullptr, std::uint64_t bytes = 0);
  ~host_scope();
  host_scope(const host_scope&) = delete;
  host_scope& operator=(const host_scope&) = delete;

 private:
  const stream* s_ = nullptr;
  std::size_t index_ = static_cast<std::size_t>(-1);
  std::uint64_t generation_ = 0;
  std::uint64_t t0_ = 0;  // host clock ticks
};

void record_compile(const std::string& name, double seconds, const char* outcome);
void record_memory(kind what, std::uint64_t bytes, int device);

}  // namespace prof
}  // namespace tegula::rt
