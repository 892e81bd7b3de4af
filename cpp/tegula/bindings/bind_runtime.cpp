// Bindings for runtime/: Device, Stream and Event here; Buffer and launch in their own files.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>

#include <cstdint>

#include "tegula/bindings/bind_support.hpp"
#include "tegula/bindings/interruptible.hpp"
#include "tegula/bindings/runtime_common.hpp"
#include "tegula/runtime/driver.hpp"
#include "tegula/runtime/event.hpp"
#include "tegula/runtime/memory_pool.hpp"
#include "tegula/support/error.hpp"

namespace tegula::bind {

rt::device& to_device(nb::handle h) {
  if (h.is_none()) return rt::device::current();
  if (nb::isinstance<device_ref>(h)) return *nb::cast<device_ref>(h).d;
  if (PyLong_Check(h.ptr())) return rt::device::get(nb::cast<int>(h));
  fail(error_kind::type_error, "expected a tegula.core.Device, a device ordinal (int) or None, got ",
       nb::type_name(h.type()).c_str());
}

namespace {

CUstream foreign_stream_handle(nb::handle h) {
  nb::object value;
  if (nb::hasattr(h, "__cuda_stream__")) {
    nb::object proto = h.attr("__cuda_stream__");
    if (PyCallable_Check(proto.ptr())) proto = proto();
    value = proto[1];  // (version, handle)
  } else if (nb::hasattr(h, "cuda_stream")) {
    value = h.attr("cuda_stream");  // torch.cuda.Stream
  } else if (nb::hasattr(h, "ptr")) {
    value = h.attr("ptr");  // cupy.cuda.Stream
  } else {
    fail(error_kind::type_error, "expected a stream (tegula.core.Stream, an object with __cuda_stream__, ",
         "or an int handle), got ", nb::type_name(h.type()).c_str());
  }
  return reinterpret_cast<CUstream>(nb::cast<std::uintptr_t>(value));
}

}  // namespace

const rt::stream& to_stream(nb::handle h, std::shared_ptr<rt::stream>& holder) {
  if (nb::isinstance<rt::stream>(h)) return *nb::inst_ptr<rt::stream>(h);
  if (h.is_none()) return *rt::device::current().default_stream();
  holder = to_stream_shared(h);
  return *holder;
}

std::shared_ptr<rt::stream> to_stream_shared(nb::handle h) {
  if (nb::isinstance<rt::stream>(h)) return nb::cast<std::shared_ptr<rt::stream>>(h);
  if (h.is_none()) return rt::device::current().default_stream();
  if (PyLong_Check(h.ptr())) return rt::stream::wrap(reinterpret_cast<CUstream>(nb::cast<std::uintptr_t>(h)));
  return rt::stream::wrap(foreign_stream_handle(h));
}

void bind_runtime_devices(nb::module_& m) {
  m.def("driver_info", [] {
    nb::dict d;
    std::string why;
    bool ok = rt::driver_available(&why);
    d["available"] = ok;
    d["error"] = why;
    if (ok) {
      d["version"] = rt::drv().version;
      d["path"] = rt::drv().path;
      d["device_count"] = rt::device::count();
    }
    return d;
  });
  m.def("device_count", &rt::device::count);

  nb::class_<device_ref>(m, "Device", "A CUDA device. Device() is the current one; Device(n) is ordinal n.")
      .def(nb::new_([](nb::handle ordinal) { return device_ref{&to_device(ordinal)}; }),
           nb::arg("device_id") = nb::none())
      .def_prop_ro("device_id", [](const device_ref& r) { return r.d->ordinal(); })
      .def_prop_ro("name", [](const device_ref& r) { return r.d->name(); })
      .def_prop_ro("compute_capability", [](const device_ref& r) { return std::make_pair(r.d->cc_major(), r.d->cc_minor()); })
      .def_prop_ro("arch", [](const device_ref& r) { return std::to_string(r.d->arch()); }, "e.g. '90' for sm_90")
      .def_prop_ro("multiprocessor_count", [](const device_ref& r) { return r.d->sm_count(); })
      .def_prop_ro("total_memory", [](const device_ref& r) { return r.d->total_memory(); })
      .def("attribute", [](const device_ref& r, int a) { return r.d->attribute(CUdevice_attribute(a)); },
           nb::arg("attribute"), "A raw CUdevice_attribute value.")
      .def_prop_ro("properties", [](const device_ref& r) {
        rt::device& d = *r.d;
        nb::dict p;
        p["max_threads_per_block"] = d.attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
        p["max_shared_memory_per_block"] = d.attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK);
        p["max_shared_memory_per_block_optin"] = d.attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN);
        p["max_shared_memory_per_multiprocessor"] = d.attribute(CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR);
        p["max_registers_per_block"] = d.attribute(CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK);
        p["max_threads_per_multiprocessor"] = d.attribute(CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR);
        p["warp_size"] = d.attribute(CU_DEVICE_ATTRIBUTE_WARP_SIZE);
        p["multiprocessor_count"] = d.sm_count();
        p["l2_cache_size"] = d.attribute(CU_DEVICE_ATTRIBUTE_L2_CACHE_SIZE);
        p["clock_rate_khz"] = d.attribute(CU_DEVICE_ATTRIBUTE_CLOCK_RATE);
        p["memory_clock_rate_khz"] = d.attribute(CU_DEVICE_ATTRIBUTE_MEMORY_CLOCK_RATE);
        p["memory_bus_width"] = d.attribute(CU_DEVICE_ATTRIBUTE_GLOBAL_MEMORY_BUS_WIDTH);
        p["cooperative_launch"] = bool(d.attribute(CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH));
        p["memory_pools_supported"] = bool(d.attribute(CU_DEVICE_ATTRIBUTE_MEMORY_POOLS_SUPPORTED));
        p["pci_bus_id"] = d.attribute(CU_DEVICE_ATTRIBUTE_PCI_BUS_ID);
        p["total_memory"] = d.total_memory();
        return p;
      })
      .def("set_current", [](const device_ref& r) { r.d->make_current(); },
           "Makes this device's primary context (the one PyTorch and CuPy use) current on this thread.")
      .def("sync", [](const device_ref& r) { nb::gil_scoped_release g; r.d->synchronize(); })
      .def("can_access_peer", [](const device_ref& r, nb::handle other) { return r.d->can_access_peer(to_device(other)); },
           nb::arg("peer"), "Whether this device's kernels can address the peer's memory directly (NVLink/PCIe P2P).")
      .def("enable_peer_access", [](const device_ref& r, nb::handle other) { r.d->enable_peer_access(to_device(other)); },
           nb::arg("peer"), "Lets this device address the peer's memory (idempotent; a no-op without a peer path).")
      .def("memory_info", [](const device_ref& r) {
        r.d->make_current();
        std::size_t free_bytes = 0, total = 0;
        TEGULA_CHECK(rt::drv().cuMemGetInfo(&free_bytes, &total));
        return std::make_pair(free_bytes, total);
      }, "(free, total) bytes on the device.")
      .def("pool_info", [](const device_ref& r) {
        return std::make_pair(r.d->pool().used_bytes(), r.d->pool().reserved_bytes());
      }, "(used, reserved) bytes of tegula's memory pool on this device.")
      .def("trim_pool", [](const device_ref& r, std::size_t keep) { r.d->pool().trim(keep); }, nb::arg("keep_bytes") = 0)
      .def("create_stream", [](const device_ref& r, bool non_blocking, int priority) {
        return rt::stream::create(*r.d, non_blocking, priority);
      }, nb::arg("non_blocking") = true, nb::arg("priority") = 0)
      .def("create_event", [](const device_ref& r, bool timing, bool blocking_sync) {
        return rt::event::create(*r.d, timing, blocking_sync);
      }, nb::arg("timing") = true, nb::arg("blocking_sync") = false)
      .def_prop_ro("default_stream", [](const device_ref& r) { return r.d->default_stream(); })
      .def("__eq__", [](const device_ref& a, nb::handle b) {
        return nb::isinstance<device_ref>(b) && nb::cast<device_ref>(b).d == a.d;
      })
      .def("__hash__", [](const device_ref& r) { return r.d->ordinal(); })
      .def("__int__", [](const device_ref& r) { return r.d->ordinal(); })
      .def("__repr__", [](const device_ref& r) { return str("<Device ", r.d->ordinal(), " (", r.d->name(), ")>"); });

  nb::class_<rt::stream>(m, "Stream", "A CUDA stream: work submitted to it runs in order.")
      .def_static("from_handle", [](nb::handle h) { return to_stream_shared(h); }, nb::arg("handle"),
                  "Borrows a stream: an int handle or an object with __cuda_stream__ (torch, cupy).")
      .def_prop_ro("handle", [](const rt::stream& s) { return reinterpret_cast<std::uintptr_t>(s.handle()); })
      .def_prop_ro("device", [](const rt::stream& s) { return device_ref{&s.dev()}; })
      .def_prop_ro("owned", &rt::stream::owned)
      .def_prop_ro("priority", &rt::stream::priority)
      .def_prop_ro("is_done", &rt::stream::query)
      .def("sync", [](const rt::stream& s) { interruptible_sync(s); }, "Waits for the stream's work (Ctrl-C interrupts).")
      .def("wait", [](const rt::stream& s, nb::handle what) {
        if (nb::isinstance<rt::event>(what)) s.wait(*nb::inst_ptr<rt::event>(what));
        else { std::shared_ptr<rt::stream> hold; s.wait(to_stream(what, hold)); }
      }, nb::arg("event_or_stream"), "Later work on this stream waits for an event or for another stream.")
      .def("record", [](const rt::stream& s, std::shared_ptr<rt::event> e) {
        if (!e) e = rt::event::create(s.dev());
        e->record(s);
        return e;
      }, nb::arg("event") = nb::none())
      .def("__cuda_stream__", [](const rt::stream& s) {
        return std::make_pair(0, reinterpret_cast<std::uintptr_t>(s.handle()));
      })
      .def("__eq__", [](const rt::stream& a, nb::handle b) {
        return nb::isinstance<rt::stream>(b) && nb::inst_ptr<rt::stream>(b)->handle() == a.handle();
      })
      .def("__hash__", [](const rt::stream& s) { return reinterpret_cast<std::uintptr_t>(s.handle()); })
      .def("__repr__", [](const rt::stream& s) {
        return str("<Stream ", hex(reinterpret_cast<std::uintptr_t>(s.handle())), " on device ",
                   s.dev().ordinal(), s.owned() ? "" : " (borrowed)", ">");
      });

  nb::class_<rt::event>(m, "Event", "A marker in a stream; timing events measure GPU time.")
      .def("record", [](rt::event& e, nb::handle s) {
        std::shared_ptr<rt::stream> hold;
        e.record(to_stream(s, hold));
      }, nb::arg("stream") = nb::none())
      .def("sync", [](const rt::event& e) { interruptible_sync(e); }, "Waits for the event (Ctrl-C interrupts).")
      .def_prop_ro("is_done", &rt::event::query)
      .def_prop_ro("timing", &rt::event::timing)
      .def("elapsed_time", [](const rt::event& start, const rt::event& end) { return rt::event::elapsed_ms(start, end); },
           nb::arg("end"), "Milliseconds from this event to `end`.")
      .def("__sub__", [](const rt::event& end, const rt::event& start) { return rt::event::elapsed_ms(start, end); },
           "end - start: milliseconds between two events.");
}

void bind_runtime(nb::module_& m) {
  bind_runtime_devices(m);
  bind_runtime_memory(m);
  bind_runtime_launch(m);
}

}  // namespace tegula::bind
