// The C++ array API: NumPy-like arrays over the same lazy, fusing engine as tegula.numpy (issue #9, "where it stays
// simple"). Elementwise operations, casts and reductions record an expression; the first thing that needs the
// values (to_vector, eval, a reduction's scalar) compiles the whole expression into one kernel, cached by its
// structure. Arrays live on a CUDA device or on the CPU (the interpreter runs the same kernels).
//
//     namespace ta = tegula::array;
//     auto x = ta::ndarray::from_host(host.data(), {n}, ta::where_to::best());     // GPU if there is one
//     auto y = ta::exp(-x * x) * 2.0 + 0.5 * x;                                      // recorded, not run
//     double s = y.sum().item();                                                     // one fused kernel
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "tegula/array/expr.hpp"

namespace tegula::array {

// Where an array lives: the CPU interpreter (device -1) or CUDA device `ordinal`.
struct where_to {
  int device = -1;
  static where_to cpu() { return {-1}; }
  static where_to cuda(int ordinal = 0) { return {ordinal}; }
  static where_to best();  // CUDA device 0 when a GPU and its driver are present, else the CPU
};

class ndarray {
 public:
  explicit ndarray(node_ptr n) : n_(std::move(n)) {}

  // Creation (copies from host memory of dtype t).
  static ndarray from_host(const void* data, ir::dtype t, const dims& shape, where_to where = where_to::best());
  template <class T>
  static ndarray from_vector(const std::vector<T>& v, const dims& shape, where_to where = where_to::best());
  static ndarray zeros(const dims& shape, ir::dtype t = ir::dtype::f64, where_to where = where_to::best());
  static ndarray full(const dims& shape, double value, ir::dtype t = ir::dtype::f64, where_to where = where_to::best());
  static ndarray arange(std::int64_t n, ir::dtype t = ir::dtype::i64, where_to where = where_to::best());

  ir::dtype dtype() const { return n_->t; }
  const dims& shape() const { return n_->shape; }
  int ndim() const { return int(n_->shape.size()); }
  std::int64_t size() const { return n_->size(); }
  bool on_gpu() const { return n_->device == device_kind::cuda; }
  const node_ptr& handle() const { return n_; }  // the engine's node

  ndarray astype(ir::dtype t) const;
  ndarray reshape(const dims& shape) const;  // a view when NumPy gives one, else a copy
  ndarray transpose() const;                  // reversed axes (a view)
  ndarray eval() const;                       // materialised (runs the pending kernel)

  // Reductions (NumPy's dtypes); no axis: over every element, a 0-d array.
  ndarray sum(std::optional<std::int64_t> axis = std::nullopt, bool keepdims = false) const;
  ndarray max(std::optional<std::int64_t> axis = std::nullopt, bool keepdims = false) const;
  ndarray min(std::optional<std::int64_t> axis = std::nullopt, bool keepdims = false) const;
  ndarray mean(std::optional<std::int64_t> axis = std::nullopt, bool keepdims = false) const;
  ndarray cumsum(std::int64_t axis) const;

  // The values, in C order, converted to T (one synchronisation on the GPU).
  template <class T>
  std::vector<T> to_vector() const;
  double item() const;  // a one-element array's value as a double

 private:
  void copy_out(void* dst, ir::dtype as) const;
  node_ptr n_;
};

// Elementwise, NumPy's promotion (Python numbers are weak scalars, NEP 50).
ndarray operator+(const ndarray& a, const ndarray& b);
ndarray operator-(const ndarray& a, const ndarray& b);
ndarray operator*(const ndarray& a, const ndarray& b);
ndarray operator/(const ndarray& a, const ndarray& b);
ndarray operator<(const ndarray& a, const ndarray& b);
ndarray operator>(const ndarray& a, const ndarray& b);
ndarray operator==(const ndarray& a, const ndarray& b);
ndarray operator-(const ndarray& a);
ndarray operator+(const ndarray& a, double b);
ndarray operator-(const ndarray& a, double b);
ndarray operator*(const ndarray& a, double b);
ndarray operator/(const ndarray& a, double b);
ndarray operator+(double a, const ndarray& b);
ndarray operator-(double a, const ndarray& b);
ndarray operator*(double a, const ndarray& b);
ndarray operator/(double a, const ndarray& b);
ndarray operator<(const ndarray& a, double b);
ndarray operator>(const ndarray& a, double b);

ndarray exp(const ndarray& x);
ndarray log(const ndarray& x);
ndarray sqrt(const ndarray& x);
ndarray sin(const ndarray& x);
ndarray cos(const ndarray& x);
ndarray tanh(const ndarray& x);
ndarray abs(const ndarray& x);
ndarray maximum(const ndarray& a, const ndarray& b);
ndarray minimum(const ndarray& a, const ndarray& b);
ndarray where(const ndarray& cond, const ndarray& a, const ndarray& b);

// ---- templates -------------------------------------------------------------------------------------------
template <class T>
ir::dtype dtype_of();

template <class T>
ndarray ndarray::from_vector(const std::vector<T>& v, const dims& shape, where_to where) {
  return from_host(v.data(), dtype_of<T>(), shape, where);
}

template <class T>
std::vector<T> ndarray::to_vector() const {
  if constexpr (std::is_same_v<T, bool>) {  // std::vector<bool> packs bits: go through bytes
    std::vector<unsigned char> bytes(static_cast<std::size_t>(size()));
    copy_out(bytes.data(), ir::dtype::b1);
    return std::vector<bool>(bytes.begin(), bytes.end());
  } else {
    std::vector<T> out(static_cast<std::size_t>(size()));
    copy_out(out.data(), dtype_of<T>());
    return out;
  }
}

}  // namespace tegula::array
