// The Python-visible ndarray handle: one node of the array engine (shared by views and graphs).
#pragma once
#include "tegula/array/expr.hpp"

namespace tegula::bind {

struct py_array {
  array::node_ptr n;
};

}  // namespace tegula::bind
