// Shared by the runtime binders: turning Python arguments into devices and streams.
#pragma once
#include <nanobind/nanobind.h>

#include <memory>

#include "tegula/runtime/device.hpp"
#include "tegula/runtime/stream.hpp"

namespace tegula::bind {

namespace nb = nanobind;

// Python's Device is a small value (devices themselves live for the whole process).
struct device_ref {
  rt::device* d;
};

// None -> the current device; an int -> that ordinal; a Device -> itself.
rt::device& to_device(nb::handle h);

// A stream argument: a tegula Stream, None (the current device's legacy default stream), an int
// handle, or a foreign stream object (__cuda_stream__, torch's .cuda_stream, cupy's .ptr).
// `holder` keeps a wrapped foreign stream alive for the duration of the call.
const rt::stream& to_stream(nb::handle h, std::shared_ptr<rt::stream>& holder);
std::shared_ptr<rt::stream> to_stream_shared(nb::handle h);

void bind_runtime_devices(nb::module_& m);  // Device, Stream, Event
void bind_runtime_memory(nb::module_& m);   // Buffer
void bind_runtime_launch(nb::module_& m);   // ObjectCode, Kernel, LaunchConfig, launch

}  // namespace tegula::bind
