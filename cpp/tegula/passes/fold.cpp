// Constant folding of elementwise ops on scalar values: the interpreter's own arithmetic, so a
// folded constant is exactly what the op would have computed (DESIGN.md rule 1).
#include "tegula/passes/fold.hpp"

#include <cmath>
#include <cstdint>
#include <exception>

#include "tegula/interp/convert.hpp"
#include "tegula/interp/evaluate.hpp"
#include "tegula/ir/op_traits.hpp"

namespace tegula::passes {
namespace {

using ir::dtype;
using ir::op_kind;
using I = std::int64_t;
using U = std::uint64_t;

// Integer bits wrapped to dtype t's width, canonical (see fold.hpp).
I wrap(U bits, dtype t) {
  if (ir::is_bool(t)) return bits != 0;
  int w = ir::size_bits(t);
  if (w == 64) return I(bits);
  U mask = (U(1) << w) - 1;
  bits &= mask;
  if (ir::is_signed_int(t) && (bits >> (w - 1))) bits |= ~mask;
  return I(bits);
}

interp::tile_value to_tile(const ir::attribute& v, dtype t) {
  if (ir::is_float(t)) return interp::scalar_of_double(std::get<double>(v), t);
  if (ir::is_unsigned_int(t)) return interp::scalar_of_uint(U(std::get<I>(v)), t);
  return interp::scalar_of_int(std::get<I>(v), t);
}

ir::attribute from_tile(const interp::tile_value& r) {
  switch (r.kind()) {
    case interp::repr::real: return r.data<double>()[0];
    case interp::repr::sint: return r.data<I>()[0];
    case interp::repr::uint: return I(r.data<U>()[0]);  // canonical: uint64 as its bit pattern
  }
  return I(0);
}

// What folds: results that every target reproduces exactly. Transcendentals differ between libm
// and CUDA; float pow/floordiv/mod are left to run time too; a float -> int conversion out of range
// (NaN too) saturates at run time and an int -> float beyond 2^53 needs one careful rounding.
// Ops that would fail at run time (integer division by zero, ...) throw in the evaluator and are
// left alone by fold().
bool foldable(const ir::op& o, const std::vector<dtype>& in, const std::vector<ir::attribute>& values, dtype out) {
  const op_kind k = o.kind;
  if (k == op_kind::astype) {
    if (in.size() != 1) return false;
    if (ir::is_float(in[0]) && ir::is_int(out)) {
      double t = std::trunc(std::get<double>(values[0]));
      int w = ir::size_bits(out);
      return ir::is_signed_int(out) ? (t >= -std::ldexp(1.0, w - 1) && t < std::ldexp(1.0, w - 1))
                                    : (t >= 0 && t < std::ldexp(1.0, w));
    }
    if (!ir::is_float(in[0]) && ir::is_float(out)) {
      I i = std::get<I>(values[0]);
      U mag = ir::is_signed_int(in[0]) && i < 0 ? 0 - U(i) : U(i);
      return mag < (U(1) << 53);
    }
    return true;
  }
  if (in.size() == 1) {
    if (ir::is_float(in[0])) return k == op_kind::neg || k == op_kind::abs || k == op_kind::floor || k == op_kind::ceil;
    return k == op_kind::neg || k == op_kind::abs || k == op_kind::logical_not;
  }
  if (in.size() == 2 && in[0] == in[1]) {
    if (!ir::is_float(in[0])) return true;  // every integer/bool binary op and comparison
    return k == op_kind::add || k == op_kind::sub || k == op_kind::mul || k == op_kind::div ||
           k == op_kind::minimum || k == op_kind::maximum || ir::is_comparison(k);
  }
  return false;
}

}  // namespace

double round_float(double v, dtype t) {
  if (!ir::is_float(t)) return v;
  return interp::scalar_of_double(v, t).data<double>()[0];
}

std::optional<ir::attribute> read_constant(const ir::attribute& value, dtype t) {
  if (ir::is_float(t)) {
    if (auto* d = std::get_if<double>(&value)) return round_float(*d, t);
    if (auto* i = std::get_if<I>(&value)) {
      if (*i >= (I(1) << 53) || *i <= -(I(1) << 53)) return std::nullopt;
      return round_float(double(*i), t);
    }
    return std::nullopt;
  }
  if (auto* i = std::get_if<I>(&value)) return wrap(U(*i), t);
  return std::nullopt;
}

std::optional<ir::attribute> fold(const ir::op& o, const std::vector<dtype>& in, const std::vector<ir::attribute>& values,
                                  dtype out) {
  if (in.size() != values.size() || in.empty()) return std::nullopt;
  for (std::size_t i = 0; i < in.size(); ++i)
    if (ir::is_float(in[i]) ? !std::holds_alternative<double>(values[i]) : !std::holds_alternative<I>(values[i]))
      return std::nullopt;
  if (!foldable(o, in, values, out)) return std::nullopt;
  std::vector<interp::tile_value> tiles;
  for (std::size_t i = 0; i < in.size(); ++i) tiles.push_back(to_tile(values[i], in[i]));
  std::vector<const interp::tile_value*> operands;
  for (const auto& t : tiles) operands.push_back(&t);
  try {
    // astype converts to `out` (the caller's result dtype), through the evaluator's own convert().
    std::optional<interp::tile_value> r = o.kind == op_kind::astype ? interp::convert(tiles[0], out)
                                                                      : interp::evaluate_elementwise(o, operands);
    if (!r || r->dtype() != out) return std::nullopt;
    return from_tile(*r);
  } catch (const std::exception&) {
    return std::nullopt;  // the op fails at run time (e.g. integer division by zero): leave it there
  }
}

}  // namespace tegula::passes
