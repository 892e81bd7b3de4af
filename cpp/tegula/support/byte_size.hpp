// Byte counts as people write them ("500M", "2G", "1.5GiB": powers of 1024), parsed and printed.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tegula {

// A number (digits, optionally one '.' and more digits) and an optional unit, case-insensitive: B, K/KB/KiB,
// M/MB/MiB, G/GB/GiB, T/TB/TiB; every unit is a power of 1024 (as `du -h` counts). Spaces around the number and
// between it and the unit are allowed. nullopt for anything else: empty text, a sign, an unknown unit, a value
// past 2^64 - 1. A fraction is rounded down to whole bytes.
std::optional<std::uint64_t> parse_byte_size(std::string_view text);

// "0 B", "512 B", "1.5 KiB", "12.3 MiB", "2.0 GiB": one decimal from KiB on.
std::string format_byte_size(std::uint64_t bytes);

}  // namespace tegula
