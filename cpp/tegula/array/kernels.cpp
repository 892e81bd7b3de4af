// The array kernel cache and launcher over the kernel module (see kernels.hpp).
#include "tegula/array/kernels.hpp"

#include <algorithm>
#include <atomic>
#include <mutex>

#include "tegula/array/storage.hpp"
#include "tegula/kernel/launch.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/support/error.hpp"

namespace tegula::array {
namespace {

struct cache {
  kernel::cache kernels;
  std::atomic<const array_kernel*> last{nullptr};
  std::atomic<bool> recording{false};
  std::mutex record_mutex;
  std::vector<const array_kernel*> record;  // distinct, in order of first use (set_recording)
};
cache& the_cache() {
  static auto* c = new cache();  // leaked: kernels must outlive every array at exit
  return *c;
}

void note_used(cache& c, const array_kernel* k) {
  c.last.store(k, std::memory_order_relaxed);
  if (!c.recording.load(std::memory_order_relaxed)) return;
  std::lock_guard<std::mutex> lock(c.record_mutex);
  if (std::find(c.record.begin(), c.record.end(), k) == c.record.end()) c.record.push_back(k);
}

// What the code is specialised for (kernel_array's flags), as one key character.
char declared_layout(const kernel_array& x) { return static_cast<char>('0' + (x.contiguous ? 1 : 0) + (x.aligned ? 2 : 0)); }

}  // namespace

kernel_stats& stats() {
  static kernel_stats s;
  return s;
}

const array_kernel* last_kernel() {
  return the_cache().last.load(std::memory_order_relaxed);
}

void set_recording(bool on) {
  cache& c = the_cache();
  std::lock_guard<std::mutex> lock(c.record_mutex);
  if (on) c.record.clear();
  c.recording.store(on, std::memory_order_relaxed);
}

std::vector<const array_kernel*> recorded() {
  cache& c = the_cache();
  std::lock_guard<std::mutex> lock(c.record_mutex);
  return c.record;
}

kernel::target kernel_target(const std::vector<codegen::array_spec>& layouts, rt::device* gpu) {
  kernel::target t;
  t.device = gpu;
  t.arrays = layouts;
  t.long_bodies_fewer_groups = true;  // long fused graphs keep their values in registers
  t.program_name = "tegula_array.cu";
  t.made_by = jit::component::array;
  return t;
}

kernel::translation translate_for(const array_kernel& k, int arch) {
  return kernel::generate(k.fn, kernel_target(k.arrays, nullptr), arch);
}

const std::string& full_key(const std::string& key, const std::vector<kernel_arg>& args) {
  // The key plus every array's layout flags: the code differs with them (a complex result's part views are
  // contiguous only when it has one column, which the plan's key does not say, say).
  thread_local std::string full;
  full.assign(key);
  for (const auto& a : args)
    if (auto* x = std::get_if<kernel_array>(&a)) full += declared_layout(*x);
  return full;
}

const array_kernel* ready_kernel(const std::string& full, rt::device* gpu, const std::function<ir::function()>& make_ir,
                                 const std::vector<kernel_arg>& args) {
  phase_timer lookup(stats().lookup_ns);
  cache& c = the_cache();
  const array_kernel* k = c.kernels.find(full);
  if (!k) {
    lookup.stop();
    phase_timer building(stats().build_ns);
    k = c.kernels.get_or_start(full, make_ir, kernel_target(kernel::declared_layouts(args), gpu));
    if (k) ++stats().builds;  // from the disk cache
    else ++stats().background_starts;
  } else {
    ++stats().hits;
  }
  if (k) note_used(c, k);
  return k;
}

std::size_t compiles_in_flight() { return the_cache().kernels.in_flight(); }

const array_kernel& get_kernel(const std::string& key, device_kind device, rt::device* gpu,
                               const std::function<ir::function()>& make_ir, const std::vector<kernel_arg>& args) {
  phase_timer lookup(stats().lookup_ns);
  const std::string& full = full_key(key, args);
  cache& c = the_cache();
  const array_kernel* k = c.kernels.find(full);
  if (k) {
    ++stats().hits;
  } else {
    ++stats().builds;
    lookup.stop();
    phase_timer building(stats().build_ns);
    k = &c.kernels.get(full, make_ir,
                       kernel_target(kernel::declared_layouts(args), device == device_kind::cpu ? nullptr : gpu));
  }
  note_used(c, k);
  return *k;  // the cache keeps it for the process
}

void run_kernel(const array_kernel& k, device_kind device, rt::device* gpu, const std::vector<kernel_arg>& args,
                std::int64_t grid) {
  ++stats().launches;
  if (grid <= 0) return;
  if (grid > 2147483647) fail(error_kind::invalid_argument, "array too large for one kernel launch (", grid, " blocks)");
  if (device == device_kind::cpu) {
    // The launch phase is the checks; the interpreter's run of the kernel is the kernel's time, not the launch's.
    {
      phase_timer launching(stats().launch_ns);
      kernel::check(k, args, {grid, 1, 1});
    }
    kernel::launch(k, args, {grid, 1, 1}, nullptr);
    return;
  }
  phase_timer launching(stats().launch_ns);
  kernel::launch(k, args, {grid, 1, 1}, &array_stream(*gpu));
}

}  // namespace tegula::array
