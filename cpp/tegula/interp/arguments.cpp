// Checks run()'s arguments against the function's parameters and binds them to parameter values.
#include "tegula/interp/arguments.hpp"

#include <memory>

#include "tegula/interp/convert.hpp"
#include "tegula/support/error.hpp"

namespace tegula::interp {
namespace {

std::string who(const ir::function& f, const ir::param& p) {
  return str("argument '", p.name, "' of kernel '", f.name, "'");
}

void check_array(const ir::function& f, const ir::param& p, const ir::type& t, const array_arg& a) {
  if (a.elem != t.elem)
    fail(error_kind::type_error, who(f, p), ": expected an array of ", ir::name(t.elem), ", got ", ir::name(a.elem));
  if (int(a.shape.size()) != t.rank())
    fail(error_kind::type_error, who(f, p), ": expected an array of rank ", t.rank(), ", got rank ", a.shape.size());
  if (a.strides.size() != a.shape.size())
    fail(error_kind::invalid_argument, who(f, p), ": ", a.shape.size(), " extents but ", a.strides.size(), " strides");
  bool empty = false;
  for (auto d : a.shape) {
    if (d < 0) fail(error_kind::invalid_argument, who(f, p), ": negative extent ", d);
    empty = empty || d == 0;
  }
  if (!a.data && !empty) fail(error_kind::invalid_argument, who(f, p), ": null data for a non-empty array");
}

// Whether an integer (given as sign and two's complement bits) fits integer dtype t.
bool fits(bool negative, std::uint64_t bits, ir::dtype t) {
  const int w = ir::size_bits(t);
  if (ir::is_unsigned_int(t)) return !negative && (w == 64 || bits < (std::uint64_t(1) << w));
  const std::int64_t lo = w == 64 ? INT64_MIN : -(std::int64_t(1) << (w - 1));
  const std::int64_t hi = w == 64 ? INT64_MAX : (std::int64_t(1) << (w - 1)) - 1;
  if (!negative && bits > std::uint64_t(INT64_MAX)) return false;
  const auto v = std::int64_t(bits);
  return v >= lo && v <= hi;
}

tile_ptr scalar_value(const ir::function& f, const ir::param& p, ir::dtype t, const scalar_arg& s) {
  if (const bool* b = std::get_if<bool>(&s)) return std::make_shared<tile_value>(scalar_of_int(*b, t));
  if (const double* d = std::get_if<double>(&s)) {
    if (!ir::is_float(t))
      fail(error_kind::type_error, who(f, p), ": expected ", ir::name(t), ", got a float (", *d, ")");
    return std::make_shared<tile_value>(scalar_of_double(*d, t));
  }
  const bool negative = std::holds_alternative<std::int64_t>(s) && std::get<std::int64_t>(s) < 0;
  const std::uint64_t bits = std::holds_alternative<std::int64_t>(s) ? std::uint64_t(std::get<std::int64_t>(s))
                                                                    : std::get<std::uint64_t>(s);
  if (ir::is_int(t) && !fits(negative, bits, t)) {
    const std::string text = negative ? std::to_string(std::int64_t(bits)) : std::to_string(bits);
    fail(error_kind::invalid_argument, who(f, p), ": ", text, " does not fit in ", ir::name(t));
  }
  return std::make_shared<tile_value>(negative ? scalar_of_int(std::int64_t(bits), t) : scalar_of_uint(bits, t));
}

}  // namespace

std::vector<bound_param> bind_arguments(const ir::function& f, const std::vector<argument>& args) {
  if (args.size() != f.params.size())
    fail(error_kind::invalid_argument, "kernel '", f.name, "' takes ", f.params.size(), " arguments, got ",
         args.size());
  std::vector<bound_param> bound;
  bound.reserve(args.size());
  for (std::size_t i = 0; i < args.size(); ++i) {
    const ir::param& p = f.params[i];
    const ir::type& t = f.type_of(p.value);
    bound_param b;
    b.value = p.value;
    if (t.is_array()) {
      const auto* a = std::get_if<array_arg>(&args[i]);
      if (!a) fail(error_kind::type_error, who(f, p), ": expected ", ir::to_string(t), ", got a scalar");
      check_array(f, p, t, *a);
      b.array = a;
    } else if (t.is_scalar()) {
      const auto* s = std::get_if<scalar_arg>(&args[i]);
      if (!s) fail(error_kind::type_error, who(f, p), ": expected a scalar (", ir::name(t.elem), "), got an array");
      b.scalar = scalar_value(f, p, t.elem, *s);
    } else {
      fail(error_kind::type_error, who(f, p), " has type ", ir::to_string(t),
           ": kernel parameters are arrays or scalars");
    }
    bound.push_back(std::move(b));
  }
  return bound;
}

}  // namespace tegula::interp
