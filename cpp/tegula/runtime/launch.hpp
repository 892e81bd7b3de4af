// Kernel launch: a validated launch configuration and parameters packed at the kernel's offsets.
#pragma once
#include <array>
#include <cstddef>
#include <cstring>
#include <vector>

namespace tegula::rt {

class kernel;
class stream;

struct launch_config {
  std::array<unsigned, 3> grid{1, 1, 1};
  std::array<unsigned, 3> block{1, 1, 1};
  std::array<unsigned, 3> cluster{1, 1, 1};  // thread-block clusters (sm_90); 1x1x1 = none
  unsigned shared_mem = 0;                   // dynamic shared memory per block, bytes
  bool cooperative = false;                  // grid-wide synchronisation allowed
  // invalid_argument for zero or over-limit dimensions, naming which.
  void validate() const;
};

// Holds one launch's parameter bytes. The layout (offsets, sizes) comes from the kernel image, so
// a by-value struct, an int32 and a pointer land where the compiled kernel reads them.
class param_buffer {
 public:
  explicit param_buffer(std::size_t bytes) {
    if (bytes > sizeof small_) big_.resize(bytes);
    size_ = bytes;
  }
  unsigned char* data() { return big_.empty() ? small_ : big_.data(); }
  std::size_t size() const { return size_; }
  void put(std::size_t offset, const void* bytes, std::size_t n) { std::memcpy(data() + offset, bytes, n); }

 private:
  alignas(16) unsigned char small_[512];
  std::vector<unsigned char> big_;
  std::size_t size_ = 0;
};

// Launches `k` on `s`. Launch errors name the kernel and the configuration.
void launch(const stream& s, const launch_config& config, kernel& k, param_buffer& params);

// Benchmark floor: `n` back-to-back cuLaunchKernel calls from C++ with pre-packed parameters,
// then a synchronise. Returns host microseconds per launch for the calls alone and for the whole
// loop including the final synchronise.
struct launch_timing {
  double call_us = 0;
  double total_us = 0;
};
launch_timing time_bare_launches(const stream& s, const launch_config& config, kernel& k, param_buffer& params,
                                 int n);

}  // namespace tegula::rt
