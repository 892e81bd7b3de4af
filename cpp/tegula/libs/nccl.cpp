// NCCL collectives (see nccl.hpp). NCCL's C API is declared here in the few lines tegula uses (its ABI has been
// stable across NCCL 2.x: opaque communicators, int enums), so building tegula needs no NCCL headers.
#include "tegula/libs/nccl.hpp"

#include <map>
#include <mutex>

#include "tegula/runtime/device.hpp"
#include "tegula/runtime/profiler.hpp"
#include "tegula/runtime/stream.hpp"
#include "tegula/support/config.hpp"
#include "tegula/support/dynlib.hpp"
#include "tegula/support/error.hpp"

namespace tegula::libs {
namespace {

using nccl_result = int;  // ncclResult_t: 0 is ncclSuccess
using nccl_comm = void*;  // ncclComm_t
using cu_stream = void*;  // cudaStream_t

struct api_t {
  dynlib lib;
  nccl_result (*ncclGetVersion)(int*) = nullptr;
  const char* (*ncclGetErrorString)(nccl_result) = nullptr;
  nccl_result (*ncclCommInitAll)(nccl_comm*, int, const int*) = nullptr;
  nccl_result (*ncclCommDestroy)(nccl_comm) = nullptr;
  nccl_result (*ncclAllReduce)(const void*, void*, std::size_t, int, int, nccl_comm, cu_stream) = nullptr;
  nccl_result (*ncclAllGather)(const void*, void*, std::size_t, int, nccl_comm, cu_stream) = nullptr;
  nccl_result (*ncclReduceScatter)(const void*, void*, std::size_t, int, int, nccl_comm, cu_stream) = nullptr;
  nccl_result (*ncclBroadcast)(const void*, void*, std::size_t, int, int, nccl_comm, cu_stream) = nullptr;
  nccl_result (*ncclGroupStart)() = nullptr;
  nccl_result (*ncclGroupEnd)() = nullptr;
};

const api_t& api() {
  static const api_t a = [] {
    const std::vector<std::string> dirs = cuda_library_dirs();
    api_t x;
    x.lib = dynlib::open("NCCL (NVIDIA's collective communications library)", {"libnccl.so.2", "libnccl.so"}, dirs);
    x.lib.require(x.ncclGetVersion, "ncclGetVersion", "NCCL");
    x.lib.require(x.ncclGetErrorString, "ncclGetErrorString", "NCCL");
    x.lib.require(x.ncclCommInitAll, "ncclCommInitAll", "NCCL");
    x.lib.require(x.ncclCommDestroy, "ncclCommDestroy", "NCCL");
    x.lib.require(x.ncclAllReduce, "ncclAllReduce", "NCCL");
    x.lib.require(x.ncclAllGather, "ncclAllGather", "NCCL");
    x.lib.require(x.ncclReduceScatter, "ncclReduceScatter", "NCCL");
    x.lib.require(x.ncclBroadcast, "ncclBroadcast", "NCCL");
    x.lib.require(x.ncclGroupStart, "ncclGroupStart", "NCCL");
    x.lib.require(x.ncclGroupEnd, "ncclGroupEnd", "NCCL");
    return x;
  }();
  return a;
}

void check(nccl_result r, const char* call) {
  if (r == 0) return;
  const char* why = api().ncclGetErrorString ? api().ncclGetErrorString(r) : "";
  // 4: ncclInvalidArgument, 5: ncclInvalidUsage
  fail(r == 4 || r == 5 ? error_kind::invalid_argument : error_kind::cuda, call, " failed: ", why, " (ncclResult ",
       r, ")");
}

cu_stream handle_of(const rt::stream& s) { return reinterpret_cast<cu_stream>(s.handle()); }

}  // namespace

int nccl_op(const std::string& name) {
  static const std::map<std::string, int> ops = {{"sum", 0}, {"prod", 1}, {"max", 2}, {"min", 3}, {"avg", 4}};
  auto it = ops.find(name);
  if (it == ops.end()) fail(error_kind::invalid_argument, "reduction '", name, "' is not one of sum, prod, max, min, avg");
  return it->second;
}

int nccl_dtype(const std::string& name) {
  static const std::map<std::string, int> types = {{"int8", 0},    {"uint8", 1},   {"int32", 2},   {"uint32", 3},
                                                   {"int64", 4},   {"uint64", 5},  {"float16", 6}, {"float32", 7},
                                                   {"float64", 8}, {"bfloat16", 9}};
  auto it = types.find(name);
  if (it == types.end())
    fail(error_kind::type_error, "NCCL collectives take int8, uint8, int32, uint32, int64, uint64, float16, "
                                 "bfloat16, float32 or float64 arrays, not ", name);
  return it->second;
}

std::vector<std::shared_ptr<communicator>> communicator::init_all(const std::vector<int>& devices) {
  if (devices.empty()) fail(error_kind::invalid_argument, "a communicator needs at least one GPU");
  for (std::size_t i = 0; i < devices.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (devices[i] == devices[j]) fail(error_kind::invalid_argument, "GPU ", devices[i], " is listed twice");
  std::vector<rt::device*> devs;
  for (int d : devices) devs.push_back(&rt::device::get(d));  // validates the ordinals
  for (auto* a : devs)
    for (auto* b : devs)
      if (a != b) a->enable_peer_access(*b);
  std::vector<nccl_comm> comms(devices.size(), nullptr);
  check(api().ncclCommInitAll(comms.data(), int(devices.size()), devices.data()), "ncclCommInitAll");
  std::vector<std::shared_ptr<communicator>> out;
  for (std::size_t i = 0; i < devices.size(); ++i) {
    std::shared_ptr<communicator> c(new communicator());
    c->comm_ = comms[i];
    c->rank_ = int(i);
    c->size_ = int(devices.size());
    c->device_ = devices[i];
    out.push_back(std::move(c));
  }
  return out;
}

communicator::~communicator() {
  if (comm_) api().ncclCommDestroy(comm_);  // errors at teardown are not reportable
}

void communicator::all_reduce(std::uintptr_t send, std::uintptr_t recv, std::size_t count, const std::string& dtype,
                              const std::string& op, const rt::stream& s) {
  rt::device::get(device_).make_current();
  rt::prof::host_scope timing(rt::prof::kind::library, "nccl all_reduce", &s);
  check(api().ncclAllReduce(reinterpret_cast<const void*>(send), reinterpret_cast<void*>(recv), count,
                            nccl_dtype(dtype), nccl_op(op), comm_, handle_of(s)),
        "ncclAllReduce");
}

void communicator::all_gather(std::uintptr_t send, std::uintptr_t recv, std::size_t send_count,
                              const std::string& dtype, const rt::stream& s) {
  rt::device::get(device_).make_current();
  rt::prof::host_scope timing(rt::prof::kind::library, "nccl all_gather", &s);
  check(api().ncclAllGather(reinterpret_cast<const void*>(send), reinterpret_cast<void*>(recv), send_count,
                            nccl_dtype(dtype), comm_, handle_of(s)),
        "ncclAllGather");
}

void communicator::reduce_scatter(std::uintptr_t send, std::uintptr_t recv, std::size_t recv_count,
                                  const std::string& dtype, const std::string& op, const rt::stream& s) {
  rt::device::get(device_).make_current();
  rt::prof::host_scope timing(rt::prof::kind::library, "nccl reduce_scatter", &s);
  check(api().ncclReduceScatter(reinterpret_cast<const void*>(send), reinterpret_cast<void*>(recv), recv_count,
                                nccl_dtype(dtype), nccl_op(op), comm_, handle_of(s)),
        "ncclReduceScatter");
}

void communicator::broadcast(std::uintptr_t send, std::uintptr_t recv, std::size_t count, const std::string& dtype,
                             int root, const rt::stream& s) {
  if (root < 0 || root >= size_) fail(error_kind::invalid_argument, "root ", root, " is not a rank of 0..", size_ - 1);
  rt::device::get(device_).make_current();
  rt::prof::host_scope timing(rt::prof::kind::library, "nccl broadcast", &s);
  check(api().ncclBroadcast(reinterpret_cast<const void*>(send), reinterpret_cast<void*>(recv), count,
                            nccl_dtype(dtype), root, comm_, handle_of(s)),
        "ncclBroadcast");
}

void nccl_group_start() { check(api().ncclGroupStart(), "ncclGroupStart"); }
void nccl_group_end() { check(api().ncclGroupEnd(), "ncclGroupEnd"); }

std::string nccl_info() {
  int v = 0;
  check(api().ncclGetVersion(&v), "ncclGetVersion");
  // NCCL_VERSION(X, Y, Z): X * 10000 + Y * 100 + Z since 2.9
  return str(api().lib.path(), " (NCCL ", v / 10000, ".", (v / 100) % 100, ".", v % 100, ")");
}

}  // namespace tegula::libs
