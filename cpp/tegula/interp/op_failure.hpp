// The error an op's computation raises before it knows where it is; the executor adds the
// op's location and block index and rethrows it as tegula::error(invalid_argument), a
// located_error so that enclosing region ops pass it on unchanged.
#pragma once
#include <stdexcept>
#include <string>
#include <utility>

#include "tegula/support/error.hpp"

namespace tegula::interp {

struct op_failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// A tegula::error whose message already starts with the failing op's location.
struct located_error : error {
  using error::error;
};

template <class... Parts>
[[noreturn]] void fail_op(Parts&&... parts) {
  throw op_failure(str(std::forward<Parts>(parts)...));
}

}  // namespace tegula::interp
