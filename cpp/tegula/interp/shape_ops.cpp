// Shape ops on tiles: reshape, permute, expand_dims, broadcast_to (all copy into row-major order).
#include "tegula/interp/shape_ops.hpp"

#include "tegula/interp/op_failure.hpp"

namespace tegula::interp {
namespace {

template <class T>
void copy_strided(const T* src, T* dst, const std::vector<std::int64_t>& shape,
                  const std::vector<std::int64_t>& strides) {
  const int r = int(shape.size());
  if (r == 0) {
    dst[0] = src[0];
    return;
  }
  for (auto d : shape)
    if (d == 0) return;
  const std::int64_t inner = shape[r - 1], inner_stride = strides[r - 1];
  std::vector<std::int64_t> idx(std::size_t(r), 0);
  std::int64_t base = 0;  // source offset of idx (with idx[r-1] == 0)
  for (;;) {
    for (std::int64_t e = 0; e < inner; ++e) dst[e] = src[base + e * inner_stride];
    dst += inner;
    int d = r - 2;
    for (; d >= 0; --d) {  // odometer over the outer axes
      base += strides[std::size_t(d)];
      if (++idx[std::size_t(d)] < shape[std::size_t(d)]) break;
      base -= strides[std::size_t(d)] * shape[std::size_t(d)];
      idx[std::size_t(d)] = 0;
    }
    if (d < 0) return;
  }
}

}  // namespace

int normalize_axis(std::int64_t axis, int rank) {
  if (axis < -rank || axis >= rank) fail_op("axis ", axis, " is out of range for rank ", rank);
  return int(axis < 0 ? axis + rank : axis);
}

std::vector<std::int64_t> row_major_strides(const std::vector<std::int64_t>& shape) {
  std::vector<std::int64_t> s(shape.size(), 1);
  for (std::size_t d = shape.size(); d-- > 1;) s[d - 1] = s[d] * shape[d];
  return s;
}

tile_value strided_copy(const tile_value& x, const std::vector<std::int64_t>& shape,
                        const std::vector<std::int64_t>& strides) {
  tile_value r(x.dtype(), shape);
  if (x.kind() == repr::real) copy_strided(x.data<double>(), r.data<double>(), shape, strides);
  else copy_strided(x.data<std::int64_t>(), r.data<std::int64_t>(), shape, strides);
  return r;
}

tile_value reshape(const tile_value& x, const std::vector<std::int64_t>& shape) {
  if (shape_numel(shape) != x.numel())
    fail_op("cannot reshape ", shape_string(x.shape()), " to ", shape_string(shape));
  tile_value r = x;
  r.set_shape(shape);
  return r;
}

tile_value permute(const tile_value& x, const std::vector<std::int64_t>& perm) {
  const int r = x.rank();
  if (int(perm.size()) != r) fail_op("permutation of length ", perm.size(), " for rank ", r);
  std::vector<bool> seen(std::size_t(r), false);
  const auto src = row_major_strides(x.shape());
  std::vector<std::int64_t> shape(x.shape().size()), strides(x.shape().size());
  for (int i = 0; i < r; ++i) {
    const int p = normalize_axis(perm[std::size_t(i)], r);
    if (seen[std::size_t(p)]) fail_op("axis ", p, " repeats in the permutation");
    seen[std::size_t(p)] = true;
    shape[std::size_t(i)] = x.shape()[std::size_t(p)];
    strides[std::size_t(i)] = src[std::size_t(p)];
  }
  return strided_copy(x, shape, strides);
}

tile_value expand_dims(const tile_value& x, std::int64_t axis) {
  const int a = normalize_axis(axis, x.rank() + 1);
  auto shape = x.shape();
  shape.insert(shape.begin() + a, 1);
  tile_value r = x;
  r.set_shape(std::move(shape));
  return r;
}

tile_value broadcast_to(const tile_value& x, const std::vector<std::int64_t>& shape) {
  const int r = int(shape.size()), xr = x.rank();
  if (xr > r) fail_op("cannot broadcast ", shape_string(x.shape()), " to ", shape_string(shape));
  const auto src = row_major_strides(x.shape());
  std::vector<std::int64_t> strides(std::size_t(r), 0);
  for (int i = 0; i < xr; ++i) {
    const std::size_t xd = std::size_t(i), od = std::size_t(r - xr + i);
    if (x.shape()[xd] == shape[od]) strides[od] = src[xd];
    else if (x.shape()[xd] != 1) fail_op("cannot broadcast ", shape_string(x.shape()), " to ", shape_string(shape));
  }
  return strided_copy(x, shape, strides);
}

}  // namespace tegula::interp
