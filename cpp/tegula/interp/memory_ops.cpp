// Box loads and stores between array arguments and tiles (out-of-bounds loads pad, stores skip).
#include "tegula/interp/memory_ops.hpp"

#include <algorithm>
#include <limits>
#include <optional>

#include "tegula/interp/convert.hpp"
#include "tegula/interp/dtype_traits.hpp"
#include "tegula/interp/op_failure.hpp"
#include "tegula/interp/padding_value.hpp"

namespace tegula::interp {
namespace {

// Calls row(out_offset, array_offset_of_column_0, lo, hi) for every row along the last axis of
// the box, where columns [lo, hi) are inside the array (lo == hi when the row is outside).
template <class F>
void for_each_row(const array_arg& a, const std::vector<std::int64_t>& start, const std::vector<std::int64_t>& shape,
                  F row) {
  const int r = int(shape.size());
  for (auto d : shape)
    if (d <= 0) return;
  const std::int64_t len = shape[std::size_t(r - 1)], c0 = start[std::size_t(r - 1)];
  const std::int64_t lo = std::clamp<std::int64_t>(-c0, 0, len);
  const std::int64_t hi = std::max(lo, std::clamp<std::int64_t>(a.shape[std::size_t(r - 1)] - c0, 0, len));
  std::vector<std::int64_t> idx(std::size_t(r - 1), 0);
  for (std::int64_t out = 0;; out += len) {
    bool inside = true;
    // Unsigned (wrapping) arithmetic: the offset of a row outside the array is never used.
    std::uint64_t off = std::uint64_t(c0) * std::uint64_t(a.strides[std::size_t(r - 1)]);
    for (std::size_t d = 0; d + 1 < std::size_t(r); ++d) {
      const std::int64_t e = start[d] + idx[d];
      inside = inside && e >= 0 && e < a.shape[d];
      off += std::uint64_t(e) * std::uint64_t(a.strides[d]);
    }
    if (inside) row(out, std::int64_t(off), lo, hi);
    else row(out, std::int64_t(off), std::int64_t(0), std::int64_t(0));
    int d = r - 2;
    for (; d >= 0; --d) {
      if (++idx[std::size_t(d)] < shape[std::size_t(d)]) break;
      idx[std::size_t(d)] = 0;
    }
    if (d < 0) return;
  }
}

void check_box(const array_arg& a, const std::vector<std::int64_t>& start, const std::vector<std::int64_t>& shape) {
  if (start.size() != a.shape.size() || shape.size() != a.shape.size())
    fail_op("box of rank ", shape.size(), " for an array of rank ", a.shape.size());
}

}  // namespace

padding_kind padding_from_name(const std::string& name) {
  if (name == "zero") return padding_kind::zero;
  if (name == "neg_inf") return padding_kind::neg_inf;
  if (name == "pos_inf") return padding_kind::pos_inf;
  if (name == "nan") return padding_kind::nan;
  fail_op("unknown padding '", name, "' (expected zero, neg_inf, pos_inf or nan)");
}

tile_value load_box(const array_arg& a, const std::vector<std::int64_t>& start, const std::vector<std::int64_t>& shape,
                    padding_kind pad) {
  check_box(a, start, shape);
  tile_value t(a.elem, shape);
  dispatch_dtype(a.elem, [&](auto tag) {
    constexpr ir::dtype D = decltype(tag)::value;
    using tr = dtype_traits<D>;
    using S = typename tr::stor;
    const auto* base = static_cast<const typename tr::mem*>(a.data);
    S* out = t.data<S>();
    if (shape.empty()) {
      out[0] = tr::read(base[0]);
      return;
    }
    const S p = padding_value<D>(pad);
    const std::int64_t len = shape.back(), stride = a.strides.back();
    for_each_row(a, start, shape, [&](std::int64_t o, std::int64_t off, std::int64_t lo, std::int64_t hi) {
      S* row = out + o;
      std::int64_t e = 0;
      for (; e < lo; ++e) row[e] = p;
      for (; e < hi; ++e) row[e] = tr::read(base[off + e * stride]);
      for (; e < len; ++e) row[e] = p;
    });
  });
  return t;
}

void store_box(const array_arg& a, const std::vector<std::int64_t>& start, const tile_value& tile) {
  check_box(a, start, tile.shape());
  std::optional<tile_value> converted;
  const tile_value* t = &tile;
  if (tile.dtype() != a.elem) t = &converted.emplace(convert(tile, a.elem));
  dispatch_dtype(a.elem, [&](auto tag) {
    using tr = dtype_traits<decltype(tag)::value>;
    using S = typename tr::stor;
    auto* base = static_cast<typename tr::mem*>(a.data);
    const S* in = t->data<S>();
    if (t->rank() == 0) {
      base[0] = tr::write(in[0]);
      return;
    }
    const std::int64_t stride = a.strides.back();
    for_each_row(a, start, t->shape(), [&](std::int64_t o, std::int64_t off, std::int64_t lo, std::int64_t hi) {
      for (std::int64_t e = lo; e < hi; ++e) base[off + e * stride] = tr::write(in[o + e]);
    });
  });
}

}  // namespace tegula::interp
