// A tile's value in the interpreter: a dtype, a static shape and dense row-major storage.
#include "tegula/interp/tile_value.hpp"

#include <cmath>

#include "tegula/interp/dtype_traits.hpp"
#include "tegula/support/error.hpp"

namespace tegula::interp {

repr repr_of(ir::dtype t) {
  if (ir::is_float(t)) return repr::real;
  if (ir::is_unsigned_int(t)) return repr::uint;
  return repr::sint;  // signed ints and bool
}

std::int64_t shape_numel(const std::vector<std::int64_t>& shape) {
  std::int64_t n = 1;
  for (auto d : shape) n *= d;
  return n;
}

std::string shape_string(const std::vector<std::int64_t>& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
  return s + (shape.size() == 1 ? ",)" : ")");
}

tile_value::tile_value(ir::dtype t, std::vector<std::int64_t> shape)
    : dtype_(t), repr_(repr_of(t)), shape_(std::move(shape)), numel_(shape_numel(shape_)) {
  if (numel_ < 0) fail(error_kind::internal, "tile of negative size ", shape_string(shape_));
  if (repr_ == repr::real) reals_.assign(std::size_t(numel_), 0.0);
  else ints_.assign(std::size_t(numel_), 0);
}

double tile_value::as_double(std::int64_t i) const {
  switch (repr_) {
    case repr::real: return reals_[std::size_t(i)];
    case repr::sint: return double(ints_[std::size_t(i)]);
    case repr::uint: return double(std::uint64_t(ints_[std::size_t(i)]));
  }
  return 0;
}

std::int64_t tile_value::as_int(std::int64_t i) const {
  if (repr_ == repr::real) {
    double v = reals_[std::size_t(i)];
    if (!(std::fabs(v) < 9.2e18)) return 0;  // NaN or beyond int64: no meaningful integer
    return std::int64_t(v);
  }
  return ints_[std::size_t(i)];
}

bool tile_value::truthy(std::int64_t i) const {
  return repr_ == repr::real ? reals_[std::size_t(i)] != 0 : ints_[std::size_t(i)] != 0;
}

void tile_value::copy_element(std::int64_t to, const tile_value& from, std::int64_t at) {
  if (from.dtype_ != dtype_)
    fail(error_kind::internal, "copy_element from ", ir::name(from.dtype_), " to ", ir::name(dtype_));
  if (repr_ == repr::real) reals_[std::size_t(to)] = from.reals_[std::size_t(at)];
  else ints_[std::size_t(to)] = from.ints_[std::size_t(at)];
}

void tile_value::set_shape(std::vector<std::int64_t> shape) {
  if (shape_numel(shape) != numel_)
    fail(error_kind::internal, "cannot reshape ", shape_string(shape_), " to ", shape_string(shape));
  shape_ = std::move(shape);
}

void tile_value::normalize() {
  if (dtype_ == ir::dtype::f64 || dtype_ == ir::dtype::i64 || dtype_ == ir::dtype::u64) return;
  dispatch_dtype(dtype_, [&](auto tag) {
    using tr = dtype_traits<decltype(tag)::value>;
    using S = typename tr::stor;
    S* p = data<S>();
    for (std::int64_t i = 0; i < numel_; ++i) p[i] = tr::read(tr::write(p[i]));
  });
}

}  // namespace tegula::interp
