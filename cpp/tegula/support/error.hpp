// Errors: one exception type whose kind the bindings map to a Python exception class.
#pragma once
#include <sstream>
#include <stdexcept>
#include <string>
#include <utility>

namespace tegula {

// Each kind maps to exactly one Python exception (see bindings/bind_support.cpp).
enum class error_kind {
  invalid_argument,  // ValueError
  type_error,        // TypeError
  out_of_memory,     // MemoryError
  cuda,              // tegula.CUDAError (a CUresult other than out-of-memory)
  driver_missing,    // tegula.DriverNotFoundError (no libcuda / no device / no NVRTC)
  compile,           // tegula.CompileError (the compile log is in the message)
  cache,             // tegula.CacheError
  internal,          // RuntimeError: a bug in tegula
};

class error : public std::runtime_error {
 public:
  error(error_kind kind, const std::string& message, int code = 0)
      : std::runtime_error(message), kind_(kind), code_(code) {}
  error_kind kind() const noexcept { return kind_; }
  // The CUresult or nvrtcResult behind a cuda/compile error, else 0.
  int code() const noexcept { return code_; }

 private:
  error_kind kind_;
  int code_;
};

// str(a, b, c): concatenates anything an ostream can print (g++ 12 has no <format>).
template <class... Parts>
std::string str(Parts&&... parts) {
  std::ostringstream out;
  (out << ... << std::forward<Parts>(parts));
  return out.str();
}

template <class... Parts>
[[noreturn]] void fail(error_kind kind, Parts&&... parts) {
  throw error(kind, str(std::forward<Parts>(parts)...));
}

}  // namespace tegula
