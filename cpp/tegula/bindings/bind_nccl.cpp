// Bindings for libs/nccl: communicators over the GPUs of this host and their collectives on device pointers.
// tegula.core.Communicator (python/tegula/core/_collectives.py) puts tegula arrays and streams on top.
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "tegula/bindings/bind_support.hpp"
#include "tegula/bindings/runtime_common.hpp"
#include "tegula/libs/nccl.hpp"
#include "tegula/runtime/stream.hpp"

namespace tegula::bind {

void bind_nccl(nb::module_& m) {
  using libs::communicator;
  nb::class_<communicator>(m, "NcclCommunicator", "One GPU's NCCL communicator (rank) of a group made by nccl_init_all.")
      .def_prop_ro("rank", &communicator::rank)
      .def_prop_ro("size", &communicator::size)
      .def_prop_ro("device", &communicator::device)
      .def("all_reduce", [](communicator& c, std::uintptr_t send, std::uintptr_t recv, std::size_t count,
                            const std::string& dtype, const std::string& op, nb::handle stream) {
        std::shared_ptr<rt::stream> hold;
        const rt::stream& s = to_stream(stream, hold);
        nb::gil_scoped_release g;
        c.all_reduce(send, recv, count, dtype, op, s);
      }, nb::arg("send"), nb::arg("recv"), nb::arg("count"), nb::arg("dtype"), nb::arg("op"), nb::arg("stream").none())
      .def("all_gather", [](communicator& c, std::uintptr_t send, std::uintptr_t recv, std::size_t count,
                            const std::string& dtype, nb::handle stream) {
        std::shared_ptr<rt::stream> hold;
        const rt::stream& s = to_stream(stream, hold);
        nb::gil_scoped_release g;
        c.all_gather(send, recv, count, dtype, s);
      }, nb::arg("send"), nb::arg("recv"), nb::arg("send_count"), nb::arg("dtype"), nb::arg("stream").none())
      .def("reduce_scatter", [](communicator& c, std::uintptr_t send, std::uintptr_t recv, std::size_t count,
                                const std::string& dtype, const std::string& op, nb::handle stream) {
        std::shared_ptr<rt::stream> hold;
        const rt::stream& s = to_stream(stream, hold);
        nb::gil_scoped_release g;
        c.reduce_scatter(send, recv, count, dtype, op, s);
      }, nb::arg("send"), nb::arg("recv"), nb::arg("recv_count"), nb::arg("dtype"), nb::arg("op"),
      nb::arg("stream").none())
      .def("broadcast", [](communicator& c, std::uintptr_t send, std::uintptr_t recv, std::size_t count,
                           const std::string& dtype, int root, nb::handle stream) {
        std::shared_ptr<rt::stream> hold;
        const rt::stream& s = to_stream(stream, hold);
        nb::gil_scoped_release g;
        c.broadcast(send, recv, count, dtype, root, s);
      }, nb::arg("send"), nb::arg("recv"), nb::arg("count"), nb::arg("dtype"), nb::arg("root"), nb::arg("stream").none());
  m.def("nccl_init_all", [](const std::vector<int>& devices) {
    nb::gil_scoped_release g;
    return communicator::init_all(devices);
  }, nb::arg("devices"), "One NCCL communicator per listed GPU ordinal (ncclCommInitAll), ranks in list order.");
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
