// Streams: tegula-owned (created here) or borrowed (a handle from PyTorch, CuPy or the user).
#pragma once
#include <cuda.h>

#include <memory>

namespace tegula::rt {

class device;
class event;

class stream {
 public:
  // A new non-blocking stream (it does not synchronise with the legacy default stream).
  static std::shared_ptr<stream> create(device& dev, bool non_blocking = true, int priority = 0);
  // Borrows a handle that someone else owns: it is never destroyed here. Handle 0 (and the
  // special legacy/per-thread handles 1 and 2) mean that stream of `dev`.
  static std::shared_ptr<stream> wrap(CUstream handle, device& dev);
  // Borrows a handle and asks the driver which device it belongs to.
  static std::shared_ptr<stream> wrap(CUstream handle);
  // The legacy default stream of `dev` (handle 0), shared by PyTorch and CuPy by default.
  static std::shared_ptr<stream> legacy_default(device& dev);

  ~stream();
  stream(const stream&) = delete;
  stream& operator=(const stream&) = delete;

  CUstream handle() const { return handle_; }
  device& dev() const { return *dev_; }
  bool owned() const { return owned_; }
  int priority() const;
  void synchronize() const;  // the caller releases the GIL
  bool query() const;        // true when all work submitted so far is done
  void wait(const event& e) const;
  void wait(const stream& other) const;  // this stream waits for what `other` has submitted

 private:
  stream(CUstream handle, device& dev, bool owned) : handle_(handle), dev_(&dev), owned_(owned) {}
  CUstream handle_;
  device* dev_;
  bool owned_;
};

}  // namespace tegula::rt
