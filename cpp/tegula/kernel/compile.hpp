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
#include "tegula/kernel/translate.hpp"

namespace tegula::rt {
class device;
class kernel;
class object_code;
}  // namespace tegula::rt

namespace tegula::kernel {

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

// translate(fn, t, the device's arch or 0) and, for a GPU target, its cubin through the jit caches (compile_image,
// image.hpp), loaded: the >48 KiB dynamic shared memory opt-in is set, and a clustered kernel that cannot fit one
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
  // get() without waiting for NVRTC (issue #26): the kernel for `key` if it is built, or if its cubin is in the jit
  // caches (translated and loaded now: passes, codegen and a file read); else null, with its NVRTC compile and load
  // queued once on the background pool (background.hpp), which stores it here when done. A GPU target only. A
  // get() of a key in flight waits for it instead of compiling again; a background compile that failed is
  // compiled again by the next get(), which raises its error.
  const compiled* get_or_start(const std::string& key, const std::function<ir::function()>& make_ir, const target& t);
  // Keys whose compile is queued or running in the background.
  std::size_t in_flight() const;
  std::size_t size() const;

 private:
  struct flight;
  mutable std::mutex m_;
  std::unordered_map<std::string, std::shared_ptr<const compiled>> entries_;  // node-based: stable
  std::unordered_map<std::string, std::shared_ptr<flight>> flights_;
  const compiled& store(const std::string& key, std::shared_ptr<const compiled> c);
};

}  // namespace tegula::kernel
