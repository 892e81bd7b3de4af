// gtest helper: f() must throw tegula::error of `kind` with exactly `message`.
#pragma once
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "tegula/support/error.hpp"

namespace tegula::testing {

inline void expect_error(const std::function<void()>& f, error_kind kind, const std::string& message) {
  try {
    f();
    ADD_FAILURE() << "no error; expected: " << message;
  } catch (const error& e) {
    EXPECT_EQ(static_cast<int>(e.kind()), static_cast<int>(kind)) << message;
    EXPECT_EQ(std::string(e.what()), message);
  }
}

}  // namespace tegula::testing
