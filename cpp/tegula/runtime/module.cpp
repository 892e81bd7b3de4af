// Modules: a loaded CUBIN/PTX image (a context-independent CUlibrary) and the kernels in it.
#include "tegula/runtime/module.hpp"

#include <algorithm>
#include <cstdint>

#include "tegula/runtime/device.hpp"
#include "tegula/runtime/driver.hpp"
#include "tegula/support/error.hpp"

namespace tegula::rt {

std::shared_ptr<library> library::load(const std::string& image) {
  const driver_api& api = drv();
  if (image.empty()) fail(error_kind::invalid_argument, "cannot load an empty module image");
  char log[8192] = {};
  CUjit_option options[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void* values[] = {log, reinterpret_cast<void*>(std::uintptr_t(sizeof log - 1))};
  std::shared_ptr<library> lib(new library());
  CUresult r = api.cuLibraryLoadData(&lib->handle_, image.c_str(), options, values, 2, nullptr, nullptr, 0);
  if (r != CUDA_SUCCESS && log[0])
    throw error(error_kind::compile, str("the driver could not load the module: ", log), int(r));
  check(r, "cuLibraryLoadData");
  return lib;
}

library::~library() {
  if (handle_) drv().cuLibraryUnload(handle_);  // destructor: nothing to report to
}

std::shared_ptr<kernel> library::get_kernel(const std::string& symbol, const std::string& display_name) {
  CUkernel k = nullptr;
  CUresult r = drv().cuLibraryGetKernel(&k, handle_, symbol.c_str());
  if (r == CUDA_ERROR_NOT_FOUND)
    fail(error_kind::invalid_argument, "no kernel named '", display_name,
         "' in this module (is it declared extern \"C\" __global__, or listed in name_expressions?)");
  check(r, "cuLibraryGetKernel");
  return std::make_shared<kernel>(k, display_name, shared_from_this());
}

kernel::kernel(CUkernel handle, std::string name, std::shared_ptr<library> owner)
    : handle_(handle), name_(std::move(name)), owner_(std::move(owner)) {
  const driver_api& api = drv();
  // cuKernelGetParamInfo needs a current context (CUDA_ERROR_INVALID_CONTEXT in a fresh process).
  device::current().make_current();
  for (std::size_t i = 0;; ++i) {
    param_info p;
    CUresult r = api.cuKernelGetParamInfo(handle_, i, &p.offset, &p.size);
    if (r == CUDA_ERROR_INVALID_VALUE) break;  // past the last parameter
    check(r, "cuKernelGetParamInfo");
    params_.push_back(p);
    params_bytes_ = std::max(params_bytes_, p.offset + p.size);
  }
}

CUfunction kernel::function(device& dev) {
  int i = dev.ordinal();
  if (i >= max_devices) fail(error_kind::invalid_argument, "tegula supports at most ", max_devices, " devices");
  CUfunction f = functions_[i].load(std::memory_order_acquire);
  if (f) return f;
  dev.make_current();
  TEGULA_CHECK(drv().cuKernelGetFunction(&f, handle_));
  functions_[i].store(f, std::memory_order_release);
  return f;
}

int kernel::attribute(CUfunction_attribute a, device& dev) const {
  int v = 0;
  TEGULA_CHECK(drv().cuKernelGetAttribute(&v, a, handle_, dev.handle()));
  return v;
}

void kernel::set_attribute(CUfunction_attribute a, int value, device& dev) {
  TEGULA_CHECK(drv().cuKernelSetAttribute(a, value, handle_, dev.handle()));
}

int kernel::max_active_blocks_per_sm(int block_size, std::size_t dynamic_shared, device& dev) {
  if (block_size <= 0) fail(error_kind::invalid_argument, "block size must be positive, got ", block_size);
  int n = 0;
  TEGULA_CHECK(drv().cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, function(dev), block_size, dynamic_shared));
  return n;
}

int kernel::max_active_clusters(int cluster, int block_size, std::size_t dynamic_shared, device& dev) {
  if (block_size <= 0) fail(error_kind::invalid_argument, "block size must be positive, got ", block_size);
  if (cluster <= 0) fail(error_kind::invalid_argument, "cluster size must be positive, got ", cluster);
  CUlaunchAttribute attr{};
  attr.id = CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION;
  attr.value.clusterDim.x = unsigned(cluster);
  attr.value.clusterDim.y = attr.value.clusterDim.z = 1;
  CUlaunchConfig c{};
  c.gridDimX = unsigned(cluster), c.gridDimY = c.gridDimZ = 1;
  c.blockDimX = unsigned(block_size), c.blockDimY = c.blockDimZ = 1;
  c.sharedMemBytes = unsigned(dynamic_shared);
  c.attrs = &attr;
  c.numAttrs = 1;
  int n = 0;
  TEGULA_CHECK(drv().cuOccupancyMaxActiveClusters(&n, function(dev), &c));
  return n;
}

}  // namespace tegula::rt
