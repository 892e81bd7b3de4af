// Memory pool: a stream-ordered caching allocator over a cuMemPool owned by tegula.
#include "tegula/runtime/memory_pool.hpp"

#include <cstdint>

#include "tegula/runtime/device.hpp"
#include "tegula/runtime/driver.hpp"
#include "tegula/support/error.hpp"

namespace tegula::rt {

memory_pool::memory_pool(device& dev) : dev_(dev) {
  const driver_api& api = drv();
  if (!dev.attribute(CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED))
    fail(error_kind::cuda, "device ", dev.ordinal(), " (", dev.name(), ") does not support memory pools");
  CUmemPoolProps props{};
  props.allocType = CU_MEM_ALLOCATION_TYPE_PINNED;
  props.handleTypes = CU_MEM_HANDLE_TYPE_NONE;
  props.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  props.location.id = dev.ordinal();
  TEGULA_CHECK(api.cuMemPoolCreate(&pool_, &props));
  cuuint64_t threshold = UINT64_MAX;
  TEGULA_CHECK(api.cuMemPoolSetAttribute(pool_, CU_MEMPOOL_ATTR_RELEASE_THRESHOLD, &threshold));
}

memory_pool::~memory_pool() {
  if (pool_) drv().cuMemPoolDestroy(pool_);  // destructor: nothing to report to
}

CUdeviceptr memory_pool::allocate(std::size_t size, CUstream stream) {
  if (size == 0) return 0;
  const driver_api& api = drv();
  dev_.make_current();
  CUdeviceptr ptr = 0;
  CUresult r = api.cuMemAllocFromPoolAsync(&ptr, size, pool_, stream);
  if (r == CUDA_ERROR_OUT_OF_MEMORY) {
    // Cached blocks freed on other streams may still be pending: wait for them, return them.
    TEGULA_CHECK(api.cuCtxSynchronize());
    trim(0);
    r = api.cuMemAllocFromPoolAsync(&ptr, size, pool_, stream);
  }
  if (r == CUDA_ERROR_OUT_OF_MEMORY) {
    std::size_t free_bytes = 0, total = 0;
    api.cuMemGetInfo(&free_bytes, &total);
    throw error(error_kind::out_of_memory,
                str("out of GPU memory: cannot allocate ", size, " bytes on device ", dev_.ordinal(),
                    " (", free_bytes, " of ", total, " bytes free; tegula's pool holds ", used_bytes(),
                    " bytes in use)"),
                int(r));
  }
  check(r, "cuMemAllocFromPoolAsync");
  return ptr;
}

void memory_pool::deallocate(CUdeviceptr ptr, CUstream stream) {
  if (ptr) TEGULA_CHECK(drv().cuMemFreeAsync(ptr, stream));
}

std::size_t memory_pool::reserved_bytes() const {
  cuuint64_t v = 0;
  TEGULA_CHECK(drv().cuMemPoolGetAttribute(pool_, CU_MEMPOOL_ATTR_RESERVED_MEM_CURRENT, &v));
  return v;
}

std::size_t memory_pool::used_bytes() const {
  cuuint64_t v = 0;
  TEGULA_CHECK(drv().cuMemPoolGetAttribute(pool_, CU_MEMPOOL_ATTR_USED_MEM_CURRENT, &v));
  return v;
}

void memory_pool::trim(std::size_t keep_bytes) { TEGULA_CHECK(drv().cuMemPoolTrimTo(pool_, keep_bytes)); }

}  // namespace tegula::rt
