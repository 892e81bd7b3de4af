// Modules: a loaded CUBIN/PTX image (a context-independent CUlibrary) and the kernels in it.
#pragma once
#include <cuda.h>

#include <array>
#include <atomic>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace tegula::rt {

class device;
class kernel;

class library : public std::enable_shared_from_this<library> {
 public:
  // Loads CUBIN, fatbin or NUL-terminated PTX; a PTX JIT failure throws error_kind::compile with
  // the driver's log.
  static std::shared_ptr<library> load(const std::string& image);
  ~library();
  library(const library&) = delete;
  library& operator=(const library&) = delete;
  // `symbol` is the (mangled) name in the image; `display_name` is what errors and profiles show.
  std::shared_ptr<kernel> get_kernel(const std::string& symbol, const std::string& display_name);

 private:
  library() = default;
  CUlibrary handle_ = nullptr;
};

struct param_info {
  std::size_t offset = 0;
  std::size_t size = 0;
};

class kernel {
 public:
  kernel(CUkernel handle, std::string name, std::shared_ptr<library> owner);
  CUkernel handle() const { return handle_; }
  const std::string& name() const { return name_; }
  // Offsets and sizes of the parameters, read from the image (cuKernelGetParamInfo).
  const std::vector<param_info>& params() const { return params_; }
  std::size_t params_bytes() const { return params_bytes_; }
  // The kernel's function in `dev`'s primary context, looked up once per device.
  CUfunction function(device& dev);
  int attribute(CUfunction_attribute attribute, device& dev) const;
  void set_attribute(CUfunction_attribute attribute, int value, device& dev);
  int max_active_blocks_per_sm(int block_size, std::size_t dynamic_shared, device& dev);
  // How many clusters of `cluster` blocks can run at once on the whole device (not every SM can take part
  // in a cluster: clusters stay within a GPC).
  int max_active_clusters(int cluster, int block_size, std::size_t dynamic_shared, device& dev);

 private:
  static constexpr int max_devices = 64;
  CUkernel handle_;
  std::string name_;
  std::shared_ptr<library> owner_;
  std::vector<param_info> params_;
  std::size_t params_bytes_ = 0;
  std::array<std::atomic<CUfunction>, max_devices> functions_{};
};

}  // namespace tegula::rt
