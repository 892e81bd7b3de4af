// What the CUB-backed algorithms share: finding the CCCL headers, compiling CUB code with NVRTC through the JIT
// cache, and packing kernel arguments at the offsets the compiled image gives.
#pragma once
#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "tegula/jit/nvrtc.hpp"
#include "tegula/runtime/launch.hpp"
#include "tegula/runtime/module.hpp"
#include "tegula/support/error.hpp"

namespace tegula::rt {
class object_code;
}  // namespace tegula::rt

namespace tegula::libs {

// The CCCL include folder (holding cub/ and cuda/std/) of the CUDA toolkit or NVIDIA's pip wheels; throws
// driver_missing naming the folders searched when there is none.
std::string cccl_include_dir();

// The NVRTC request of a library kernel: CUDA `source` for sm_<arch> with the kernels' name expressions, named
// `label` in the cache and the profile; with_cccl adds the CCCL headers to the include path. compile_nvrtc and
// the prebuilt library (prebuilt_library.hpp) make their requests here, so the package's entries are the ones asked.
jit::compile_request library_request(const std::string& source, const std::vector<std::string>& names, int arch,
                                     const std::string& label, bool with_cccl);
// CUB code's request: library_request with the CCCL headers, labelled by its first kernel.
jit::compile_request cub_request(const std::string& source, const std::vector<std::string>& names, int arch);
// Compiles library_request(...) through the memory and disk caches (and the package's prebuilt entries).
std::shared_ptr<rt::object_code> compile_nvrtc(const std::string& source, const std::vector<std::string>& names,
                                               int arch, const std::string& label, bool with_cccl);
// Compiles `source` (which includes CUB headers) for sm_<arch> with the kernels' name expressions, through the
// memory and disk caches.
std::shared_ptr<rt::object_code> compile_cub(const std::string& source, const std::vector<std::string>& names, int arch);

rt::launch_config cub_launch_config(unsigned grid, unsigned threads);

// The kernels of one library module for `key` (an arch and whatever picks the instantiation), built by `build()`
// the first time the key is asked for and kept for the life of the process. Each call site (each `Build` type, a
// lambda) has its own cache; a build that throws leaves nothing behind, so the next call tries again.
template <class Kernels, class Key, class Build>
const Kernels& kernels_once(const Key& key, Build&& build) {
  static std::mutex m;
  static auto* cache = new std::map<Key, std::unique_ptr<const Kernels>>();  // never destroyed: used at exit
  std::lock_guard<std::mutex> g(m);
  auto& slot = (*cache)[key];
  if (!slot) slot = std::make_unique<const Kernels>(build());
  return *slot;
}

// Kernel arguments in order, each checked against the parameter's size in the image. Parameters left over
// (CUB's empty decomposer structs) stay zero.
class cub_params {
 public:
  explicit cub_params(rt::kernel& k);
  template <class T>
  cub_params& operator<<(const T& v) {
    put(&v, sizeof(T));
    return *this;
  }
  rt::param_buffer& buffer() { return buf_; }

 private:
  void put(const void* bytes, std::size_t n);
  rt::kernel& k_;
  rt::param_buffer buf_;
  std::size_t next_ = 0;
};

}  // namespace tegula::libs
