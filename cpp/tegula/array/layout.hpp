// Array layouts: shape, element strides and offset, and the NumPy view operations over them.
// Pure arithmetic on integers: no memory, no dtype, no CUDA. Strides count elements (not bytes),
// may be negative or zero (broadcast), as in NumPy views.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tegula::array {

using dims = std::vector<std::int64_t>;

struct layout {
  dims shape;
  dims strides;             // elements; same length as shape
  std::int64_t offset = 0;  // elements from the buffer's base to element [0, 0, ...]

  int ndim() const { return static_cast<int>(shape.size()); }
  std::int64_t size() const;  // product of shape (1 for 0-d)
  bool c_contiguous() const;  // row-major dense (extent-1 axes' strides ignored, as NumPy does)
  bool f_contiguous() const;
  // [lo, hi): the element range of the buffer this view touches, relative to the base (size 0: lo == hi).
  std::pair<std::int64_t, std::int64_t> extent() const;
};

// The one check of an array's shape against NumPy's limits (PyArray_NewFromDescr), made wherever a shape
// enters the engine (every node, leaf, allocation): at most 64 axes (max_ndim), no negative extent, and
// itemsize times the product of the non-zero extents within int64 (so an empty array of absurd extents is
// refused too, as NumPy refuses it). Returns size * itemsize (0 for an empty array). Throws invalid_argument
// with NumPy's texts: "maximum supported dimension for an ndarray is currently 64, found 65", "negative
// dimensions are not allowed", "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum
// possible size.". After it, size() and every byte count of the array (and of any view into it) fit int64.
constexpr int max_ndim = 64;
std::int64_t checked_nbytes(const dims& shape, std::int64_t itemsize);

// A shape as NumPy writes it in messages: "(2,3)", "(4,)", "()".
std::string shape_text(const dims& s);
// True when an array of shape `from` broadcasts to exactly `to` (an assignment's value).
bool broadcasts_to(const dims& from, const dims& to);

dims c_strides(const dims& shape);       // row-major dense strides
layout contiguous(const dims& shape);    // offset 0, c_strides

// NumPy's broadcast of shapes; throws invalid_argument with NumPy's message
// ("operands could not be broadcast together with shapes (2,3) (4,)") when incompatible.
dims broadcast_shapes(const std::vector<dims>& shapes);
// A view of `l` with shape `to` (stride 0 on new axes and on every extent-1 axis of `l`, as NumPy);
// throws invalid_argument with NumPy's text ("operands could not be broadcast together with remapped
// shapes [original->remapped]: (3,)  and requested shape (4,)") when impossible.
layout broadcast_to(const layout& l, const dims& to);

// One index of a basic (non-advanced) NumPy subscript.
struct index_item {
  enum class kind { integer, slice, newaxis, ellipsis } k = kind::integer;
  std::int64_t value = 0;                          // integer
  std::optional<std::int64_t> start, stop, step;   // slice (None -> nullopt); step 0 is an error
};
// x[items] as a view. Follows NumPy exactly: negative indices, clamping of slice bounds, negative
// steps, one ellipsis at most, newaxis. Throws index_error-kind errors as NumPy's IndexError text
// ("index 5 is out of bounds for axis 0 with size 3", "too many indices for array: array is
// 1-dimensional, but 2 were indexed") and invalid_argument for "slice step cannot be zero".
layout subscript(const layout& l, const std::vector<index_item>& items);

layout transpose(const layout& l, const std::vector<int>& perm);  // perm empty: reverse the axes
layout swap_axes(const layout& l, int a, int b);
layout squeeze(const layout& l, const std::vector<int>& axes);    // axes empty: every extent-1 axis
layout expand_dims(const layout& l, const std::vector<int>& axes);  // NumPy's axes of the result
// A view with `shape` (one -1 allowed) when the elements can be re-strided without a copy
// (NumPy's rule, C order); nullopt when a copy is needed. Throws invalid_argument
// ("cannot reshape array of size 6 into shape (4,)") when the sizes differ.
std::optional<layout> reshape_view(const layout& l, const dims& shape);
dims resolve_reshape(std::int64_t size, const dims& shape);  // fills the -1, checks the size
// The same bytes as elements of `to_bytes` instead of `from_bytes` each (NumPy's ndarray.view(dtype)): the
// last axis scales by from_bytes / to_bytes. Throws invalid_argument with NumPy's text where NumPy refuses (a
// 0-d array, a last axis not contiguous, a last axis whose bytes do not divide into the new items), and
// not_implemented where NumPy's byte strides would not be whole elements of the new size.
layout reinterpret(const layout& l, int from_bytes, int to_bytes);

// Normalises an axis for an array of `ndim` axes (negative counts from the end); throws
// axis_error-kind text "axis 3 is out of bounds for array of dimension 2".
int normalize_axis(std::int64_t axis, int ndim);
// Sorted, unique normalised axes; throws on repeats ("repeated axis").
std::vector<int> normalize_axes(const std::vector<std::int64_t>& axes, int ndim);

// Merges adjacent axes that are contiguous with each other (after dropping extent-1 axes) so a
// kernel sees the fewest dimensions: shape (4, 8) strides (8, 1) -> (32,) (1,). Every layout in
// `ls` has the same shape; an axis pair is merged only if it is mergeable in all of them.
std::vector<layout> coalesce(const std::vector<layout>& ls);

}  // namespace tegula::array
