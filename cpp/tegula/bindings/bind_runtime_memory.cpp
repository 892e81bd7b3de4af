// Bindings for runtime/buffer: Buffer, with host copies and DLPack / CUDA array interface export.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>

#include <cstdint>

#include "tegula/bindings/arguments.hpp"
#include "tegula/bindings/dlpack_capsule.hpp"
#include "tegula/bindings/runtime_common.hpp"
#include "tegula/runtime/buffer.hpp"
#include "tegula/runtime/event.hpp"
#include "tegula/support/dlpack.hpp"
#include "tegula/support/error.hpp"

namespace tegula::bind {
namespace {

// A contiguous host view of any buffer-protocol object, released on scope exit.
struct host_view {
  Py_buffer view{};
  host_view(nb::handle obj, bool writable) {
    int flags = PyBUF_C_CONTIGUOUS | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(obj.ptr(), &view, flags) != 0) {
      PyErr_Clear();
      fail(error_kind::type_error, "expected a C-contiguous", writable ? " writable" : "",
           " host buffer (numpy array, bytes, bytearray, memoryview), got ", nb::type_name(obj.type()).c_str());
    }
  }
  ~host_view() { PyBuffer_Release(&view); }
};

const rt::stream& work_stream(const rt::buffer& b, nb::handle s, std::shared_ptr<rt::stream>& hold) {
  if (s.is_none() && b.alloc_stream()) return *b.alloc_stream();
  return to_stream(s, hold);
}

// The array API's __dlpack__ stream rule: the consumer passes its stream; the producer makes that
// stream wait for the producer's pending work (-1: no synchronisation; None or 1: legacy default).
void order_for_consumer(const rt::buffer& b, nb::handle stream) {
  if (!b.alloc_stream()) return;  // borrowed: the owner orders its own work
  std::shared_ptr<rt::stream> consumer;
  if (stream.is_none()) {
    consumer = b.dev().default_stream();
  } else {
    long long s = nb::cast<long long>(stream);
    if (s == -1) return;
    if (s == 0) fail(error_kind::invalid_argument, "__dlpack__: stream=0 is ambiguous for CUDA; use 1 (legacy default) or 2 (per-thread)");
    consumer = rt::stream::wrap(s <= 2 ? reinterpret_cast<CUstream>(s == 2 ? CU_STREAM_PER_THREAD : nullptr)
                                       : reinterpret_cast<CUstream>(s),
                                b.dev());
  }
  consumer->wait(*b.alloc_stream());
}

}  // namespace

void bind_runtime_memory(nb::module_& m) {
  auto cls = nb::class_<rt::buffer>(m, "Buffer", "Device memory: owned (from tegula's pool) or borrowed.");
  set_buffer_type(reinterpret_cast<PyTypeObject*>(cls.ptr()));
  cls.def_static("allocate", [](std::size_t size, nb::handle device, nb::handle stream) {
        std::shared_ptr<rt::stream> s = stream.is_none() ? to_device(device).default_stream() : to_stream_shared(stream);
        return rt::buffer::allocate(size, s);
      }, nb::arg("size"), nb::arg("device") = nb::none(), nb::arg("stream") = nb::none(),
      "Stream-ordered allocation from tegula's caching pool.")
      .def_static("from_host", [](nb::handle obj, nb::handle device, nb::handle stream) {
        host_view v(obj, false);
        std::shared_ptr<rt::stream> s = stream.is_none() ? to_device(device).default_stream() : to_stream_shared(stream);
        auto b = rt::buffer::allocate(std::size_t(v.view.len), s);
        nb::gil_scoped_release g;
        b->copy_from_host(v.view.buf, std::size_t(v.view.len), 0, *s);
        return b;
      }, nb::arg("obj"), nb::arg("device") = nb::none(), nb::arg("stream") = nb::none(),
      "A new buffer holding a copy of a host buffer-protocol object (numpy array, bytes).")
      .def_static("from_pointer", [](std::uintptr_t ptr, std::size_t size, nb::handle device, nb::object owner) {
        auto keep = owner.is_none() ? std::shared_ptr<void>() : std::shared_ptr<void>(new nb::object(owner), [](void* p) {
          nb::gil_scoped_acquire g;
          delete static_cast<nb::object*>(p);
        });
        return rt::buffer::borrow(CUdeviceptr(ptr), size, to_device(device), keep);
      }, nb::arg("ptr"), nb::arg("size"), nb::arg("device") = nb::none(), nb::arg("owner") = nb::none(),
      "Borrows device memory owned elsewhere; `owner` is kept alive as long as the buffer.")
      .def_prop_ro("handle", [](const rt::buffer& b) { return std::uintptr_t(b.ptr()); }, "The device address.")
      .def_prop_ro("ptr", [](const rt::buffer& b) { return std::uintptr_t(b.ptr()); })
      .def_prop_ro("size", &rt::buffer::size)
      .def_prop_ro("device", [](const rt::buffer& b) { return device_ref{&b.dev()}; })
      .def_prop_ro("owned", &rt::buffer::owned)
      .def_prop_ro("closed", &rt::buffer::closed)
      .def("__len__", &rt::buffer::size)
      .def("close", [](rt::buffer& b, nb::handle stream) {
        std::shared_ptr<rt::stream> hold;
        b.close(stream.is_none() ? nullptr : &to_stream(stream, hold));
      }, nb::arg("stream") = nb::none(), "Frees now (stream-ordered); later use raises ValueError.")
      .def("copy_from_host", [](rt::buffer& b, nb::handle obj, nb::handle stream, std::size_t offset) {
        host_view v(obj, false);
        std::shared_ptr<rt::stream> hold;
        const rt::stream& s = work_stream(b, stream, hold);
        nb::gil_scoped_release g;
        b.copy_from_host(v.view.buf, std::size_t(v.view.len), offset, s);
      }, nb::arg("obj"), nb::arg("stream") = nb::none(), nb::arg("offset") = 0)
      .def("copy_to_host", [](const rt::buffer& b, nb::handle out, nb::handle stream) -> nb::object {
        std::shared_ptr<rt::stream> hold;
        const rt::stream& s = work_stream(b, stream, hold);
        if (out.is_none()) {
          nb::object bytes = nb::steal(PyBytes_FromStringAndSize(nullptr, Py_ssize_t(b.size())));
          if (!bytes.is_valid()) throw nb::python_error();
          char* dst = PyBytes_AS_STRING(bytes.ptr());
          nb::gil_scoped_release g;
          b.copy_to_host(dst, b.size(), 0, s);
          return bytes;
        }
        host_view v(out, true);
        if (std::size_t(v.view.len) > b.size())
          fail(error_kind::invalid_argument, "copy_to_host: the destination holds ", v.view.len,
               " bytes but the buffer has only ", b.size());
        {
          nb::gil_scoped_release g;
          b.copy_to_host(v.view.buf, std::size_t(v.view.len), 0, s);
        }
        return nb::borrow(out);
      }, nb::arg("out") = nb::none(), nb::arg("stream") = nb::none(),
      "Copies to host memory (a new bytes object, or into `out`) and waits for the copy.")
      .def("copy_from", [](rt::buffer& b, const rt::buffer& src, nb::handle stream) {
        if (src.size() != b.size())
          fail(error_kind::invalid_argument, "copy_from: sizes differ (", src.size(), " vs ", b.size(), " bytes)");
        std::shared_ptr<rt::stream> hold;
        b.copy_from(src, b.size(), work_stream(b, stream, hold));
      }, nb::arg("src"), nb::arg("stream") = nb::none())
      .def("copy_to", [](const rt::buffer& b, rt::buffer& dst, nb::handle stream) {
        if (dst.size() != b.size())
          fail(error_kind::invalid_argument, "copy_to: sizes differ (", b.size(), " vs ", dst.size(), " bytes)");
        std::shared_ptr<rt::stream> hold;
        dst.copy_from(b, b.size(), work_stream(b, stream, hold));
      }, nb::arg("dst"), nb::arg("stream") = nb::none())
      .def("fill", [](rt::buffer& b, int value, nb::handle stream) {
        if (value < 0 || value > 255) fail(error_kind::invalid_argument, "fill value must be a byte (0..255), got ", value);
        std::shared_ptr<rt::stream> hold;
        b.fill(std::uint8_t(value), work_stream(b, stream, hold));
      }, nb::arg("value"), nb::arg("stream") = nb::none(), "Sets every byte to `value`.")
      .def("__dlpack_device__", [](const rt::buffer& b) { return std::make_pair(int(dlpack::kDLCUDA), b.dev().ordinal()); })
      .def("__dlpack__", [](nb::handle self, nb::handle stream, nb::handle max_version, nb::handle dl_device, nb::handle copy) {
        auto b = nb::cast<std::shared_ptr<rt::buffer>>(self);
        if (b->closed()) fail(error_kind::invalid_argument, "__dlpack__: the buffer is closed");
        if (!copy.is_none() && nb::cast<bool>(copy))
          fail(error_kind::invalid_argument, "__dlpack__: copy=True is not supported for Buffer");
        if (!dl_device.is_none()) {
          auto d = nb::cast<std::pair<int, int>>(dl_device);
          if (d.first != dlpack::kDLCUDA || d.second != b->dev().ordinal())
            fail(error_kind::invalid_argument, "__dlpack__: the buffer lives on CUDA device ", b->dev().ordinal());
        }
        order_for_consumer(*b, stream);
        bool versioned = !max_version.is_none() && nb::cast<int>(max_version[0]) >= 1;
        auto owner = std::make_unique<dlpack_owner>(dlpack_owner{b, {std::int64_t(b->size())}, {}});
        return dlpack_capsule(reinterpret_cast<void*>(b->ptr()), {dlpack::kDLCUDA, b->dev().ordinal()},
                              {dlpack::kDLUInt, 8, 1}, std::move(owner), versioned);
      }, nb::kw_only(), nb::arg("stream") = nb::none(), nb::arg("max_version") = nb::none(),
      nb::arg("dl_device") = nb::none(), nb::arg("copy") = nb::none(),
      "DLPack export as a 1-D uint8 tensor, ordered before the consumer's `stream`.")
      .def_prop_ro("__cuda_array_interface__", [](const rt::buffer& b) {
        nb::dict d;
        d["shape"] = nb::make_tuple(b.size());
        d["typestr"] = "|u1";
        d["data"] = nb::make_tuple(std::uintptr_t(b.ptr()), false);
        d["strides"] = nb::none();
        d["version"] = 3;
        if (b.alloc_stream()) {
          auto h = reinterpret_cast<std::uintptr_t>(b.alloc_stream()->handle());
          d["stream"] = h == 0 ? std::uintptr_t(1) : h;
        }
        return d;
      })
      .def("__repr__", [](const rt::buffer& b) {
        return str("<Buffer ", b.size(), " bytes at ", hex(b.ptr()), " on device ",
                   b.dev().ordinal(), b.closed() ? ", closed" : "", b.owned() ? "" : ", borrowed", ">");
      });
}

}  // namespace tegula::bind
