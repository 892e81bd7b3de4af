// The Python-visible ndarray handle: one node of the array engine (shared by views and graphs).
#pragma once
#include <nanobind/nanobind.h>

#include <cstdint>

#include "tegula/array/expr.hpp"

namespace tegula::bind {

struct py_array {
  array::node_ptr n;
};

// A zero-copy leaf over someone else's memory at `ptr` (view `l`, strides in elements; device -1: host memory);
// `owner` is kept alive (released with the GIL taken) until the last view of it goes (bind_array.cpp).
array::node_ptr borrowed_leaf(std::uintptr_t ptr, array::layout l, ir::dtype t, int device, nanobind::object owner);

// a._export_dlpack(stream, max_version), behind ndarray.__dlpack__: array_dlpack.cpp.
nanobind::object export_dlpack(const py_array& a, nanobind::handle stream, nanobind::handle max_version);

}  // namespace tegula::bind
