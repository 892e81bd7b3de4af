// Buffers: a span of device memory, owned (from the memory pool) or borrowed (someone else's).
#pragma once
#include <cuda.h>

#include <cstddef>
#include <cstdint>
#include <memory>

namespace tegula::rt {

class device;
class stream;

class buffer {
 public:
  // Stream-ordered allocation from the device's pool; freed on `s` unless closed on another.
  static std::shared_ptr<buffer> allocate(std::size_t size, std::shared_ptr<stream> s);
  // Memory owned elsewhere; `owner` (may be null) is kept alive as long as this buffer.
  static std::shared_ptr<buffer> borrow(CUdeviceptr ptr, std::size_t size, device& dev,
                                        std::shared_ptr<void> owner = nullptr);
  ~buffer();
  buffer(const buffer&) = delete;
  buffer& operator=(const buffer&) = delete;

  CUdeviceptr ptr() const { return ptr_; }  // 0 once closed
  std::size_t size() const { return size_; }
  device& dev() const { return *dev_; }
  bool owned() const { return owned_; }
  bool closed() const { return closed_; }
  // The stream work on an owned buffer is ordered on by default (null for borrowed buffers).
  const std::shared_ptr<stream>& alloc_stream() const { return stream_; }
  // Frees now, ordered on `s` (or the allocation stream when null); later use is an error.
  void close(const stream* s = nullptr);

  // Copies are ordered on `s`. Device->host copies synchronise `s` before returning (the caller
  // releases the GIL). Host->device copies may reuse the source once they return: up to
  // host_staging::slot_bytes go through pinned slots without waiting for `s`; larger ones wait for it.
  void copy_from_host(const void* src, std::size_t bytes, std::size_t offset, const stream& s);
  void copy_to_host(void* dst, std::size_t bytes, std::size_t offset, const stream& s) const;
  void copy_from(const buffer& src, std::size_t bytes, const stream& s) { copy_from(src, bytes, 0, 0, s); }
  // `bytes` from src at src_offset to this buffer at offset (both ranges checked).
  void copy_from(const buffer& src, std::size_t bytes, std::size_t offset, std::size_t src_offset, const stream& s);
  void fill(std::uint8_t value, const stream& s);

 private:
  buffer() = default;
  void require_open(const char* what, std::size_t offset, std::size_t bytes) const;
  CUdeviceptr ptr_ = 0;
  std::size_t size_ = 0;
  device* dev_ = nullptr;
  bool owned_ = false;
  bool closed_ = false;
  std::shared_ptr<stream> stream_;  // allocation stream (owned buffers)
  std::shared_ptr<void> owner_;     // keeps borrowed memory alive
};

}  // namespace tegula::rt
