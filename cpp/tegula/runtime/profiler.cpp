// The profiler's recorder (see profiler.hpp). While recording, a launch costs one compact entry (no strings, no
// reference counts): kernel names are interned once per kernel, timing events live in one table per profile and
// entries refer to them by index. stop() turns the entries into records. GPU timing uses a pool of timing events,
// one pair per timed launch, resolved into durations when the profile stops.
#include "tegula/runtime/profiler.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <map>
#include <mutex>
#include <unordered_map>
#if defined(__x86_64__)
#include <x86intrin.h>
#endif

#include "tegula/runtime/device.hpp"
#include "tegula/runtime/event.hpp"
#include "tegula/runtime/launch.hpp"
#include "tegula/runtime/module.hpp"
#include "tegula/runtime/stream.hpp"

namespace tegula::rt::prof {
namespace {

std::atomic<bool> on{false};

constexpr std::uint32_t none = static_cast<std::uint32_t>(-1);

// One recorded event while the profile runs; names and events by index (see state).
struct entry {
  kind what = kind::launch;
  std::uint32_t name = none, detail = none;
  int device = -1;
  std::array<unsigned, 3> grid{0, 0, 0}, block{0, 0, 0};
  unsigned shared = 0;
  std::uint64_t bytes = 0;
  std::uint64_t start_tick = 0, end_tick = 0;  // host clock ticks (end 0: not measured)
  double fixed_us = -1;                         // a duration known in microseconds (compiles): start = end - it
  std::uint32_t ev0 = none, ev1 = none;
};

// A kernel seen in this profile: its interned name and its launches so far.
struct kernel_seen {
  std::uint32_t name;
  std::uint64_t launches;
};

struct state {
  std::mutex m;
  bool gpu_timing = true;
  std::uint64_t time_every = 1, timed_first = 4;
  std::uint64_t generation = 0;  // counts start()s: a scope from an earlier profile never touches a later one
  std::chrono::steady_clock::time_point t0;
  std::uint64_t tick0 = 0;  // ticks() at start(); stop() converts ticks to microseconds by the two clocks' ratio
  std::vector<entry> entries;
  std::vector<std::string> names;                         // interned names of this profile
  std::unordered_map<std::string, std::uint32_t> name_ids;  // name -> index in names
  std::unordered_map<const kernel*, kernel_seen> kernels;
  std::vector<std::pair<std::shared_ptr<event>, int>> events;  // this profile's timing events and their devices
  std::map<int, std::vector<std::shared_ptr<event>>> pool;  // free timing events per device
  std::map<int, std::pair<std::uint32_t, std::uint64_t>> origin;  // per device: its first event, its host tick
};

state& the() {
  static auto* s = new state();  // leaked: events must not be destroyed after the driver unloads
  return *s;
}

thread_local std::uint64_t pending_bytes = 0;

// The host clock of the records: the time-stamp counter on x86-64 (a few ns to read, where a steady_clock read can
// cost a system call on some virtual machines), else steady_clock's nanoseconds.
std::uint64_t ticks() {
#if defined(__x86_64__)
  return __rdtsc();
#else
  return static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(
                                        std::chrono::steady_clock::now().time_since_epoch()).count());
#endif
}

// The index of `name` among this profile's names (caller holds the lock).
std::uint32_t intern(state& s, const std::string& name) {
  auto [it, added] = s.name_ids.try_emplace(name, static_cast<std::uint32_t>(s.names.size()));
  if (added) s.names.push_back(name);
  return it->second;
}

// This profile's record of kernel `k`. A kernel freed during the profile may leave its address to a new one, so a
// hit also compares names.
kernel_seen& seen(state& s, const kernel& k) {
  auto it = s.kernels.find(&k);
  if (it == s.kernels.end() || s.names[it->second.name] != k.name())
    it = s.kernels.insert_or_assign(&k, kernel_seen{intern(s, k.name()), 0}).first;
  return it->second;
}

// Records a timing event of the stream's device (one from the pool when there is one); returns its index.
std::uint32_t record_event(state& s, const stream& st) {
  device& dev = st.dev();
  auto& free = s.pool[dev.ordinal()];
  std::shared_ptr<event> e;
  if (!free.empty()) {
    e = std::move(free.back());
    free.pop_back();
  } else {
    e = event::create(dev, true, false);
  }
  e->record(st);
  s.events.emplace_back(std::move(e), dev.ordinal());
  return static_cast<std::uint32_t>(s.events.size() - 1);
}

// The first half of an event pair on `st`; the device's origin event is recorded first, once.
std::uint32_t begin_timing(state& s, const stream& st, std::uint64_t host_now) {
  const int d = st.dev().ordinal();
  if (s.origin.find(d) == s.origin.end()) s.origin[d] = {record_event(s, st), host_now};
  return record_event(s, st);
}

// Appends an entry of the current profile (caller holds the lock); returns its index and sets its generation.
std::size_t add(state& s, const entry& e, std::uint64_t& generation) {
  generation = s.generation;
  s.entries.push_back(e);
  return s.entries.size() - 1;
}

// Closes a scope's entry: its host time and, when it is GPU-timed, the second event on its stream. Nothing when
// the profile it belongs to has ended meanwhile.
void finish(std::size_t index, std::uint64_t generation, const stream* st) {
  const std::uint64_t end = ticks();
  state& s = the();
  std::lock_guard<std::mutex> g(s.m);
  if (generation != s.generation || index >= s.entries.size()) return;
  entry& e = s.entries[index];
  e.end_tick = end;
  if (e.ev0 != none && st) e.ev1 = record_event(s, *st);
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
  s.entries.clear();
  s.entries.reserve(4096);
  s.names.clear();
  s.name_ids.clear();
  s.kernels.clear();
  s.events.clear();
  s.origin.clear();
  ++s.generation;
  s.gpu_timing = gpu_timing;
  s.time_every = static_cast<std::uint64_t>(std::max(1, time_every));
  s.timed_first = static_cast<std::uint64_t>(std::max(0, timed_first));
  s.t0 = std::chrono::steady_clock::now();
  s.tick0 = ticks();
  on.store(true, std::memory_order_release);
}

std::vector<record> stop() {
  state& s = the();
  on.store(false, std::memory_order_release);
  std::vector<entry> entries;
  std::vector<std::string> names;
  std::vector<std::pair<std::shared_ptr<event>, int>> events;
  std::map<int, std::pair<std::uint32_t, std::uint64_t>> origin;
  double us_per_tick = 0;
  std::uint64_t tick0 = 0;
  {
    std::lock_guard<std::mutex> g(s.m);
    const std::uint64_t t1 = ticks();
    const double us = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - s.t0).count();
    tick0 = s.tick0;
    us_per_tick = t1 > tick0 ? us / double(t1 - tick0) : 0.0;
    entries.swap(s.entries);
    names.swap(s.names);
    events.swap(s.events);
    origin.swap(s.origin);
    s.name_ids.clear();
    s.kernels.clear();
  }
  // One wait per device for all the timed work (not one per event), then only elapsed-time reads.
  std::vector<int> devices;
  for (const auto& e : entries)
    if (e.ev1 != none && std::find(devices.begin(), devices.end(), e.device) == devices.end())
      devices.push_back(e.device);
  for (int d : devices) device::get(d).synchronize();
  std::vector<record> out(entries.size());
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const entry& e = entries[i];
    record& r = out[i];
    r.what = e.what;
    if (e.name != none) r.name = names[e.name];
    if (e.detail != none) r.detail = names[e.detail];
    r.device = e.device;
    r.grid = e.grid, r.block = e.block, r.shared = e.shared;
    r.bytes = e.bytes;
    const auto at_us = [&](std::uint64_t t) { return t > tick0 ? double(t - tick0) * us_per_tick : 0.0; };
    r.start_us = at_us(e.start_tick);
    if (e.fixed_us >= 0) {
      r.host_us = e.fixed_us;
      r.start_us -= e.fixed_us;
    } else if (e.end_tick) {
      r.host_us = double(e.end_tick - e.start_tick) * us_per_tick;
    }
    if (e.ev0 == none || e.ev1 == none) continue;
    r.gpu_us = 1000.0 * event::elapsed_ms(*events[e.ev0].first, *events[e.ev1].first);
    auto o = origin.find(e.device);
    if (o != origin.end())
      r.gpu_start_us = at_us(o->second.second) + 1000.0 * event::elapsed_ms(*events[o->second.first].first, *events[e.ev0].first);
  }
  std::lock_guard<std::mutex> g(s.m);
  for (auto& [ev, dev] : events) s.pool[dev].push_back(std::move(ev));
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
  t0_ = ticks();
  kernel_seen& ks = seen(s, k);
  entry e;
  e.what = kind::launch;
  e.name = ks.name;
  e.device = st.dev().ordinal();
  e.grid = c.grid, e.block = c.block, e.shared = c.shared_mem;
  e.bytes = pending_bytes;
  pending_bytes = 0;
  e.start_tick = t0_;
  const std::uint64_t n = ++ks.launches;
  const bool timed = s.gpu_timing && (n <= s.timed_first || n % s.time_every == 0);
  if (timed) e.ev0 = begin_timing(s, st, t0_);
  index_ = add(s, e, generation_);
  // An untimed launch of a GPU-timed profile is done here: one lock and one clock read (its host_us stays 0). The
  // destructor closes timed launches (their second event) and, without GPU timing, measures the host call.
  if (timed || !s.gpu_timing) s_ = &st;
}

launch_scope::~launch_scope() {
  if (s_) finish(index_, generation_, s_);
}

host_scope::host_scope(kind what, std::string name, const stream* st, std::uint64_t bytes) {
  if (!active()) return;
  state& s = the();
  std::lock_guard<std::mutex> g(s.m);
  if (!active()) return;
  t0_ = ticks();
  entry e;
  e.what = what;
  e.name = intern(s, name);
  e.device = st ? st->dev().ordinal() : -1;
  e.bytes = bytes;
  e.start_tick = t0_;
  if (st && s.gpu_timing) e.ev0 = begin_timing(s, *st, t0_);
  index_ = add(s, e, generation_);
  s_ = st;
}

host_scope::~host_scope() {
  if (index_ != static_cast<std::size_t>(-1)) finish(index_, generation_, s_);
}

void record_compile(const std::string& name, double seconds, const char* outcome) {
  if (!active()) return;
  state& s = the();
  std::lock_guard<std::mutex> g(s.m);
  entry e;
  e.what = kind::compile;
  e.name = intern(s, name);
  e.fixed_us = seconds * 1e6;
  e.start_tick = ticks();
  e.detail = intern(s, outcome);
  s.entries.push_back(e);
}

void record_memory(kind what, std::uint64_t bytes, int device) {
  if (!active()) return;
  state& s = the();
  std::lock_guard<std::mutex> g(s.m);
  entry e;
  e.what = what;
  e.name = intern(s, kind_name(what));
  e.bytes = bytes;
  e.device = device;
  e.start_tick = ticks();
  s.entries.push_back(e);
}

}  // namespace tegula::rt::prof
