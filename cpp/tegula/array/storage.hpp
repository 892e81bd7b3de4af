// Array storage: the bytes an ndarray's views share, on the CPU (interpreter) or a CUDA device.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace tegula::rt {
class buffer;
class device;
class stream;
}  // namespace tegula::rt

namespace tegula::array {

struct node;

enum class device_kind { cpu, cuda };

class storage {
  struct token {  // only storage's factories can name it: construct through them
    explicit token() = default;
  };

 public:
  explicit storage(token);  // for make_shared (one allocation for the storage and its count)
  // Uninitialised bytes: host memory (64-byte aligned) or the device's stream-ordered pool.
  static std::shared_ptr<storage> allocate_cpu(std::size_t bytes);
  // Tests: fill every new CPU allocation with 0xff bytes (NaN for floats), so that an element a
  // kernel fails to write shows instead of reading as a lucky zero.
  static void set_poison(bool on);
  static std::shared_ptr<storage> allocate_cuda(std::size_t bytes, rt::device& dev);
  // Someone else's device memory (a torch/cupy tensor); `owner` keeps it alive.
  static std::shared_ptr<storage> borrow_cuda(std::uintptr_t ptr, std::size_t bytes, rt::device& dev,
                                              std::shared_ptr<void> owner);
  // Someone else's host memory (a numpy array viewed by the CPU device); `owner` keeps it alive.
  static std::shared_ptr<storage> borrow_cpu(void* ptr, std::size_t bytes, std::shared_ptr<void> owner);

  ~storage();
  device_kind kind() const { return kind_; }
  std::size_t bytes() const { return bytes_; }
  // Host pointer (cpu) or device address (cuda) of byte 0.
  std::uintptr_t address() const { return address_; }
  void* host() const { return reinterpret_cast<void*>(address_); }  // cpu only
  rt::device* dev() const { return dev_; }                           // cuda only
  const std::shared_ptr<rt::buffer>& buffer() const { return buffer_; }

  // Pending nodes with a leaf of this storage as a direct input (expr.hpp: note_reader).
  std::vector<std::weak_ptr<node>> readers;
  // Counts the times something was about to write this memory (flush_readers, which every write path calls
  // first): equal counts mean unchanged contents, so what was derived from them (a mask's compaction
  // positions, say) may be reused.
  std::uint64_t writes = 0;
  // Whether this memory's address left the engine (an array interface, DLPack, a raw pointer) or came from outside
  // it (a borrowed torch/CuPy/NumPy buffer): something may read it without asking the engine, so a write into it
  // is never deferred (deferred_update.hpp).
  bool address_shown = false;
  // Unique for the process (never reused, unlike addresses): with `writes`, names the contents.
  const std::uint64_t serial;
  std::size_t readers_pruned_at = 0;

 private:
  device_kind kind_ = device_kind::cpu;
  std::size_t bytes_ = 0;
  std::uintptr_t address_ = 0;
  rt::device* dev_ = nullptr;
  std::shared_ptr<rt::buffer> buffer_;  // cuda
  std::shared_ptr<void> owner_;         // cpu allocation or borrowed owner
  bool recycle_ = false;                // a small pooled device block: back to the free list when done
};

// The stream every array operation is ordered on: the device's legacy default stream, which torch
// and CuPy also use by default, so arrays exchanged with them need no extra synchronisation.
const rt::stream& array_stream(rt::device& dev);

}  // namespace tegula::array
