// Launch arguments: Python objects -> kernel parameter bytes, and device pointers of foreign arrays.
#pragma once
#include <cuda.h>
#include <nanobind/nanobind.h>

#include <cstdint>
#include <optional>

#include "tegula/runtime/launch.hpp"
#include "tegula/runtime/module.hpp"

namespace tegula::bind {

namespace nb = nanobind;

// The device address of a GPU array owned by another library: torch tensors (data_ptr), anything
// with __cuda_array_interface__, or __dlpack__ (asked with `consumer` as the stream, so the
// producer orders its pending writes before our work). nullopt when obj is none of these.
// TypeError for an array that lives in host memory.
std::optional<std::uintptr_t> foreign_device_pointer(nb::handle obj, CUstream consumer);

// Packs `args` at the kernel's parameter offsets. Accepted: tegula Buffers and foreign GPU arrays
// (pointers), Python int/float/bool (sized by the parameter: an int into a 4-byte parameter is an
// int32, range-checked), and anything with the buffer protocol whose size matches the parameter
// (numpy scalars, ctypes values, bytes for by-value structs). TypeError names the argument.
// Not a second ABI packer: here one Python value fills one image parameter and the image's size decides its
// encoding (cuda.core's rule for raw kernels); kernel::pack writes the tile ABI, where one argument is several
// parameters whose encoding the IR decides and the image's sizes only confirm it. Where bytes go has one authority
// for both: the image's offsets (rt::kernel::params) and rt::param_buffer.
void pack_arguments(rt::kernel& k, PyObject* const* args, std::size_t nargs, rt::param_buffer& out,
                    CUstream stream);

// Registers the Buffer type for the fast path (called once from bind_runtime).
void set_buffer_type(PyTypeObject* type);

}  // namespace tegula::bind
