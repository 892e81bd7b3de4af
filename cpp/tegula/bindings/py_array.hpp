// The Python-visible ndarray handle: one node of the array engine (shared by views and graphs).
#pragma once
#include <nanobind/nanobind.h>

#include "tegula/array/expr.hpp"

namespace tegula::bind {

struct py_array {
  array::node_ptr n;
};

// a._export_dlpack(stream, max_version), behind ndarray.__dlpack__: array_dlpack.cpp.
nanobind::object export_dlpack(const py_array& a, nanobind::handle stream, nanobind::handle max_version);

}  // namespace tegula::bind
