// Array kernels: the array engine's key cache over the kernel module (kernel/: compile, launch), with its stats.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "tegula/array/storage.hpp"
#include "tegula/ir/ir.hpp"
#include "tegula/kernel/arguments.hpp"
#include "tegula/kernel/compile.hpp"

namespace tegula::array {

// One kernel argument: a 1-, 2- or 3-D array view, or a scalar of the parameter's dtype (the kernel module's).
using kernel_array = kernel::array_arg;
using kernel_scalar = kernel::scalar_arg;
using kernel_arg = kernel::argument;

// An array kernel is a compiled kernel of the kernel module (kernel/compile.hpp): its post-pass IR (`fn`), and on
// the GPU its source, module and launch configuration.
using array_kernel = kernel::compiled;

struct kernel_stats {
  std::uint64_t builds = 0, hits = 0, launches = 0;
  // The array VM (vm.hpp): its launches (counted in `launches` too), and fused kernels whose compile a first run
  // started in the background instead of waiting for it.
  std::uint64_t vm_launches = 0, background_starts = 0;
  // Host time of the engine's phases, in nanoseconds: planning (make_plan, every attempt), the kernel cache's
  // lookups that hit, builds (IR, passes, codegen, NVRTC), and launches (argument packing and the driver call; on
  // the CPU without the interpreter's run of the kernel). bench/probe_loops.py divides them by the launches.
  std::uint64_t plan_ns = 0, lookup_ns = 0, build_ns = 0, launch_ns = 0;
};
kernel_stats& stats();

// Adds the nanoseconds of its scope to `total` (one of kernel_stats' phase times).
class phase_timer {
 public:
  explicit phase_timer(std::uint64_t& total) : total_(total), start_(std::chrono::steady_clock::now()) {}
  ~phase_timer() { stop(); }
  void stop() {
    if (stopped_) return;
    stopped_ = true;
    total_ += static_cast<std::uint64_t>(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - start_).count());
  }
  phase_timer(const phase_timer&) = delete;
  phase_timer& operator=(const phase_timer&) = delete;

 private:
  std::uint64_t& total_;
  std::chrono::steady_clock::time_point start_;
  bool stopped_ = false;
};

// The kernel for `key` on `device` (for cuda: `gpu`), building it with `make_ir` on a miss.
// `args` gives the codegen its per-array specialization (contiguous last axis, 16-byte alignment); the cache
// key is `key` plus those flags, so a caller's key cannot miss them.
const array_kernel& get_kernel(const std::string& key, device_kind device, rt::device* gpu,
                               const std::function<ir::function()>& make_ir, const std::vector<kernel_arg>& args);
// `key` plus the layout flags of `args`' arrays: the kernel cache's key (valid until the next call on this thread).
const std::string& full_key(const std::string& key, const std::vector<kernel_arg>& args);
// The GPU kernel for full key `full` if it is compiled or in the disk cache (loaded now), else null with its compile
// started in the background (kernel::cache::get_or_start): the array VM runs the expression meanwhile.
const array_kernel* ready_kernel(const std::string& full, rt::device* gpu, const std::function<ir::function()>& make_ir,
                                 const std::vector<kernel_arg>& args);
// Array kernels compiling in the background now.
std::size_t compiles_in_flight();
// Runs `k` over `grid` blocks: on the array stream of `gpu`, or on the interpreter (cpu).
void run_kernel(const array_kernel& k, device_kind device, rt::device* gpu, const std::vector<kernel_arg>& args,
                std::int64_t grid);

// The most recent kernel built or run, for tegula.numpy's introspection (last_kernel()).
const array_kernel* last_kernel();

// While recording (off by default), every distinct kernel built or run is kept in order of first use: the build's
// prebuild step runs tegula.numpy's fixed helper expressions (mask positions) on the interpreter and packages the
// kernels they used (numpy/_prebuild.py). set_recording(true) starts a fresh record; recorded() reads it.
void set_recording(bool on);
std::vector<const array_kernel*> recorded();

// The kernel module's target for an array kernel specialised for `layouts` on `gpu` (null: the interpreter):
// what get_kernel compiles with.
kernel::target kernel_target(const std::vector<codegen::array_spec>& layouts, rt::device* gpu);

// `k`'s code for `arch` as the engine generates it (kernel::generate of its post-pass IR with kernel_target's
// options), with no GPU: what tegula.explain(x) shows, compiled on the GPU or interpreted.
kernel::translation translate_for(const array_kernel& k, int arch);

}  // namespace tegula::array
