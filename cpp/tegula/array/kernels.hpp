// Compiled array kernels: built once per key (IR -> passes -> CUDA -> NVRTC, or IR for the CPU
// interpreter), cached for the process (NVRTC output also on disk, jit/), and launched.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "tegula/array/storage.hpp"
#include "tegula/ir/ir.hpp"

namespace tegula::rt {
class kernel;
}

namespace tegula::array {

// One kernel argument: a 1-, 2- or 3-D array view, or a scalar of the parameter's dtype.
struct kernel_array {
  std::uintptr_t address = 0;
  ir::dtype t = ir::dtype::f32;
  int rank = 1;                               // 1, 2 or 3
  std::int64_t shape[3] = {0, 0, 0}, strides[3] = {0, 0, 0};  // elements
  bool contiguous = true, aligned = true;     // the codegen specialization (part of the key)
};
struct kernel_scalar {
  ir::dtype t = ir::dtype::f32;
  double f = 0;
  std::int64_t i = 0;
};
using kernel_arg = std::variant<kernel_array, kernel_scalar>;

struct array_kernel {
  ir::function fn;  // post-pass IR (what the interpreter runs and codegen consumed)
  std::shared_ptr<rt::kernel> gpu;
  unsigned threads = 0, shared = 0;
  std::string source;  // generated CUDA (empty for the CPU)
  // Per array argument, what the code was specialised for: bit 0 its last axis is contiguous, bit 1 it is
  // 16-byte aligned (codegen/cuda.hpp). run_kernel checks every launch's arrays against them.
  std::vector<unsigned char> layouts;
};

struct kernel_stats {
  std::uint64_t builds = 0, hits = 0, launches = 0;
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
// Runs `k` over `grid` blocks: on the array stream of `gpu`, or on the interpreter (cpu).
void run_kernel(const array_kernel& k, device_kind device, rt::device* gpu, const std::vector<kernel_arg>& args,
                std::int64_t grid);

// The most recent kernel built or run, for tegula.numpy's introspection (last_kernel()).
const array_kernel* last_kernel();

}  // namespace tegula::array
