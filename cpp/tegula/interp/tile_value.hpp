// A tile's value in the interpreter: a dtype, a static shape and dense row-major storage.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "tegula/ir/dtype.hpp"

namespace tegula::interp {

// How a tile holds its elements: floats as double, signed ints and bool as int64_t, unsigned ints
// as uint64_t. Invariant (after normalize): every element is exactly a value of the dtype, i.e.
// floats are rounded to it, ints are wrapped to its width, bools are 0 or 1.
enum class repr : std::uint8_t { real, sint, uint };
repr repr_of(ir::dtype t);

class tile_value {
 public:
  tile_value(ir::dtype t, std::vector<std::int64_t> shape);  // zero-filled

  ir::dtype dtype() const { return dtype_; }
  repr kind() const { return repr_; }
  const std::vector<std::int64_t>& shape() const { return shape_; }
  int rank() const { return int(shape_.size()); }
  std::int64_t numel() const { return numel_; }

  // T must match kind(): double (real), std::int64_t (sint), std::uint64_t (uint).
  template <class T> T* data();
  template <class T> const T* data() const { return const_cast<tile_value*>(this)->data<T>(); }

  // Element i as a number (slow paths: loop bounds, offsets, printing).
  double as_double(std::int64_t i) const;
  std::int64_t as_int(std::int64_t i) const;  // floats truncate; uint64 above INT64_MAX wraps
  bool truthy(std::int64_t i) const;          // != 0

  // Copies element `at` of `from` (same dtype) into element `to`.
  void copy_element(std::int64_t to, const tile_value& from, std::int64_t at);
  void set_shape(std::vector<std::int64_t> shape);  // same element count
  // Rounds (floats) or wraps (ints, bool) every element to the dtype: call after raw arithmetic.
  void normalize();

 private:
  ir::dtype dtype_;
  repr repr_;
  std::vector<std::int64_t> shape_;
  std::int64_t numel_;
  std::vector<double> reals_;
  std::vector<std::int64_t> ints_;  // sint and uint; uint64_t reads it through its unsigned alias
};

template <> inline double* tile_value::data<double>() { return reals_.data(); }
template <> inline std::int64_t* tile_value::data<std::int64_t>() { return ints_.data(); }
template <> inline std::uint64_t* tile_value::data<std::uint64_t>() {
  return reinterpret_cast<std::uint64_t*>(ints_.data());  // allowed: the unsigned counterpart
}

// Tiles are immutable once computed and shared between SSA values.
using tile_ptr = std::shared_ptr<const tile_value>;

std::int64_t shape_numel(const std::vector<std::int64_t>& shape);
std::string shape_string(const std::vector<std::int64_t>& shape);  // "(2, 3)", "(5,)", "()"

}  // namespace tegula::interp
