// Text of tiles for the print op: Python-like scalars and nested lists, shortest round-trip floats.
#include "tegula/interp/print_format.hpp"

#include <charconv>
#include <cmath>

#include "tegula/interp/convert.hpp"
#include "tegula/interp/op_failure.hpp"

namespace tegula::interp {
namespace {

std::string shortest_float(double v, ir::dtype t) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
  char buf[64];
  std::to_chars_result r{};
  if (t == ir::dtype::f64) {
    r = std::to_chars(buf, buf + sizeof buf, v);
  } else if (t == ir::dtype::f32) {
    r = std::to_chars(buf, buf + sizeof buf, float(v));
  } else {
    // float16/bfloat16: the fewest significant digits that round back to the same value.
    for (int digits = 1; digits <= 17; ++digits) {
      r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::general, digits);
      double back = 0;
      std::from_chars(buf, r.ptr, back);
      if (scalar_of_double(back, t).as_double(0) == v) break;
    }
  }
  std::string s(buf, r.ptr);
  if (s.find_first_of(".e") == std::string::npos) s += ".0";
  return s;
}

std::string element(const tile_value& t, std::int64_t i) {
  switch (t.kind()) {
    case repr::real: return shortest_float(t.as_double(i), t.dtype());
    case repr::sint:
      if (t.dtype() == ir::dtype::b1) return t.truthy(i) ? "True" : "False";
      return std::to_string(t.data<std::int64_t>()[i]);
    case repr::uint: return std::to_string(t.data<std::uint64_t>()[i]);
  }
  return {};
}

void nested(const tile_value& t, int axis, std::int64_t& next, std::string& out) {
  if (axis == t.rank()) {
    out += element(t, next++);
    return;
  }
  out += '[';
  for (std::int64_t k = 0; k < t.shape()[std::size_t(axis)]; ++k) {
    if (k) out += ", ";
    nested(t, axis + 1, next, out);
  }
  out += ']';
}

}  // namespace

std::string format_tile(const tile_value& t) {
  std::string out;
  std::int64_t next = 0;
  nested(t, 0, next, out);
  return out;
}

std::string format_print(const std::string& format, const std::vector<const tile_value*>& tiles) {
  std::string out;
  std::size_t used = 0;
  for (std::size_t i = 0; i < format.size(); ++i) {
    const char c = format[i];
    const char n = i + 1 < format.size() ? format[i + 1] : '\0';
    if ((c == '{' && n == '{') || (c == '}' && n == '}')) {
      out += c;
      ++i;
    } else if (c == '{' && n == '}') {
      if (used == tiles.size()) fail_op("format '", format, "' has more {} than the ", tiles.size(), " operands");
      out += format_tile(*tiles[used++]);
      ++i;
    } else {
      out += c;
    }
  }
  if (used != tiles.size()) fail_op("format '", format, "' has ", used, " {} for ", tiles.size(), " operands");
  return out;
}

}  // namespace tegula::interp
