// Array layouts: NumPy's view arithmetic (broadcast, basic subscript, axes, reshape, coalesce).
#include "tegula/array/layout.hpp"

#include <algorithm>
#include <limits>
#include <string>

#include "tegula/support/error.hpp"

namespace tegula::array {

// NumPy's convert_shape_to_string (layout.hpp), quirks included so messages match byte for byte: "(2,3)",
// "(4,)", "()"; a negative entry prints as "newaxis" and leading negative entries are dropped
// (reshape(4, -1) of 6 elements reports "(4,newaxis)", reshape(-1, 0) reports "(0)").
std::string shape_text(const dims& s) {
  std::size_t i = 0;
  while (i < s.size() && s[i] < 0) ++i;
  if (i == s.size()) return "()";
  std::string out = "(";
  out += std::to_string(s[i++]);
  for (; i < s.size(); ++i) {
    if (s[i] < 0) {
      out += ",newaxis";
    } else {
      out += ',';
      out += std::to_string(s[i]);
    }
  }
  out += s.size() == 1 ? ",)" : ")";
  return out;
}

namespace {

constexpr std::int64_t int64_max = std::numeric_limits<std::int64_t>::max();
constexpr std::int64_t int64_min = std::numeric_limits<std::int64_t>::min();

// Two's-complement wrap-around, as NumPy's npy_intp arithmetic does for a slice's new stride
// (float64 a[::2**62] has stride 0 in NumPy); the result only matters when the slice is long.
std::int64_t wrap_mul(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(a) * static_cast<std::uint64_t>(b));
}

// normalize_axis with NumPy's optional argument-name prefix ("axis1: axis 3 is out of ...").
int checked_axis(std::int64_t axis, int ndim, const char* prefix) {
  if (axis < -ndim || axis >= ndim)
    fail(error_kind::axis_error, prefix, "axis ", axis, " is out of bounds for array of dimension ", ndim);
  return static_cast<int>(axis < 0 ? axis + ndim : axis);
}

// Normalised axes in the order given, each at most once (`repeat` is the ValueError text). NumPy's C
// paths (transpose, squeeze) check bounds and repeats axis by axis; its Python normalize_axis_tuple
// (expand_dims, normalize_axes) checks every bound first: `bounds_first` picks which error wins.
std::vector<int> unique_axes(const std::vector<std::int64_t>& axes, int ndim, const char* repeat,
                             bool bounds_first) {
  if (bounds_first)
    for (std::int64_t a : axes) checked_axis(a, ndim, "");
  std::vector<bool> seen(static_cast<std::size_t>(ndim), false);
  std::vector<int> out;
  for (std::int64_t a : axes) {
    int n = checked_axis(a, ndim, "");
    if (seen[n]) fail(error_kind::invalid_argument, repeat);
    seen[n] = true;
    out.push_back(n);
  }
  return out;
}

struct slice_range {
  std::int64_t start, length, step;
};

// CPython's PySlice_Unpack + PySlice_AdjustIndices over an axis of `n` elements.
slice_range resolve_slice(const index_item& it, std::int64_t n) {
  std::int64_t step = it.step.value_or(1);
  if (step == 0) fail(error_kind::invalid_argument, "slice step cannot be zero");
  if (step < -int64_max) step = -int64_max;  // keeps -step representable, as CPython does
  const bool back = step < 0;
  auto clamp = [&](std::int64_t v) {
    if (v < 0) {
      v += n;
      if (v < 0) v = back ? -1 : 0;
    } else if (v >= n) {
      v = back ? n - 1 : n;
    }
    return v;
  };
  std::int64_t start = clamp(it.start.value_or(back ? int64_max : 0));
  std::int64_t stop = clamp(it.stop.value_or(back ? int64_min : int64_max));
  std::int64_t length = 0;
  if (back && stop < start) length = (start - stop - 1) / -step + 1;
  if (!back && start < stop) length = (stop - start - 1) / step + 1;
  // NumPy points an empty slice at the axis' first element with step 1 (offset and stride kept).
  if (length == 0) return {0, 0, 1};
  return {start, length, step};
}

}  // namespace

std::int64_t checked_nbytes(const dims& shape, std::int64_t itemsize) {
  if (shape.size() > std::size_t(max_ndim))
    fail(error_kind::invalid_argument, "maximum supported dimension for an ndarray is currently ", max_ndim,
         ", found ", shape.size());
  std::int64_t nbytes = itemsize;
  bool empty = false;
  for (std::int64_t d : shape) {
    if (d == 0) {
      empty = true;
      continue;
    }
    if (d < 0) fail(error_kind::invalid_argument, "negative dimensions are not allowed");
    if (__builtin_mul_overflow(nbytes, d, &nbytes))
      fail(error_kind::invalid_argument,
           "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible size.");
  }
  return empty ? 0 : nbytes;
}

std::int64_t layout::size() const {
  std::int64_t n = 1;
  for (std::int64_t d : shape) n *= d;
  return n;
}

// NumPy's _UpdateContiguousFlags: extent-1 axes' strides are ignored, and any zero extent makes
// the array both C- and F-contiguous.
bool layout::c_contiguous() const {
  if (size() == 0) return true;
  std::int64_t expect = 1;
  for (int i = ndim() - 1; i >= 0; --i) {
    if (shape[i] == 1) continue;
    if (strides[i] != expect) return false;
    expect *= shape[i];
  }
  return true;
}

bool layout::f_contiguous() const {
  if (size() == 0) return true;
  std::int64_t expect = 1;
  for (int i = 0; i < ndim(); ++i) {
    if (shape[i] == 1) continue;
    if (strides[i] != expect) return false;
    expect *= shape[i];
  }
  return true;
}

std::pair<std::int64_t, std::int64_t> layout::extent() const {
  if (size() == 0) return {offset, offset};
  std::int64_t lo = offset, hi = offset + 1;
  for (int i = 0; i < ndim(); ++i) {
    std::int64_t reach = strides[i] * (shape[i] - 1);
    (reach < 0 ? lo : hi) += reach;
  }
  return {lo, hi};
}

// As NumPy's _array_fill_strides: a zero extent does not multiply, so an empty array's strides
// stay those of the non-empty axes (reshape of an empty array reports these).
dims c_strides(const dims& shape) {
  dims s(shape.size());
  std::int64_t step = 1;
  for (std::size_t i = shape.size(); i-- > 0;) {
    s[i] = step;
    if (shape[i] != 0) step *= shape[i];
  }
  return s;
}

layout contiguous(const dims& shape) { return layout{shape, c_strides(shape), 0}; }

dims broadcast_shapes(const std::vector<dims>& shapes) {
  std::size_t nd = 0;
  for (const dims& s : shapes) {
    for (std::int64_t d : s)
      if (d < 0) fail(error_kind::invalid_argument, "negative dimensions are not allowed");
    nd = std::max(nd, s.size());
  }
  dims out(nd, 1);
  for (const dims& s : shapes) {
    for (std::size_t i = 0; i < s.size(); ++i) {
      std::int64_t& o = out[nd - s.size() + i];
      if (s[i] == o || s[i] == 1) continue;
      if (o == 1) {
        o = s[i];
        continue;
      }
      // The ufunc text (np.add), every operand listed, each followed by one space.
      std::string message = "operands could not be broadcast together with shapes ";
      for (const dims& t : shapes) {
        message += shape_text(t);
        message += ' ';
      }
      fail(error_kind::invalid_argument, message);
    }
  }
  return out;
}

bool broadcasts_to(const dims& from, const dims& to) {
  if (from.size() > to.size()) return false;
  const std::size_t lead = to.size() - from.size();
  for (std::size_t i = 0; i < from.size(); ++i)
    if (from[i] != 1 && from[i] != to[lead + i]) return false;
  return true;
}

layout broadcast_to(const layout& l, const dims& to) {
  for (std::int64_t d : to)
    if (d < 0) fail(error_kind::invalid_argument, "all elements of broadcast shape must be non-negative");
  if (static_cast<std::size_t>(l.ndim()) > to.size())
    fail(error_kind::invalid_argument, "input operand has more dimensions than allowed by the axis remapping");
  const std::size_t lead = to.size() - l.shape.size();
  layout r{to, dims(to.size(), 0), l.offset};
  for (std::size_t i = 0; i < l.shape.size(); ++i) {
    // NumPy (through nditer) gives every extent-1 source axis stride 0, even when not stretched.
    if (l.shape[i] == 1) continue;
    if (l.shape[i] != to[lead + i])
      fail(error_kind::invalid_argument,
           "operands could not be broadcast together with remapped shapes [original->remapped]: ",
           shape_text(l.shape), "  and requested shape ", shape_text(to));
    r.strides[lead + i] = l.strides[i];
  }
  return r;
}

layout subscript(const layout& l, const std::vector<index_item>& items) {
  using k = index_item::kind;
  // NumPy's prepare_index checks the whole index first: ellipsis count, then the axis count.
  int consumed = 0;
  bool ellipsis = false;
  for (const index_item& it : items) {
    if (it.k == k::ellipsis) {
      if (ellipsis) fail(error_kind::index_error, "an index can only have a single ellipsis ('...')");
      ellipsis = true;
    } else if (it.k != k::newaxis) {
      ++consumed;
    }
  }
  if (consumed > l.ndim())
    fail(error_kind::index_error, "too many indices for array: array is ", l.ndim(), "-dimensional, but ",
         consumed, " were indexed");
  // Then each item in order, so the leftmost bad integer or zero step is the one reported.
  layout r{{}, {}, l.offset};
  int axis = 0;  // the next axis of `l`
  auto keep = [&](int n) {
    for (; n > 0; --n, ++axis) {
      r.shape.push_back(l.shape[axis]);
      r.strides.push_back(l.strides[axis]);
    }
  };
  for (const index_item& it : items) {
    switch (it.k) {
      case k::ellipsis:
        keep(l.ndim() - consumed);
        break;
      case k::newaxis:  // NumPy gives a new axis stride 0
        r.shape.push_back(1);
        r.strides.push_back(0);
        break;
      case k::integer: {
        const std::int64_t n = l.shape[axis];
        std::int64_t i = it.value;
        if (i < -n || i >= n)
          fail(error_kind::index_error, "index ", i, " is out of bounds for axis ", axis, " with size ", n);
        if (i < 0) i += n;
        r.offset += i * l.strides[axis];
        ++axis;
        break;
      }
      case k::slice: {
        const slice_range s = resolve_slice(it, l.shape[axis]);
        r.offset += s.start * l.strides[axis];
        r.shape.push_back(s.length);
        r.strides.push_back(wrap_mul(l.strides[axis], s.step));
        ++axis;
        break;
      }
    }
  }
  keep(l.ndim() - axis);
  return r;
}

layout transpose(const layout& l, const std::vector<int>& perm) {
  const int nd = l.ndim();
  std::vector<int> p;
  if (perm.empty()) {
    for (int i = nd - 1; i >= 0; --i) p.push_back(i);
  } else {
    if (static_cast<int>(perm.size()) != nd) fail(error_kind::invalid_argument, "axes don't match array");
    std::vector<std::int64_t> axes(perm.begin(), perm.end());
    p = unique_axes(axes, nd, "repeated axis in transpose", false);
  }
  layout r{dims(nd), dims(nd), l.offset};
  for (int i = 0; i < nd; ++i) {
    r.shape[i] = l.shape[p[i]];
    r.strides[i] = l.strides[p[i]];
  }
  return r;
}

layout swap_axes(const layout& l, int a, int b) {
  const int i = checked_axis(a, l.ndim(), "axis1: "), j = checked_axis(b, l.ndim(), "axis2: ");
  layout r = l;
  std::swap(r.shape[i], r.shape[j]);
  std::swap(r.strides[i], r.strides[j]);
  return r;
}

layout squeeze(const layout& l, const std::vector<int>& axes) {
  std::vector<bool> drop(static_cast<std::size_t>(l.ndim()), false);
  if (axes.empty()) {
    for (int i = 0; i < l.ndim(); ++i) drop[i] = l.shape[i] == 1;
  } else {
    // All axes are checked (bounds, repeats) before any extent, as NumPy does.
    std::vector<std::int64_t> as(axes.begin(), axes.end());
    for (int a : unique_axes(as, l.ndim(), "duplicate value in 'axis'", false)) drop[a] = true;
    for (int i = 0; i < l.ndim(); ++i)
      if (drop[i] && l.shape[i] != 1)
        fail(error_kind::invalid_argument, "cannot select an axis to squeeze out which has size not equal to one");
  }
  layout r{{}, {}, l.offset};
  for (int i = 0; i < l.ndim(); ++i) {
    if (drop[i]) continue;
    r.shape.push_back(l.shape[i]);
    r.strides.push_back(l.strides[i]);
  }
  return r;
}

// NumPy's expand_dims is a reshape with 1s inserted, so the new axes get reshape's strides.
layout expand_dims(const layout& l, const std::vector<int>& axes) {
  const int out_nd = l.ndim() + static_cast<int>(axes.size());
  std::vector<std::int64_t> as(axes.begin(), axes.end());
  std::vector<bool> is_new(static_cast<std::size_t>(out_nd), false);
  for (int a : unique_axes(as, out_nd, "repeated axis", true)) is_new[a] = true;
  dims shape;
  int next = 0;
  for (int i = 0; i < out_nd; ++i) shape.push_back(is_new[i] ? 1 : l.shape[next++]);
  // Inserting extent-1 axes never needs a copy: every old non-1 axis maps to one new axis.
  return *reshape_view(l, shape);
}

dims resolve_reshape(std::int64_t size, const dims& shape) {
  auto mismatch = [&] {
    fail(error_kind::invalid_argument, "cannot reshape array of size ", size, " into shape ", shape_text(shape));
  };
  // NumPy's _fix_unknown_dimension: any negative entry is the unknown one (not only -1).
  dims s = shape;
  int unknown = -1;
  std::int64_t known = 1;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] < 0) {
      if (unknown >= 0) fail(error_kind::invalid_argument, "can only specify one unknown dimension");
      unknown = static_cast<int>(i);
    } else if (__builtin_mul_overflow(known, s[i], &known)) {
      mismatch();
    }
  }
  if (unknown >= 0) {
    if (known == 0 || size % known != 0) mismatch();
    s[unknown] = size / known;
  } else if (known != size) {
    mismatch();
  }
  return s;
}

layout reinterpret(const layout& l, int from_bytes, int to_bytes) {
  if (from_bytes == to_bytes) return l;
  if (l.ndim() == 0)
    fail(error_kind::invalid_argument, "Changing the dtype of a 0d array is only supported if the itemsize is unchanged");
  const int last = l.ndim() - 1;
  if (l.shape[last] != 1 && l.strides[last] != 1)
    fail(error_kind::invalid_argument, "To change to a dtype of a different size, the last axis must be contiguous");
  const std::int64_t bytes = l.shape[last] * from_bytes;
  if (to_bytes < from_bytes && from_bytes % to_bytes != 0)
    fail(error_kind::invalid_argument, "When changing to a smaller dtype, its size must be a divisor of the size of "
         "original dtype");
  if (bytes % to_bytes != 0)
    fail(error_kind::invalid_argument, "When changing to a larger dtype, its size must be a divisor of the total size "
         "in bytes of the last axis of the array.");
  layout r = l;
  r.shape[last] = bytes / to_bytes;
  r.strides[last] = 1;
  auto whole = [&](std::int64_t elements, const char* what) {
    if (elements * from_bytes % to_bytes != 0)
      fail(error_kind::not_implemented, "view as a ", to_bytes, "-byte dtype: the ", what, " (", elements * from_bytes,
           " bytes) is not a whole number of new items; tegula arrays step in whole elements (copy the array first)");
    return elements * from_bytes / to_bytes;
  };
  // (An extent-1 axis's stride is never stepped: it gets the dense one, whatever NumPy's bytes were.)
  for (int i = last - 1; i >= 0; --i) {
    const auto u = std::size_t(i);
    r.strides[u] = l.shape[u] == 1 ? r.strides[u + 1] * r.shape[u + 1] : whole(l.strides[u], "stride");
  }
  r.offset = whole(l.offset, "offset of the view into its buffer");
  return r;
}

// NumPy's PyArray_Newshape (C order) with _attempt_nocopy_reshape, strides in elements.
std::optional<layout> reshape_view(const layout& l, const dims& shape) {
  if (shape == l.shape) return l;  // NumPy returns a plain view, strides untouched
  const dims newdims = resolve_reshape(l.size(), shape);
  if (l.c_contiguous()) return layout{newdims, c_strides(newdims), l.offset};
  // Drop the old extent-1 axes: their strides do not matter. size > 0 here (empty is contiguous).
  dims olddims, oldstrides;
  for (int i = 0; i < l.ndim(); ++i) {
    if (l.shape[i] == 1) continue;
    olddims.push_back(l.shape[i]);
    oldstrides.push_back(l.strides[i]);
  }
  const std::size_t newnd = newdims.size(), oldnd = olddims.size();
  dims newstrides(newnd, 0);
  // Match runs of axes [oi, oj) and [ni, nj) with equal products; the old run must be one
  // uniformly strided block, which the new run then re-strides.
  std::size_t oi = 0, oj = 1, ni = 0, nj = 1;
  while (ni < newnd && oi < oldnd) {
    std::int64_t np = newdims[ni], op = olddims[oi];
    while (np != op) {
      if (np < op)
        np *= newdims[nj++];
      else
        op *= olddims[oj++];
    }
    for (std::size_t ok = oi; ok + 1 < oj; ++ok)
      if (oldstrides[ok] != olddims[ok + 1] * oldstrides[ok + 1]) return std::nullopt;
    newstrides[nj - 1] = oldstrides[oj - 1];
    for (std::size_t nk = nj - 1; nk > ni; --nk) newstrides[nk - 1] = newstrides[nk] * newdims[nk];
    ni = nj++;
    oi = oj++;
  }
  // Trailing new 1s take the last computed stride (NumPy's choice; any value would do).
  const std::int64_t last = ni >= 1 ? newstrides[ni - 1] : 1;
  for (std::size_t nk = ni; nk < newnd; ++nk) newstrides[nk] = last;
  return layout{newdims, newstrides, l.offset};
}

int normalize_axis(std::int64_t axis, int ndim) { return checked_axis(axis, ndim, ""); }

std::vector<int> normalize_axes(const std::vector<std::int64_t>& axes, int ndim) {
  std::vector<int> out = unique_axes(axes, ndim, "repeated axis", true);
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<layout> coalesce(const std::vector<layout>& ls) {
  if (ls.empty()) return {};
  const dims& shape = ls[0].shape;
  for (const layout& l : ls)
    if (l.shape != shape) fail(error_kind::internal, "coalesce: layouts of different shapes");
  std::vector<layout> out;
  for (const layout& l : ls) out.push_back(layout{{}, {}, l.offset});
  // An empty array has no elements to address: one axis of extent 0.
  if (ls[0].size() == 0) {
    for (layout& o : out) o = layout{{0}, {1}, o.offset};
    return out;
  }
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (shape[i] == 1) continue;
    // Outer (n, s) and inner (m, t) are one axis (n*m, t) when s == m*t, in every layout.
    bool merge = !out[0].shape.empty();
    for (std::size_t k = 0; merge && k < ls.size(); ++k) merge = out[k].strides.back() == shape[i] * ls[k].strides[i];
    for (std::size_t k = 0; k < ls.size(); ++k) {
      if (merge) {
        out[k].shape.back() *= shape[i];
        out[k].strides.back() = ls[k].strides[i];
      } else {
        out[k].shape.push_back(shape[i]);
        out[k].strides.push_back(ls[k].strides[i]);
      }
    }
  }
  return out;  // all extents 1: 0-d, one element at the offset
}

}  // namespace tegula::array
