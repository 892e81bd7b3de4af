// Byte counts as people write them ("500M", "2G", "1.5GiB": powers of 1024), parsed and printed.
#include "tegula/support/byte_size.hpp"

#include <cctype>
#include <cstdio>

namespace tegula {
namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool equal_nocase(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
  return true;
}

// The power of 1024 a unit names, or -1.
int unit_power(std::string_view unit) {
  if (unit.empty() || equal_nocase(unit, "b")) return 0;
  static constexpr const char* letters = "kmgt";
  for (int p = 0; p < 4; ++p) {
    const char l[2] = {letters[p], '\0'};
    const std::string one(l), bytes = one + "b", binary = one + "ib";
    if (equal_nocase(unit, one) || equal_nocase(unit, bytes) || equal_nocase(unit, binary)) return p + 1;
  }
  return -1;
}

}  // namespace

std::optional<std::uint64_t> parse_byte_size(std::string_view text) {
  std::string_view s = trim(text);
  std::size_t i = 0;
  unsigned __int128 whole = 0;
  bool digits = false;
  while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
    whole = whole * 10 + unsigned(s[i] - '0');
    if (whole > ~std::uint64_t(0)) return std::nullopt;
    digits = true;
    ++i;
  }
  // The fraction as numerator / denominator, at most 18 digits kept (finer than a byte of a TiB).
  std::uint64_t num = 0, den = 1;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i]))) {
      if (den < 1000000000000000000ull) {
        num = num * 10 + std::uint64_t(s[i] - '0');
        den *= 10;
      }
      digits = true;
      ++i;
    }
  }
  if (!digits) return std::nullopt;
  const int power = unit_power(trim(s.substr(i)));
  if (power < 0) return std::nullopt;
  const unsigned __int128 scale = static_cast<unsigned __int128>(1) << (10 * power);
  const unsigned __int128 bytes = whole * scale + static_cast<unsigned __int128>(num) * scale / den;
  if (bytes > ~std::uint64_t(0)) return std::nullopt;
  return std::uint64_t(bytes);
}

std::string format_byte_size(std::uint64_t bytes) {
  if (bytes < 1024) return std::to_string(bytes) + " B";
  static constexpr const char* units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double v = double(bytes) / 1024;
  int u = 0;
  while (v >= 1024 && u < 5) {
    v /= 1024;
    ++u;
  }
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f %s", v, units[u]);
  return buf;
}

}  // namespace tegula
