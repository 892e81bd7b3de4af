// Skips a test, rather than failing it, on a machine that has no NVRTC installed.
#pragma once
#include <gtest/gtest.h>

#include "tegula/jit/nvrtc.hpp"
#include "tegula/support/error.hpp"

#define TEGULA_REQUIRE_NVRTC()                                      \
  do {                                                              \
    try {                                                           \
      (void)::tegula::jit::nvrtc_version();                         \
    } catch (const ::tegula::error& e) {                            \
      if (e.kind() != ::tegula::error_kind::driver_missing) throw;  \
      GTEST_SKIP() << e.what();                                     \
    }                                                               \
  } while (0)
