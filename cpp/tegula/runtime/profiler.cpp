// The profiler's recorder (see profiler.hpp). Records live in one vector behind a mutex; GPU timing uses a
// pool of timing events, one pair per launch, resolved into durations when the profile stops.
#include "tegula/runtime/profiler.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <unordered_map>

#include "tegula/runtime/device.hpp"
#include "tegula/runtime/event.hpp"
#include "tegula/runtime/launch.hpp"
#include "tegula/runtime/module.hpp"
#include "tegula/runtime/stream.hpp"

namespace tegula::rt::prof {
namespace {

std::atomic<bool> on{false};

struct state {
  std::mutex m;
  bool gpu_timing = true;
  int time_every = 1, timed_first = 16;
  std::unordered_map<const kernel*, std::uint64_t> launches;  // per kernel, this profile's launches so far
  std::uint64_t generation = 0;  // counts start()s: a scope from an earlier profile never touches a later one
  std::chrono::steady_clock::time_point t0;
  std::vector<record> records;
  std::map<int, std::vector<std::shared_ptr<event>>> pool;  // free timing events per device
  std::map<int, std::pair<std::shared_ptr<event>, double>> origin;  // per device: first event, its host time
};

state& the() {
  static auto* s = new state();  // leaked: events must not be destroyed after the driver unloads
  return *s;
}

thread_local std::uint64_t pending_bytes = 0;

double now_us(const state& s) {
  return std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - s.t0).count();
}

// A timing event of `dev` from the pool (caller holds the lock).
std::shared_ptr<event> take(state& s, device& dev) {
  auto& free = s.pool[dev.ordinal()];
  if (!free.empty()) {
    auto e = std::move(free.back());
    free.pop_back();
    return e;
  }
  return event::create(dev, true, false);
}

// Records an event pair's first half on `st`; the device's origin event is recorded first, once.
std::shared_ptr<event> begin_timing(state& s, const stream& st, double host_now) {
  device& dev = st.dev();
  auto it = s.origin.find(dev.ordinal());
  if (it == s.origin.end()) {
    auto o = take(s, dev);
    o->record(st);
    s.origin[dev.ordinal()] = {o, host_now};
  }
  auto e = take(s, dev);
  e->record(st);
  return e;
}

// Appends a record of the current profile (caller holds the lock); returns its index and sets its generation.
std::size_t add(state& s, record&& r, std::uint64_t& generation) {
  generation = s.generation;
  s.records.push_back(std::move(r));
  return s.records.size() - 1;
}

// Closes a scope's record: its host time and, when it is GPU-timed, the second event on its stream. Nothing when
// the profile it belongs to has ended meanwhile.
void finish(std::size_t index, std::uint64_t generation, double t0, const stream* st) {
  state& s = the();
  std::lock_guard<std::mutex> g(s.m);
  if (generation != s.generation || index >= s.records.size()) return;
  record& r = s.records[index];
  r.host_us = now_us(s) - t0;
  if (r.ev0 && st) {
    r.ev1 = take(s, st->dev());
    r.ev1->record(*st);
  }
}

}  // namespace

const char* kind_name(kind k) {
  switch (k) {
    case kind::launch: return "launch";
    case kind::interpret: return "interpret";
    case kind::compile: return "compile";
    case kind::alloc: return "alloc";
    case kind::free: return "free";
    case kind::copy: return "copy";
    case kind::library: return "library";
  }
  return "?";
}

bool active() noexcept { return on.load(std::memory_order_relaxed); }

void start(bool gpu_timing, int time_every, int timed_first) {
  state& s = the();
  std::lock_guard<std::mutex> g(s.m);
  s.records.clear();
  s.origin.clear();
  s.launches.clear();
  ++s.generation;
  s.gpu_timing = gpu_timing;
  s.time_every = std::max(1, time_every);
  s.timed_first = std::max(0, timed_first);
  s.t0 = std::chrono::steady_clock::now();
  on.store(true, std::memory_order_release);
}

std::vector<record> stop() {
  state& s = the();
  on.store(false, std::memory_order_release);
  std::vector<record> out;
  std::map<int, std::pair<std::shared_ptr<event>, double>> origin;
  {
    std::lock_guard<std::mutex> g(s.m);
    out.swap(s.records);
    origin.swap(s.origin);
  }
  // One wait per device for all the timed work (not one per event), then only elapsed-time reads.
  std::vector<int> devices;
  for (const auto& r : out)
    if (r.ev1 && std::find(devices.begin(), devices.end(), r.device) == devices.end()) devices.push_back(r.device);
  for (int d : devices) device::get(d).synchronize();
  for (auto& r : out) {
    if (!r.ev0 || !r.ev1) continue;
    r.gpu_us = 1000.0 * event::elapsed_ms(*r.ev0, *r.ev1);
    auto o = origin.find(r.device);
    if (o != origin.end()) r.gpu_start_us = o->second.second + 1000.0 * event::elapsed_ms(*o->second.first, *r.ev0);
  }
  std::lock_guard<std::mutex> g(s.m);
  for (auto& r : out) {
    if (r.ev0) s.pool[r.device].push_back(std::move(r.ev0));
    if (r.ev1) s.pool[r.device].push_back(std::move(r.ev1));
  }
  for (auto& [dev, o] : origin) s.pool[dev].push_back(std::move(o.first));
  return out;
}

void note_bytes(std::uint64_t bytes) {
  if (active()) pending_bytes = bytes;
}

launch_scope::launch_scope(const stream& st, const launch_config& c, const kernel& k) {
  if (!active()) return;
  state& s = the();
  std::lock_guard<std::mutex> g(s.m);
  if (!active()) return;
  t0_ = now_us(s);
  record r;
  r.what = kind::launch;
  r.name = k.name();
  r.device = st.dev().ordinal();
  r.grid = c.grid, r.block = c.block, r.shared = c.shared_mem;
  r.bytes = pending_bytes;
  pending_bytes = 0;
  r.start_us = t0_;
  const std::uint64_t n = ++s.launches[&k];
  if (s.gpu_timing && (n <= std::uint64_t(s.timed_first) || n % std::uint64_t(s.time_every) == 0))
    r.ev0 = begin_timing(s, st, t0_);
  index_ = add(s, std::move(r), generation_);
  s_ = &st;
}

launch_scope::~launch_scope() {
  if (s_) finish(index_, generation_, t0_, s_);
}

host_scope::host_scope(kind what, std::string name, const stream* st, std::uint64_t bytes) {
  if (!active()) return;
  state& s = the();
  std::lock_guard<std::mutex> g(s.m);
  if (!active()) return;
  t0_ = now_us(s);
  record r;
  r.what = what;
  r.name = std::move(name);
  r.device = st ? st->dev().ordinal() : -1;
  r.bytes = bytes;
  r.start_us = t0_;
  if (st && s.gpu_timing) r.ev0 = begin_timing(s, *st, t0_);
  index_ = add(s, std::move(r), generation_);
  s_ = st;
}

host_scope::~host_scope() {
  if (index_ != static_cast<std::size_t>(-1)) finish(index_, generation_, t0_, s_);
}

void record_compile(const std::string& name, double seconds, const char* outcome) {
  if (!active()) return;
  state& s = the();
  std::lock_guard<std::mutex> g(s.m);
  record r;
  r.what = kind::compile;
  r.name = name;
  r.host_us = seconds * 1e6;
  r.start_us = now_us(s) - r.host_us;
  r.detail = outcome;
  s.records.push_back(std::move(r));
}

void record_memory(kind what, std::uint64_t bytes, int device) {
  if (!active()) return;
  state& s = the();
  std::lock_guard<std::mutex> g(s.m);
  record r;
  r.what = what;
  r.name = kind_name(what);
  r.bytes = bytes;
  r.device = device;
  r.start_us = now_us(s);
  s.records.push_back(std::move(r));
}

}  // namespace tegula::rt::prof
