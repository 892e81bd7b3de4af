// Little-endian byte encoding for the cache's on-disk formats (same bytes on every host).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tegula::jit {

inline void put_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out.push_back(char(std::uint8_t(v >> (8 * i))));
}

inline void put_u64(std::string& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(char(std::uint8_t(v >> (8 * i))));
}

// A u64 length, then the bytes: fields can neither run together nor be misread as each other.
inline void put_field(std::string& out, std::string_view s) {
  put_u64(out, s.size());
  out.append(s.data(), s.size());
}

// Reads what the put_* functions wrote. Invariant: once a read fails, ok() stays false and
// every later read fails too, so a caller may read a whole record and check ok() once.
class byte_reader {
 public:
  explicit byte_reader(std::string_view data) : data_(data) {}

  bool ok() const { return ok_; }
  bool at_end() const { return pos_ == data_.size(); }
  std::size_t remaining() const { return data_.size() - pos_; }

  std::uint32_t u32() { return std::uint32_t(read_le(4)); }
  std::uint64_t u64() { return read_le(8); }

  std::string_view bytes(std::size_t n) {
    if (!ok_ || n > remaining()) {
      ok_ = false;
      return {};
    }
    std::string_view s = data_.substr(pos_, n);
    pos_ += n;
    return s;
  }

  std::string field() {
    std::uint64_t n = u64();
    if (!ok_ || n > remaining()) {
      ok_ = false;
      return {};
    }
    return std::string(bytes(std::size_t(n)));
  }

 private:
  std::uint64_t read_le(std::size_t n) {
    std::string_view s = bytes(n);
    if (!ok_) return 0;
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < n; ++i) v |= std::uint64_t(std::uint8_t(s[i])) << (8 * i);
    return v;
  }

  std::string_view data_;
  std::size_t pos_ = 0;
  bool ok_ = true;
};

}  // namespace tegula::jit
