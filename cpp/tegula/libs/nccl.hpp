// Collectives across the GPUs of one host through NCCL, dlopen'd at first use (DESIGN.md rule 4): one
// communicator per GPU (ncclCommInitAll, a single process driving them all), and all-reduce, all-gather,
// reduce-scatter and broadcast on device pointers, ordered on the caller's streams. Calls for several GPUs go
// between group_start() and group_end() so that one thread can issue them all without deadlock.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tegula::rt {
class stream;
}  // namespace tegula::rt

namespace tegula::libs {

// NCCL's reduction by name: sum, prod, max, min, avg (invalid_argument otherwise).
int nccl_op(const std::string& name);
// NCCL's data type for a NumPy dtype name: int8, uint8, int32, uint32, int64, uint64, float16, float32,
// float64, bfloat16 (type_error naming the dtype otherwise).
int nccl_dtype(const std::string& name);

class communicator {
 public:
  // One communicator per listed GPU ordinal, ranks in list order (ncclCommInitAll). Peer access between the
  // GPUs is enabled where the hardware allows it.
  static std::vector<std::shared_ptr<communicator>> init_all(const std::vector<int>& devices);
  ~communicator();
  communicator(const communicator&) = delete;
  communicator& operator=(const communicator&) = delete;

  int rank() const { return rank_; }
  int size() const { return size_; }
  int device() const { return device_; }

  // Counts are elements of `dtype`; pointers are this rank's device memory.
  void all_reduce(std::uintptr_t send, std::uintptr_t recv, std::size_t count, const std::string& dtype,
                  const std::string& op, const rt::stream& s);
  void all_gather(std::uintptr_t send, std::uintptr_t recv, std::size_t send_count, const std::string& dtype,
                  const rt::stream& s);
  void reduce_scatter(std::uintptr_t send, std::uintptr_t recv, std::size_t recv_count, const std::string& dtype,
                      const std::string& op, const rt::stream& s);
  void broadcast(std::uintptr_t send, std::uintptr_t recv, std::size_t count, const std::string& dtype, int root,
                 const rt::stream& s);

 private:
  communicator() = default;
  void* comm_ = nullptr;  // ncclComm_t
  int rank_ = 0, size_ = 0, device_ = 0;
};

void nccl_group_start();
void nccl_group_end();

// The loaded library and its version, e.g. "/usr/lib/libnccl.so.2 (NCCL 2.28.3)" (loads it).
std::string nccl_info();

}  // namespace tegula::libs
