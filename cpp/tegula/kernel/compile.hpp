// The one compile driver: IR -> passes -> (CPU: the interpreter's IR) or codegen -> NVRTC -> module + launch config.
#pragma once
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "tegula/codegen/cuda.hpp"
#include "tegula/ir/ir.hpp"
#include "tegula/jit/compiler.hpp"

namespace tegula::rt {
class device;
class kernel;
class object_code;
}  // namespace tegula::rt

namespace tegula::kernel {

// Where and how a kernel is compiled. A null device is the CPU interpreter (no codegen, no NVRTC).
struct target {
  rt::device* device = nullptr;
  std::vector<codegen::array_spec> arrays;  // per array parameter: its declared layout (arguments.hpp)
  int stages = 0;                           // tensor-core pipeline stages (0: as many as fit)
  int cluster = 1;                          // tensor-core blocks per cluster (1 or 2)
  bool long_bodies_fewer_groups = false;    // the array engine's codegen option (codegen/cuda.hpp)
  std::string program_name;                 // NVRTC's program name; "" -> "<kernel name>.cu"
  jit::component made_by = jit::component::other;  // who the disk cache lists as the entry's maker (tile, array)
  bool keep_stages = false;                 // keep the printed IR after every pass (compiled::stages)
  bool dump_locations = false;              // ... with source locations
  // NVRTC behind the jit caches; the Python bindings pass one that Ctrl-C interrupts. Null: jit::compile.
  std::function<std::shared_ptr<const jit::compiled>(const jit::compile_request&)> nvrtc;
};

// One compiled kernel: immutable once built, shared by every launch of it.
struct compiled {
  ir::function fn;  // post-pass IR: what the interpreter runs and codegen consumed
  std::vector<std::pair<std::string, std::string>> stages;  // (stage, printed IR) when target::keep_stages
  std::vector<codegen::array_spec> arrays;                  // the layouts the code is specialised for
  bool on_gpu = false;
  // GPU only:
  int arch = 0;
  codegen::kernel_source source;  // CUDA text, block threads, dynamic shared bytes, tensor maps, persistent, cluster
  std::shared_ptr<rt::object_code> code;
  std::shared_ptr<rt::kernel> gpu;
  rt::device* device = nullptr;   // the device its attributes (shared memory opt-in) were set on
  int max_blocks = 0;             // a persistent kernel's most blocks at once: the SMs, or the clusters that fit
  std::string compile_outcome;    // "memory", "disk" or "compiled" (jit::outcome_name)
};

// Runs the pass pipeline on `fn` (pre-pass IR) and, for a GPU target, generates CUDA, compiles it through the jit
// caches and loads it: the >48 KiB dynamic shared memory opt-in is set, and a clustered kernel that cannot fit one
// cluster is an invalid_argument naming it. Throws what the passes, codegen and NVRTC throw.
std::shared_ptr<const compiled> compile(const ir::function& fn, const target& t);

// Compiled kernels by key, built on a miss (an in-process cache; NVRTC output is also cached on disk by jit).
// Thread-safe; entries live as long as the cache.
class cache {
 public:
  // The kernel for `key`, or null. Entries are never dropped: the pointer lives as long as the cache.
  const compiled* find(const std::string& key) const;
  // The kernel for `key`, compiling make_ir()'s IR for `t` on a miss (outside the lock: a slow compile does not
  // hold up other kernels; two threads may build the same key, the first stored wins). `built` says whether
  // this call compiled.
  const compiled& get(const std::string& key, const std::function<ir::function()>& make_ir, const target& t,
                      bool* built = nullptr);
  std::size_t size() const;

 private:
  mutable std::mutex m_;
  std::unordered_map<std::string, std::shared_ptr<const compiled>> entries_;  // node-based: stable
};

}  // namespace tegula::kernel
