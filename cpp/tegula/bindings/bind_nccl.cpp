// Bindings for libs/nccl and libs/collective_arrays: communicators over the GPUs of this host and their collectives
// over tegula arrays (one per rank). tegula.core.Communicator (python/tegula/core/_collectives.py) shapes the arguments.
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "tegula/bindings/bind_support.hpp"
#include "tegula/bindings/py_array.hpp"
#include "tegula/libs/collective_arrays.hpp"
#include "tegula/libs/nccl.hpp"

namespace tegula::bind {

void bind_nccl(nb::module_& m) {
  using libs::communicator;
  nb::class_<communicator>(m, "NcclCommunicator", "One GPU's NCCL communicator (rank) of a group made by nccl_init_all.")
      .def_prop_ro("rank", &communicator::rank)
      .def_prop_ro("size", &communicator::size)
      .def_prop_ro("device", &communicator::device);
  m.def("nccl_init_all", [](const std::vector<int>& devices) {
    nb::gil_scoped_release g;
    return communicator::init_all(devices);
  }, nb::arg("devices"), "One NCCL communicator per listed GPU ordinal (ncclCommInitAll), ranks in list order.");
  using comms = libs::communicators;
  auto nodes = [](const std::vector<py_array>& xs) {
    std::vector<array::node_ptr> v;
    for (const py_array& x : xs) v.push_back(x.n);
    return v;
  };
  auto arrays = [](const std::vector<array::node_ptr>& v) {
    std::vector<py_array> out;
    for (const array::node_ptr& n : v) out.push_back(py_array{n});
    return out;
  };
  m.def("nccl_all_reduce", [=](const comms& c, const std::vector<py_array>& in, const std::string& op) {
    return arrays(libs::all_reduce(c, nodes(in), op));
  }, nb::arg("comms"), nb::arg("arrays"), nb::arg("op"),
     "One new array per rank: the elementwise reduction of all ranks' arrays (one NCCL group, each GPU's array stream).");
  m.def("nccl_all_gather", [=](const comms& c, const std::vector<py_array>& in) {
    return arrays(libs::all_gather(c, nodes(in)));
  }, nb::arg("comms"), nb::arg("arrays"), "One new array per rank: all ranks' arrays stacked along a new first axis.");
  m.def("nccl_reduce_scatter", [=](const comms& c, const std::vector<py_array>& in, const std::string& op) {
    return arrays(libs::reduce_scatter(c, nodes(in), op));
  }, nb::arg("comms"), nb::arg("arrays"), nb::arg("op"), "Rank r: part r (along the first axis) of the reduction.");
  m.def("nccl_broadcast", [=](const comms& c, const std::vector<py_array>& in, int root) {
    return arrays(libs::broadcast(c, nodes(in), root));
  }, nb::arg("comms"), nb::arg("arrays"), nb::arg("root"), "On every rank, a copy of rank `root`'s array.");
  m.def("nccl_group_start", &libs::nccl_group_start, "ncclGroupStart: collectives until nccl_group_end go out together.");
  m.def("nccl_group_end", [] {
    nb::gil_scoped_release g;
    libs::nccl_group_end();
  }, "ncclGroupEnd.");
  m.def("nccl_info", &libs::nccl_info, "The loaded NCCL library and its version (loads it).");
  m.def("nccl_dtype", &libs::nccl_dtype, nb::arg("dtype"), "NCCL's data type code for a dtype (TypeError if none).");
  m.def("nccl_op", &libs::nccl_op, nb::arg("op"), "NCCL's reduction code (ValueError if unknown).");
}

}  // namespace tegula::bind
