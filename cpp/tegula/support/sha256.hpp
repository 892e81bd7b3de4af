// SHA-256: content addresses for the compile cache and checksums of its entries.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tegula {

class sha256 {
 public:
  using digest_t = std::array<std::uint8_t, 32>;
  sha256();
  sha256& update(const void* data, std::size_t size);
  sha256& update(std::string_view s) { return update(s.data(), s.size()); }
  // Length-prefixed, so that ("ab","c") and ("a","bc") hash differently.
  sha256& field(std::string_view s);
  digest_t digest();          // finishes the hash; the object must not be updated after
  std::string hex_digest();   // digest() as 64 lowercase hex characters

 private:
  void block(const std::uint8_t* p);
  std::array<std::uint32_t, 8> h_;
  std::array<std::uint8_t, 64> buf_{};
  std::size_t buf_len_ = 0;
  std::uint64_t total_ = 0;
};

std::string to_hex(const std::uint8_t* data, std::size_t size);

}  // namespace tegula
