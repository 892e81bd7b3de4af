// Array storage on the host or a device (see storage.hpp).
#include "tegula/array/storage.hpp"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <new>
#include <unordered_map>
#include <vector>

#include "tegula/runtime/buffer.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/runtime/stream.hpp"
#include "tegula/support/error.hpp"

namespace tegula::array {
namespace {

// Small device blocks are recycled within tegula instead of going back to the driver's pool: an
// op on a small array then costs no allocation call. Reuse is safe because every array operation
// is ordered on the device's legacy default stream (array_stream), as CuPy's pool assumes too.
constexpr std::size_t recycle_max = 1 << 20;        // blocks up to 1 MiB
constexpr std::size_t recycle_budget = 256u << 20;  // at most 256 MiB parked

std::size_t size_class(std::size_t bytes) {
  std::size_t c = 512;
  while (c < bytes) c <<= 1;
  return c;
}

struct free_lists {
  std::mutex m;
  std::unordered_map<std::uint64_t, std::vector<std::shared_ptr<rt::buffer>>> blocks;  // (device, class)
  std::size_t parked = 0;
};
free_lists& lists() {
  static auto* f = new free_lists();  // leaked: buffers may be released at interpreter exit
  return *f;
}
std::uint64_t list_key(const rt::device& d, std::size_t cls) {
  return (static_cast<std::uint64_t>(d.ordinal()) << 40) | cls;
}

}  // namespace

storage::~storage() {
  if (!recycle_ || !buffer_) return;
  auto& f = lists();
  std::lock_guard<std::mutex> lock(f.m);
  if (f.parked + buffer_->size() > recycle_budget) return;  // the buffer frees itself
  f.parked += buffer_->size();
  f.blocks[list_key(*dev_, buffer_->size())].push_back(std::move(buffer_));
}

namespace {
std::atomic<bool> poison_cpu{false};
}  // namespace

void storage::set_poison(bool on) { poison_cpu.store(on, std::memory_order_relaxed); }

namespace {
std::atomic<std::uint64_t> next_serial{1};
}  // namespace

storage::storage(token) : serial(next_serial.fetch_add(1, std::memory_order_relaxed)) {}

std::shared_ptr<storage> storage::allocate_cpu(std::size_t bytes) {
  auto s = std::make_shared<storage>(token{});
  std::size_t rounded = (bytes + 63) / 64 * 64;
  void* p = std::aligned_alloc(64, rounded ? rounded : 64);
  if (!p) fail(error_kind::out_of_memory, "could not allocate ", bytes, " bytes of host memory");
  if (poison_cpu.load(std::memory_order_relaxed)) std::memset(p, 0xff, rounded ? rounded : 64);
  s->owner_ = std::shared_ptr<void>(p, [](void* q) { std::free(q); });
  s->kind_ = device_kind::cpu;
  s->bytes_ = bytes;
  s->address_ = reinterpret_cast<std::uintptr_t>(p);
  return s;
}

std::shared_ptr<storage> storage::allocate_cuda(std::size_t bytes, rt::device& dev) {
  auto s = std::make_shared<storage>(token{});
  if (bytes <= recycle_max) {
    std::size_t cls = size_class(bytes);
    s->recycle_ = true;
    auto& f = lists();
    {
      std::lock_guard<std::mutex> lock(f.m);
      auto it = f.blocks.find(list_key(dev, cls));
      if (it != f.blocks.end() && !it->second.empty()) {
        s->buffer_ = std::move(it->second.back());
        it->second.pop_back();
        f.parked -= cls;
      }
    }
    if (!s->buffer_) s->buffer_ = rt::buffer::allocate(cls, dev.default_stream());
  } else {
    s->buffer_ = rt::buffer::allocate(bytes, dev.default_stream());
  }
  s->kind_ = device_kind::cuda;
  s->bytes_ = bytes;
  s->address_ = static_cast<std::uintptr_t>(s->buffer_->ptr());
  s->dev_ = &dev;
  return s;
}

std::shared_ptr<storage> storage::borrow_cuda(std::uintptr_t ptr, std::size_t bytes, rt::device& dev,
                                              std::shared_ptr<void> owner) {
  auto s = std::make_shared<storage>(token{});
  s->buffer_ = rt::buffer::borrow(static_cast<CUdeviceptr>(ptr), bytes, dev, std::move(owner));
  s->kind_ = device_kind::cuda;
  s->bytes_ = bytes;
  s->address_ = ptr;
  s->dev_ = &dev;
  s->address_shown = true;
  return s;
}

std::shared_ptr<storage> storage::borrow_cpu(void* ptr, std::size_t bytes, std::shared_ptr<void> owner) {
  auto s = std::make_shared<storage>(token{});
  s->owner_ = std::move(owner);
  s->kind_ = device_kind::cpu;
  s->bytes_ = bytes;
  s->address_ = reinterpret_cast<std::uintptr_t>(ptr);
  s->address_shown = true;
  return s;
}

const rt::stream& array_stream(rt::device& dev) { return *dev.default_stream(); }

}  // namespace tegula::array
