// The CCCL header folder for the CUB compile tests, or "" on a machine without one (the tests then skip).
#pragma once
#include <string>

#include "tegula/libs/cub_jit.hpp"
#include "tegula/support/error.hpp"

inline std::string cccl_include_dir_or_empty() {
  try {
    return ::tegula::libs::cccl_include_dir();
  } catch (const ::tegula::error& e) {
    if (e.kind() != ::tegula::error_kind::driver_missing) throw;
    return {};
  }
}
