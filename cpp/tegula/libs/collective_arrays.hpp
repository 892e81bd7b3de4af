// NCCL collectives over engine arrays (libs/nccl.hpp): one array per rank, each on its rank's GPU, issued as one
// NCCL group on each GPU's array stream. Inputs are materialised (and made C-contiguous); outputs are new arrays.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "tegula/array/expr.hpp"
#include "tegula/libs/nccl.hpp"

namespace tegula::libs {

using communicators = std::vector<std::shared_ptr<communicator>>;

// Every call checks before anything is issued: one array per communicator, each on that communicator's GPU,
// all of one shape and one dtype that NCCL has, and the reduction's name (nccl_op). `what` names the call in errors.

// On every rank, the elementwise reduction (sum, prod, max, min, avg) of all ranks' arrays.
std::vector<array::node_ptr> all_reduce(const communicators& comms, const std::vector<array::node_ptr>& in,
                                        const std::string& op);
// On every rank, all ranks' arrays stacked along a new first axis (rank order).
std::vector<array::node_ptr> all_gather(const communicators& comms, const std::vector<array::node_ptr>& in);
// Rank r: part r (of size() equal parts along the first axis) of the reduction of all ranks' arrays.
std::vector<array::node_ptr> reduce_scatter(const communicators& comms, const std::vector<array::node_ptr>& in,
                                            const std::string& op);
// On every rank, a copy of rank `root`'s array (the others give only shape and dtype).
std::vector<array::node_ptr> broadcast(const communicators& comms, const std::vector<array::node_ptr>& in, int root);

}  // namespace tegula::libs
