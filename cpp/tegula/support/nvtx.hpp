// NVTX ranges, so Nsight Systems shows what tegula does (JIT compiles, profiled regions, user ranges). NVTX 3 is
// header-only: without a tool attached each call is a cheap no-op; nothing is loaded unless a tool asks.
#pragma once
#include <string>

namespace tegula {

void nvtx_push(const std::string& name);
void nvtx_pop();

class nvtx_range {
 public:
  explicit nvtx_range(const std::string& name) { nvtx_push(name); }
  ~nvtx_range() { nvtx_pop(); }
  nvtx_range(const nvtx_range&) = delete;
  nvtx_range& operator=(const nvtx_range&) = delete;
};

}  // namespace tegula
