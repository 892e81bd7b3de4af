// Text of tiles for the print op: Python-like scalars and nested lists, shortest round-trip floats.
#pragma once
#include <string>
#include <vector>

#include "tegula/interp/tile_value.hpp"

namespace tegula::interp {

// "3", "2.5", "True", "nan"; a tile of rank >= 1 as nested lists "[[1, 2], [3, 4]]". A float is
// the shortest text that reads back as the same value of its dtype.
std::string format_tile(const tile_value& t);

// Replaces each "{}" of `format` with the next tile's text; "{{" and "}}" are literal braces.
// A "{}" beyond the tiles, or tiles left over, fail (op_failure).
std::string format_print(const std::string& format, const std::vector<const tile_value*>& tiles);

}  // namespace tegula::interp
