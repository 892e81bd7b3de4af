// Kernel arguments that Python shaped (tegula.tile._args): an argument of the kernel module and what keeps its
// memory alive. The tile launcher reads them next to the torch tensors, tegula arrays and Python scalars it knows.
#pragma once
#include <nanobind/nanobind.h>

#include <string>

#include "tegula/kernel/arguments.hpp"

namespace tegula::bind {

namespace nb = nanobind;

struct shaped_arg {
  kernel::argument arg;
  nb::object owner;  // the array's owner (None for scalars)
};

// The tile dtype of `name`; type_error for names tiles do not have (complex included).
ir::dtype tile_dtype(const std::string& name);

}  // namespace tegula::bind
