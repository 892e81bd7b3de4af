// Events: markers in a stream, for ordering between streams and for timing on the GPU.
#pragma once
#include <cuda.h>

#include <memory>

namespace tegula::rt {

class device;
class stream;

class event {
 public:
  static std::shared_ptr<event> create(device& dev, bool timing = true, bool blocking_sync = false);
  ~event();
  event(const event&) = delete;
  event& operator=(const event&) = delete;

  CUevent handle() const { return handle_; }
  bool timing() const { return timing_; }
  void record(const stream& s);
  void synchronize() const;  // the caller releases the GIL
  bool query() const;        // true once the recorded work is done
  // Milliseconds between two recorded, completed timing events (invalid_argument otherwise).
  static float elapsed_ms(const event& start, const event& end);

 private:
  event(CUevent h, bool timing) : handle_(h), timing_(timing) {}
  CUevent handle_;
  bool timing_;
  bool recorded_ = false;
};

}  // namespace tegula::rt
