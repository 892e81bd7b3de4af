// Array storage on the host or a device (see storage.hpp).
#include "tegula/array/storage.hpp"

#include <cstdlib>
#include <new>

#include "tegula/runtime/buffer.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/runtime/stream.hpp"
#include "tegula/support/error.hpp"

namespace tegula::array {

std::shared_ptr<storage> storage::allocate_cpu(std::size_t bytes) {
  auto s = std::shared_ptr<storage>(new storage());
  std::size_t rounded = (bytes + 63) / 64 * 64;
  void* p = std::aligned_alloc(64, rounded ? rounded : 64);
  if (!p) fail(error_kind::out_of_memory, "could not allocate ", bytes, " bytes of host memory");
  s->owner_ = std::shared_ptr<void>(p, [](void* q) { std::free(q); });
  s->kind_ = device_kind::cpu;
  s->bytes_ = bytes;
  s->address_ = reinterpret_cast<std::uintptr_t>(p);
  return s;
}

std::shared_ptr<storage> storage::allocate_cuda(std::size_t bytes, rt::device& dev) {
  auto s = std::shared_ptr<storage>(new storage());
  s->buffer_ = rt::buffer::allocate(bytes ? bytes : 1, dev.default_stream());
  s->kind_ = device_kind::cuda;
  s->bytes_ = bytes;
  s->address_ = static_cast<std::uintptr_t>(s->buffer_->ptr());
  s->dev_ = &dev;
  return s;
}

std::shared_ptr<storage> storage::borrow_cuda(std::uintptr_t ptr, std::size_t bytes, rt::device& dev,
                                              std::shared_ptr<void> owner) {
  auto s = std::shared_ptr<storage>(new storage());
  s->buffer_ = rt::buffer::borrow(static_cast<CUdeviceptr>(ptr), bytes, dev, std::move(owner));
  s->kind_ = device_kind::cuda;
  s->bytes_ = bytes;
  s->address_ = ptr;
  s->dev_ = &dev;
  return s;
}

std::shared_ptr<storage> storage::borrow_cpu(void* ptr, std::size_t bytes, std::shared_ptr<void> owner) {
  auto s = std::shared_ptr<storage>(new storage());
  s->owner_ = std::move(owner);
  s->kind_ = device_kind::cpu;
  s->bytes_ = bytes;
  s->address_ = reinterpret_cast<std::uintptr_t>(ptr);
  return s;
}

const rt::stream& array_stream(rt::device& dev) { return *dev.default_stream(); }

}  // namespace tegula::array
