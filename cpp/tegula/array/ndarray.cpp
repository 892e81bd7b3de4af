// The C++ array API (see ndarray.hpp): a thin layer over the engine's node functions, the same ones the Python
// binding of tegula.numpy calls.
#include "tegula/array/ndarray.hpp"

#include <cstring>

#include "tegula/array/copy.hpp"
#include "tegula/array/layout.hpp"
#include "tegula/array/materialize.hpp"
#include "tegula/array/promotion.hpp"
#include "tegula/array/storage.hpp"
#include "tegula/runtime/buffer.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/runtime/driver.hpp"
#include "tegula/runtime/stream.hpp"
#include "tegula/support/error.hpp"

namespace tegula::array {

template <> ir::dtype dtype_of<bool>() { return ir::dtype::b1; }
template <> ir::dtype dtype_of<std::int8_t>() { return ir::dtype::i8; }
template <> ir::dtype dtype_of<std::int16_t>() { return ir::dtype::i16; }
template <> ir::dtype dtype_of<std::int32_t>() { return ir::dtype::i32; }
template <> ir::dtype dtype_of<std::int64_t>() { return ir::dtype::i64; }
template <> ir::dtype dtype_of<std::uint8_t>() { return ir::dtype::u8; }
template <> ir::dtype dtype_of<std::uint16_t>() { return ir::dtype::u16; }
template <> ir::dtype dtype_of<std::uint32_t>() { return ir::dtype::u32; }
template <> ir::dtype dtype_of<std::uint64_t>() { return ir::dtype::u64; }
template <> ir::dtype dtype_of<float>() { return ir::dtype::f32; }
template <> ir::dtype dtype_of<double>() { return ir::dtype::f64; }

namespace {

// The element count of a valid shape for items of dtype t (NumPy's limits, checked_nbytes).
std::int64_t count(const dims& shape, ir::dtype t) { return checked_nbytes(shape, ir::size_bytes(t)) / ir::size_bytes(t); }

std::shared_ptr<storage> allocate(std::size_t bytes, where_to where) {
  return where.device < 0 ? storage::allocate_cpu(bytes) : storage::allocate_cuda(bytes, rt::device::get(where.device));
}

const array::node& leaf(const node_ptr& n) {
  materialize(n);
  return *n;
}

// A Python float next to `like`: like's dtype when it is a float array, else NumPy's result type (NEP 50).
node_ptr weak(double v, const node_ptr& like) {
  ir::dtype t = ir::is_float(like->t) ? like->t
                                  : result_type({operand_kind::of(like->t), operand_kind{operand_kind::kind::py_float}});
  return make_scalar(v, t, like);
}

ndarray reduce(ir::op_kind op, const ndarray& a, std::optional<std::int64_t> axis, bool keepdims) {
  std::vector<std::int64_t> axes;
  if (axis) axes.push_back(*axis);
  return ndarray(make_reduce(op, a.handle(), axes, !axis.has_value(), keepdims));
}

}  // namespace

where_to where_to::best() {
  static const bool gpu = [] {
    try {
      return rt::driver_available() && rt::device::count() > 0;
    } catch (const error&) {
      return false;
    }
  }();
  return gpu ? cuda(0) : cpu();
}

ndarray ndarray::from_host(const void* data, ir::dtype t, const dims& shape, where_to where) {
  const auto bytes = static_cast<std::size_t>(checked_nbytes(shape, ir::size_bytes(t)));
  auto s = allocate(bytes, where);
  if (bytes) {
    if (where.device < 0)
      std::memcpy(s->host(), data, bytes);
    else
      s->buffer()->copy_from_host(data, bytes, 0, array_stream(rt::device::get(where.device)));
  }
  return ndarray(make_leaf(s, contiguous(shape), t));
}

ndarray ndarray::full(const dims& shape, double value, ir::dtype t, where_to where) {
  const std::int64_t n = count(shape, ir::dtype::f64);  // the host values are float64
  std::vector<double> host(std::size_t(n), value);
  ndarray d = from_host(host.data(), ir::dtype::f64, shape, where);
  return t == ir::dtype::f64 ? d : d.astype(t).eval();
}

ndarray ndarray::zeros(const dims& shape, ir::dtype t, where_to where) { return full(shape, 0.0, t, where); }

ndarray ndarray::arange(std::int64_t n, ir::dtype t, where_to where) {
  rt::device* gpu = where.device < 0 ? nullptr : &rt::device::get(where.device);
  return ndarray(make_iota(n, 0.0, 1.0, t, where.device < 0 ? device_kind::cpu : device_kind::cuda, gpu));
}

ndarray ndarray::astype(ir::dtype t) const { return ndarray(make_cast(n_, t)); }

ndarray ndarray::reshape(const dims& shape) const {
  const array::node& l = leaf(n_);
  if (auto v = reshape_view(l.lay, shape)) return ndarray(make_leaf(l.data, *v, l.t));
  const std::size_t bytes = std::size_t(l.size()) * std::size_t(ir::size_bytes(l.t));
  auto s = allocate_like(l, bytes);
  layout c = contiguous(l.shape);
  copy_strided(l.data, l.lay, l.t, s, c, l.t);
  return ndarray(make_leaf(s, *reshape_view(c, shape), l.t));
}

ndarray ndarray::transpose() const {
  const array::node& l = leaf(n_);
  return ndarray(make_leaf(l.data, array::transpose(l.lay, {}), l.t));
}

ndarray ndarray::eval() const {
  materialize(n_);
  return *this;
}

ndarray ndarray::sum(std::optional<std::int64_t> axis, bool keepdims) const {
  return reduce(ir::op_kind::reduce_sum, *this, axis, keepdims);
}
ndarray ndarray::max(std::optional<std::int64_t> axis, bool keepdims) const {
  return reduce(ir::op_kind::reduce_max, *this, axis, keepdims);
}
ndarray ndarray::min(std::optional<std::int64_t> axis, bool keepdims) const {
  return reduce(ir::op_kind::reduce_min, *this, axis, keepdims);
}

ndarray ndarray::mean(std::optional<std::int64_t> axis, bool keepdims) const {
  // NumPy: integers and bool average in float64, float16 accumulates in float32 and returns float16.
  const ir::dtype t = n_->t;
  const ir::dtype acc = ir::is_float(t) ? (ir::size_bytes(t) == 2 ? ir::dtype::f32 : t) : ir::dtype::f64;
  std::int64_t n = size();
  if (axis) n = shape().at(std::size_t(normalize_axis(*axis, ndim())));
  ndarray s = astype(acc).sum(axis, keepdims) / double(n);
  return ir::is_float(t) && t != acc ? s.astype(t) : s;
}

ndarray ndarray::cumsum(std::int64_t axis) const { return ndarray(make_scan(ir::op_kind::cumsum, n_, axis)); }

void ndarray::copy_out(void* dst, ir::dtype as) const {
  node_ptr src = as == n_->t ? n_ : make_cast(n_, as);
  const array::node& l = leaf(src);
  const std::size_t bytes = std::size_t(l.size()) * std::size_t(ir::size_bytes(l.t));
  if (!bytes) return;
  node_ptr c = src;
  if (!l.lay.c_contiguous()) {
    auto s = allocate_like(l, bytes);
    layout cl = contiguous(l.shape);
    copy_strided(l.data, l.lay, l.t, s, cl, l.t);
    c = make_leaf(s, cl, l.t);
  }
  const std::size_t offset = std::size_t(c->lay.offset) * std::size_t(ir::size_bytes(c->t));
  if (c->device == device_kind::cpu)
    std::memcpy(dst, static_cast<const char*>(c->data->host()) + offset, bytes);
  else
    c->data->buffer()->copy_to_host(dst, bytes, offset, array_stream(*c->gpu));
}

double ndarray::item() const {
  if (size() != 1) fail(error_kind::invalid_argument, "can only convert an array of size 1 to a number");
  return to_vector<double>().front();
}

ndarray operator+(const ndarray& a, const ndarray& b) { return ndarray(make_binary(ir::op_kind::add, a.handle(), b.handle())); }
ndarray operator-(const ndarray& a, const ndarray& b) { return ndarray(make_binary(ir::op_kind::sub, a.handle(), b.handle())); }
ndarray operator*(const ndarray& a, const ndarray& b) { return ndarray(make_binary(ir::op_kind::mul, a.handle(), b.handle())); }
ndarray operator/(const ndarray& a, const ndarray& b) { return ndarray(make_binary(ir::op_kind::div, a.handle(), b.handle())); }
ndarray operator<(const ndarray& a, const ndarray& b) { return ndarray(make_binary(ir::op_kind::lt, a.handle(), b.handle())); }
ndarray operator>(const ndarray& a, const ndarray& b) { return ndarray(make_binary(ir::op_kind::gt, a.handle(), b.handle())); }
ndarray operator==(const ndarray& a, const ndarray& b) { return ndarray(make_binary(ir::op_kind::eq, a.handle(), b.handle())); }
ndarray operator-(const ndarray& a) { return ndarray(make_unary(ir::op_kind::neg, a.handle())); }
ndarray operator+(const ndarray& a, double b) { return ndarray(make_binary(ir::op_kind::add, a.handle(), weak(b, a.handle()))); }
ndarray operator-(const ndarray& a, double b) { return ndarray(make_binary(ir::op_kind::sub, a.handle(), weak(b, a.handle()))); }
ndarray operator*(const ndarray& a, double b) { return ndarray(make_binary(ir::op_kind::mul, a.handle(), weak(b, a.handle()))); }
ndarray operator/(const ndarray& a, double b) { return ndarray(make_binary(ir::op_kind::div, a.handle(), weak(b, a.handle()))); }
ndarray operator+(double a, const ndarray& b) { return ndarray(make_binary(ir::op_kind::add, weak(a, b.handle()), b.handle())); }
ndarray operator-(double a, const ndarray& b) { return ndarray(make_binary(ir::op_kind::sub, weak(a, b.handle()), b.handle())); }
ndarray operator*(double a, const ndarray& b) { return ndarray(make_binary(ir::op_kind::mul, weak(a, b.handle()), b.handle())); }
ndarray operator/(double a, const ndarray& b) { return ndarray(make_binary(ir::op_kind::div, weak(a, b.handle()), b.handle())); }
ndarray operator<(const ndarray& a, double b) { return ndarray(make_binary(ir::op_kind::lt, a.handle(), weak(b, a.handle()))); }
ndarray operator>(const ndarray& a, double b) { return ndarray(make_binary(ir::op_kind::gt, a.handle(), weak(b, a.handle()))); }

ndarray exp(const ndarray& x) { return ndarray(make_unary(ir::op_kind::exp, x.handle())); }
ndarray log(const ndarray& x) { return ndarray(make_unary(ir::op_kind::log, x.handle())); }
ndarray sqrt(const ndarray& x) { return ndarray(make_unary(ir::op_kind::sqrt, x.handle())); }
ndarray sin(const ndarray& x) { return ndarray(make_unary(ir::op_kind::sin, x.handle())); }
ndarray cos(const ndarray& x) { return ndarray(make_unary(ir::op_kind::cos, x.handle())); }
ndarray tanh(const ndarray& x) { return ndarray(make_unary(ir::op_kind::tanh, x.handle())); }
ndarray abs(const ndarray& x) { return ndarray(make_unary(ir::op_kind::abs, x.handle())); }
ndarray maximum(const ndarray& a, const ndarray& b) { return ndarray(make_binary(ir::op_kind::maximum, a.handle(), b.handle())); }
ndarray minimum(const ndarray& a, const ndarray& b) { return ndarray(make_binary(ir::op_kind::minimum, a.handle(), b.handle())); }
ndarray where(const ndarray& cond, const ndarray& a, const ndarray& b) {
  return ndarray(make_where(cond.handle(), a.handle(), b.handle()));
}

}  // namespace tegula::array
