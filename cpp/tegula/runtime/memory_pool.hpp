// Memory pool: a stream-ordered caching allocator over a cuMemPool owned by tegula.
#pragma once
#include <cuda.h>

#include <cstddef>

namespace tegula::rt {

class device;

// The pool keeps freed memory (release threshold = max) so that alloc/free in a loop costs no
// cudaMalloc. It is tegula's own pool, not the device's default one, so PyTorch's and CuPy's
// settings are untouched.
class memory_pool {
 public:
  explicit memory_pool(device& dev);
  ~memory_pool();
  // Stream-ordered allocation. On out-of-memory the pool trims its cached blocks and retries
  // once; then throws error_kind::out_of_memory saying how much was asked and what is free.
  CUdeviceptr allocate(std::size_t size, CUstream stream);
  void deallocate(CUdeviceptr ptr, CUstream stream);
  std::size_t reserved_bytes() const;  // held from the device (used + cached)
  std::size_t used_bytes() const;      // handed out and not yet freed
  void trim(std::size_t keep_bytes = 0);

 private:
  device& dev_;
  CUmemoryPool pool_ = nullptr;
};

}  // namespace tegula::rt
