// NCCL collectives over engine arrays (collective_arrays.hpp).
#include "tegula/libs/collective_arrays.hpp"

#include <functional>

#include "tegula/array/storage.hpp"
#include "tegula/libs/arrays.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/support/error.hpp"

namespace tegula::libs {

using array::node;
using array::node_ptr;

namespace {

std::string shape_text(const array::dims& s) {
  std::string t = "[";
  for (std::size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
  return t + "]";
}

// The ranks' inputs as C-contiguous leaves, checked (see the header) before anything is issued.
std::vector<node_ptr> inputs(const communicators& comms, const std::vector<node_ptr>& in, const char* what) {
  if (comms.empty()) fail(error_kind::invalid_argument, what, ": a communicator of no ranks");
  for (const auto& c : comms)
    if (!c) fail(error_kind::invalid_argument, what, ": a null communicator");
  if (in.size() != comms.size())
    fail(error_kind::invalid_argument, what, ": ", in.size(), " arrays for ", comms.size(),
         " ranks (one array per GPU, in the communicator's order)");
  std::vector<node_ptr> out;
  for (std::size_t r = 0; r < in.size(); ++r) {
    if (!in[r]) fail(error_kind::invalid_argument, what, ": rank ", r, " has no array");
    const node& n = input(in[r]);
    const int want = comms[r]->device();
    if (n.device != array::device_kind::cuda || !n.gpu || n.gpu->ordinal() != want)
      fail(error_kind::invalid_argument, what, ": rank ", r, "'s array lies on ",
           n.device == array::device_kind::cuda && n.gpu ? "GPU " + std::to_string(n.gpu->ordinal()) : std::string("the CPU"),
           ", not on GPU ", want);
    nccl_dtype(std::string(ir::name(n.t)));  // a type_error for dtypes NCCL lacks
    const node& first = out.empty() ? n : *out[0];
    if (n.shape != first.shape || n.t != first.t)
      fail(error_kind::invalid_argument, what, ": rank ", r, "'s array is ", ir::name(n.t), shape_text(n.shape),
           ", rank 0's ", ir::name(first.t), shape_text(first.shape), ": every rank passes the same shape and dtype");
    out.push_back(contiguous_leaf(in[r]));
  }
  return out;
}

// New outputs of `shape` (one per rank, on its GPU), then every rank's call inside one NCCL group, each on its
// GPU's array stream: call(comm, input address, output address, input, stream).
using rank_call = std::function<void(communicator&, std::uintptr_t, std::uintptr_t, const node&, const rt::stream&)>;
std::vector<node_ptr> issue(const communicators& comms, const std::vector<node_ptr>& ins, const array::dims& shape,
                            const rank_call& call) {
  std::vector<node_ptr> outs;
  for (const node_ptr& x : ins) outs.push_back(empty_like_device(*x, shape, x->t));
  nccl_group_start();
  try {
    for (std::size_t r = 0; r < ins.size(); ++r) {
      const node& x = input(ins[r]);
      call(*comms[r], element_address(x), element_address(output(outs[r])), x, array::array_stream(*x.gpu));
    }
  } catch (...) {
    try {
      nccl_group_end();  // close the group; the first error is the one to report
    } catch (...) {
    }
    throw;
  }
  nccl_group_end();
  return outs;
}

std::string dtype_of(const node& x) { return std::string(ir::name(x.t)); }
std::size_t count_of(const node& x) { return static_cast<std::size_t>(x.size()); }

}  // namespace

std::vector<node_ptr> all_reduce(const communicators& comms, const std::vector<node_ptr>& in, const std::string& op) {
  nccl_op(op);
  auto ins = inputs(comms, in, "all_reduce");
  return issue(comms, ins, ins[0]->shape, [&](communicator& c, std::uintptr_t a, std::uintptr_t o, const node& x,
                                              const rt::stream& s) { c.all_reduce(a, o, count_of(x), dtype_of(x), op, s); });
}

std::vector<node_ptr> all_gather(const communicators& comms, const std::vector<node_ptr>& in) {
  auto ins = inputs(comms, in, "all_gather");
  array::dims shape = ins[0]->shape;
  shape.insert(shape.begin(), static_cast<std::int64_t>(comms.size()));
  return issue(comms, ins, shape, [&](communicator& c, std::uintptr_t a, std::uintptr_t o, const node& x,
                                      const rt::stream& s) { c.all_gather(a, o, count_of(x), dtype_of(x), s); });
}

std::vector<node_ptr> reduce_scatter(const communicators& comms, const std::vector<node_ptr>& in, const std::string& op) {
  nccl_op(op);
  auto ins = inputs(comms, in, "reduce_scatter");
  const auto ranks = static_cast<std::int64_t>(comms.size());
  array::dims shape = ins[0]->shape;
  if (shape.empty() || shape[0] % ranks)
    fail(error_kind::invalid_argument, "reduce_scatter: the first axis (",
         shape.empty() ? std::string("none, a 0-d array") : std::to_string(shape[0]), ") must split into ", ranks,
         " equal parts, one per rank");
  shape[0] /= ranks;
  const std::size_t part = static_cast<std::size_t>(array::checked_nbytes(shape, 1));
  return issue(comms, ins, shape, [&](communicator& c, std::uintptr_t a, std::uintptr_t o, const node& x,
                                      const rt::stream& s) { c.reduce_scatter(a, o, part, dtype_of(x), op, s); });
}

std::vector<node_ptr> broadcast(const communicators& comms, const std::vector<node_ptr>& in, int root) {
  if (root < 0 || static_cast<std::size_t>(root) >= comms.size())
    fail(error_kind::invalid_argument, "root ", root, " is not a rank of 0..", static_cast<long long>(comms.size()) - 1);
  auto ins = inputs(comms, in, "broadcast");
  return issue(comms, ins, ins[0]->shape, [&](communicator& c, std::uintptr_t a, std::uintptr_t o, const node& x,
                                              const rt::stream& s) { c.broadcast(a, o, count_of(x), dtype_of(x), root, s); });
}

}  // namespace tegula::libs
