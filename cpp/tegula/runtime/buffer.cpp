// Buffers: a span of device memory, owned (from the memory pool) or borrowed (someone else's).
#include "tegula/runtime/buffer.hpp"

#include "tegula/runtime/device.hpp"
#include "tegula/runtime/driver.hpp"
#include "tegula/runtime/host_staging.hpp"
#include "tegula/runtime/memory_pool.hpp"
#include "tegula/runtime/profiler.hpp"
#include "tegula/runtime/stream.hpp"
#include "tegula/support/error.hpp"

namespace tegula::rt {

std::shared_ptr<buffer> buffer::allocate(std::size_t size, std::shared_ptr<stream> s) {
  device& dev = s->dev();
  std::shared_ptr<buffer> b(new buffer());
  b->ptr_ = dev.pool().allocate(size, s->handle());
  b->size_ = size;
  b->dev_ = &dev;
  b->owned_ = true;
  b->stream_ = std::move(s);
  prof::record_memory(prof::kind::alloc, size, dev.ordinal());
  return b;
}

std::shared_ptr<buffer> buffer::borrow(CUdeviceptr ptr, std::size_t size, device& dev,
                                       std::shared_ptr<void> owner) {
  std::shared_ptr<buffer> b(new buffer());
  b->ptr_ = ptr;
  b->size_ = size;
  b->dev_ = &dev;
  b->owner_ = std::move(owner);
  return b;
}

buffer::~buffer() {
  try {
    close();
  } catch (...) {
    // A destructor has no caller to report to; a lost context makes frees fail harmlessly.
  }
}

void buffer::close(const stream* s) {
  if (closed_) return;
  closed_ = true;
  if (owned_ && ptr_) {
    dev_->pool().deallocate(ptr_, s ? s->handle() : stream_->handle());
    prof::record_memory(prof::kind::free, size_, dev_->ordinal());
  }
  ptr_ = 0;
  owner_.reset();
  stream_.reset();
}

void buffer::require_open(const char* what, std::size_t offset, std::size_t bytes) const {
  if (closed_) fail(error_kind::invalid_argument, what, ": the buffer is closed");
  if (offset > size_ || bytes > size_ - offset)
    fail(error_kind::invalid_argument, what, ": ", bytes, " bytes at offset ", offset,
         " do not fit in a buffer of ", size_, " bytes");
}

void buffer::copy_from_host(const void* src, std::size_t bytes, std::size_t offset, const stream& s) {
  require_open("copy from host", offset, bytes);
  if (bytes == 0) return;
  dev_->make_current();
  prof::host_scope timing(prof::kind::copy, "h2d", &s, bytes);
  if (bytes <= host_staging::slot_bytes) {
    // Staged through pinned memory: ordered on `s`, and the host does not wait for the stream.
    dev_->staging().upload(ptr_ + offset, src, bytes, s);
    return;
  }
  TEGULA_CHECK(drv().cuMemcpyHtoDAsync(ptr_ + offset, src, bytes, s.handle()));
  // Pageable host memory may be read after the call returns: finish before the caller frees it.
  TEGULA_CHECK(drv().cuStreamSynchronize(s.handle()));
}

void buffer::copy_to_host(void* dst, std::size_t bytes, std::size_t offset, const stream& s) const {
  require_open("copy to host", offset, bytes);
  if (bytes == 0) return;
  dev_->make_current();
  prof::host_scope timing(prof::kind::copy, "d2h", &s, bytes);
  TEGULA_CHECK(drv().cuMemcpyDtoHAsync(dst, ptr_ + offset, bytes, s.handle()));
  TEGULA_CHECK(drv().cuStreamSynchronize(s.handle()));
}

void buffer::copy_from(const buffer& src, std::size_t bytes, std::size_t offset, std::size_t src_offset,
                       const stream& s) {
  require_open("copy", offset, bytes);
  src.require_open("copy source", src_offset, bytes);
  if (bytes == 0) return;
  dev_->make_current();
  prof::host_scope timing(prof::kind::copy, "d2d", &s, bytes);
  TEGULA_CHECK(drv().cuMemcpyDtoDAsync(ptr_ + offset, src.ptr_ + src_offset, bytes, s.handle()));
}

void buffer::fill(std::uint8_t value, const stream& s) {
  require_open("fill", 0, size_);
  if (size_ == 0) return;
  dev_->make_current();
  TEGULA_CHECK(drv().cuMemsetD8Async(ptr_, value, size_, s.handle()));
}

}  // namespace tegula::rt
