// Errors: one exception type whose kind the bindings map to a Python exception class.
#pragma once
#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

namespace tegula {

// Each kind maps to exactly one Python exception (see bindings/bind_support.cpp).
enum class error_kind {
  invalid_argument,  // ValueError
  type_error,        // TypeError
  index_error,       // IndexError
  overflow,          // OverflowError
  axis_error,        // tegula.AxisError (a ValueError and an IndexError, as numpy.exceptions.AxisError)
  not_implemented,   // NotImplementedError: a NumPy feature tegula does not have (yet); the message says which
  out_of_memory,     // MemoryError
  cuda,              // tegula.CUDAError (a CUresult other than out-of-memory)
  driver_missing,    // tegula.DriverNotFoundError (no libcuda / no device / no NVRTC)
  compile,           // tegula.CompileError (the compile log is in the message)
  cache,             // tegula.CacheError
  internal,          // RuntimeError: a bug in tegula
  interrupted,       // KeyboardInterrupt: a wait, compile or interpreted run stopped by Ctrl-C
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

// str(a, b, c): concatenates strings, characters and numbers. Not iostream-based: no locale, no
// stream construction on error paths, and no manipulators (use hex() for addresses).
namespace detail {
inline void append(std::string& s, const std::string& v) { s += v; }
inline void append(std::string& s, std::string_view v) { s.append(v.data(), v.size()); }
inline void append(std::string& s, const char* v) { s += v ? v : "(null)"; }
inline void append(std::string& s, char* v) { append(s, static_cast<const char*>(v)); }
inline void append(std::string& s, char c) { s += c; }
inline void append(std::string& s, bool b) { s += b ? '1' : '0'; }
template <class T>
  requires std::is_integral_v<T>
void append(std::string& s, T v) {
  s += std::to_string(v);
}
template <class T>
  requires std::is_floating_point_v<T>
void append(std::string& s, T v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.9g", double(v));
  s += buf;
}
}  // namespace detail

template <class... Parts>
std::string str(const Parts&... parts) {
  std::string s;
  (detail::append(s, parts), ...);
  return s;
}

// "0x1f00" for addresses and handles in messages and reprs.
inline std::string hex(unsigned long long v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", v);
  return buf;
}

template <class... Parts>
[[noreturn]] void fail(error_kind kind, const Parts&... parts) {
  throw error(kind, str(parts...));
}

}  // namespace tegula
