// Python objects read as tile kernel arguments in C++ (the tile launcher's fast path): GPU torch tensors, tegula
// arrays, Python scalars and tt.Constant values. Anything else is shaped by Python (tegula.tile._args: KernelArg).
#pragma once
#include <nanobind/nanobind.h>

#include <string>

#include "tegula/kernel/arguments.hpp"

namespace tegula::bind {

namespace nb = nanobind;

// torch's current stream on the tensor's device (torch._C._cuda_getCurrentRawStream), as a Python int handle;
// None when torch cannot say. Launches given torch tensors and no stream go there, so they are ordered after the
// torch work that produced their inputs (torch.cuda.stream(...) blocks included) and before what reads outputs.
nb::object torch_current_stream(PyObject* tensor);

// A new reference from `o.name` / `o.name()`, or null with the Python error cleared.
nb::object get_attr(PyObject* o, PyObject* name);

// Reads a tuple of `n` Python ints; false when it is not one.
bool read_ints(PyObject* t, long long* out, std::size_t n);

// A GPU torch tensor; false when `a` is not one (or has a dtype tiles lack: Python raises the error).
bool torch_array(PyObject* a, kernel::array_arg& out);

// A tegula GPU array, as Python's path reads it through its CUDA array interface: pending expressions are
// materialised and pending readers of its memory flushed (the kernel may write it). False when `a` is not a tegula
// array, lies on the CPU or has a dtype tiles lack (Python raises the error).
bool tegula_array(PyObject* a, kernel::array_arg& out);

// An object with __cuda_array_interface__ (CuPy, Numba, ...) whose dtype, strides and mask tiles read as they are;
// false otherwise (Python's path shapes or explains it).
bool cuda_interface_array(PyObject* a, kernel::array_arg& out);

// A numpy.ndarray (host memory: for the interpreter) read through __array_interface__, on the same terms.
bool numpy_array(PyObject* a, kernel::array_arg& out);

// A Python int/float/bool scalar (exact types only): int -> int32 when it fits, else int64; float -> float32.
bool python_scalar(PyObject* a, kernel::scalar_arg& out);

// Appends a tt.Constant's key (kernel/signature: key_constant): exact ints, floats and bools by value, anything
// else by type name and repr.
void constant_key(PyObject* a, std::string& key);

}  // namespace tegula::bind
