// Tests of array/layout: NumPy 2 view arithmetic; expected values were produced by NumPy 2.4.
#include "expect_error.hpp"
#include "tegula/array/layout.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "tegula/support/error.hpp"

namespace tegula::array {
namespace {

constexpr auto n = std::nullopt;

layout L(dims shape, dims strides, std::int64_t offset) { return layout{shape, strides, offset}; }
index_item ix(std::int64_t v) { return {index_item::kind::integer, v, n, n, n}; }
index_item sl(std::optional<std::int64_t> start, std::optional<std::int64_t> stop, std::optional<std::int64_t> step) {
  return {index_item::kind::slice, 0, start, stop, step};
}
std::pair<std::int64_t, std::int64_t> range(std::int64_t lo, std::int64_t hi) { return {lo, hi}; }
index_item nx() { return {index_item::kind::newaxis, 0, n, n, n}; }
index_item ell() { return {index_item::kind::ellipsis, 0, n, n, n}; }

void expect_layout(const layout& got, const layout& want) {
  EXPECT_EQ(got.shape, want.shape);
  EXPECT_EQ(got.strides, want.strides);
  EXPECT_EQ(got.offset, want.offset);
}

using tegula::testing::expect_error;

// The buffer offsets of a layout's elements in C order: two layouts with equal lists are the same array.
std::vector<std::int64_t> addresses(const layout& l) {
  std::vector<std::int64_t> out;
  if (l.size() == 0) return out;
  dims at(l.shape.size(), 0);
  for (;;) {
    std::int64_t a = l.offset;
    for (std::size_t i = 0; i < at.size(); ++i) a += at[i] * l.strides[i];
    out.push_back(a);
    std::size_t i = at.size();
    while (i > 0 && ++at[i - 1] == l.shape[i - 1]) at[--i] = 0;
    if (i == 0) return out;
  }
}

TEST(ArrayLayout, SizeStridesContiguous) {
  EXPECT_EQ(L({}, {}, 0).size(), 1);
  EXPECT_EQ(L({2, 0, 3}, {3, 3, 1}, 0).size(), 0);
  EXPECT_EQ(L({2, 3, 4}, {12, 4, 1}, 0).size(), 24);
  EXPECT_EQ(c_strides({2, 3, 4}), (dims{12, 4, 1}));
  EXPECT_EQ(c_strides({2, 0, 3}), (dims{3, 3, 1}));  // NumPy: reshape(2, 0, 3) has byte strides (24, 24, 8)
  EXPECT_EQ(c_strides({}), dims{});
  expect_layout(contiguous({4, 5}), L({4, 5}, {5, 1}, 0));
}

TEST(ArrayLayout, ContiguityFlagsAsNumPy) {
  struct c { layout l; bool c_order, f_order; };
  const c cases[] = {
      {L({1, 3}, {99, 1}, 0), true, true},  {L({3, 1}, {1, 99}, 0), true, true},
      {L({2, 0, 3}, {7, -5, 2}, 0), true, true}, {L({}, {}, 4), true, true},
      {L({4, 5}, {5, 1}, 0), true, false},  {L({4, 5}, {1, 4}, 0), false, true},
      {L({3}, {-1}, 2), false, false},      {L({2, 3}, {0, 1}, 0), false, false},
      {L({1}, {5}, 0), true, true},         {L({1, 1}, {0, 0}, 0), true, true},
      {L({2, 1, 3}, {3, 7, 1}, 0), true, false}, {L({2, 1, 3}, {1, 7, 2}, 0), false, true},
      {L({3}, {2}, 0), false, false},
  };
  for (const c& t : cases) {
    SCOPED_TRACE(::testing::PrintToString(t.l.shape) + " " + ::testing::PrintToString(t.l.strides));
    EXPECT_EQ(t.l.c_contiguous(), t.c_order);
    EXPECT_EQ(t.l.f_contiguous(), t.f_order);
  }
}

TEST(ArrayLayout, ExtentWithNegativeAndZeroStrides) {
  EXPECT_EQ(L({3}, {-2}, 10).extent(), range(6, 11));
  EXPECT_EQ(L({2, 3}, {-3, 1}, 3).extent(), range(0, 6));
  EXPECT_EQ(L({4, 4}, {12, -3}, 23).extent(), range(14, 60));
  EXPECT_EQ(L({5, 2}, {0, 1}, 7).extent(), range(7, 9));
  EXPECT_EQ(L({}, {}, 7).extent(), range(7, 8));
  EXPECT_EQ(L({3, 0}, {-4, 1}, 9).extent(), range(9, 9));
}

TEST(ArrayLayout, BroadcastShapes) {
  EXPECT_EQ(broadcast_shapes({{2, 3}, {3}}), (dims{2, 3}));
  EXPECT_EQ(broadcast_shapes({{5, 1, 4}, {3, 1}}), (dims{5, 3, 4}));
  EXPECT_EQ(broadcast_shapes({{}, {2}}), (dims{2}));
  EXPECT_EQ(broadcast_shapes({{0}, {1}}), (dims{0}));
  EXPECT_EQ(broadcast_shapes({{2, 1}, {1, 0}}), (dims{2, 0}));
  EXPECT_EQ(broadcast_shapes({}), dims{});
  EXPECT_EQ(broadcast_shapes({{1}, {1, 1, 1}}), (dims{1, 1, 1}));
  EXPECT_EQ(broadcast_shapes({{3, 1}, {1, 4}, {2, 1, 1}}), (dims{2, 3, 4}));
  const error_kind v = error_kind::invalid_argument;
  const char* prefix = "operands could not be broadcast together with shapes ";
  expect_error([] { broadcast_shapes({{2, 3}, {4}}); }, v, std::string(prefix) + "(2,3) (4,) ");
  expect_error([] { broadcast_shapes({{2, 3}, {3}, {4}}); }, v, std::string(prefix) + "(2,3) (3,) (4,) ");
  expect_error([] { broadcast_shapes({{1}, {2}, {3}}); }, v, std::string(prefix) + "(1,) (2,) (3,) ");
  expect_error([] { broadcast_shapes({{0}, {2}}); }, v, std::string(prefix) + "(0,) (2,) ");
  expect_error([] { broadcast_shapes({{2, 0}, {}, {3}}); }, v, std::string(prefix) + "(2,0) () (3,) ");
  expect_error([] { broadcast_shapes({{-1}, {3}}); }, v, "negative dimensions are not allowed");
}

TEST(ArrayLayout, BroadcastTo) {
  const layout b = L({4, 4}, {12, -3}, 23);
  expect_layout(broadcast_to(L({3}, {1}, 0), {2, 3}), L({2, 3}, {0, 1}, 0));
  expect_layout(broadcast_to(L({3, 1}, {1, 1}, 0), {2, 3, 4}), L({2, 3, 4}, {0, 1, 0}, 0));
  expect_layout(broadcast_to(L({3, 1}, {1, 1}, 0), {3, 1}), L({3, 1}, {1, 0}, 0));
  expect_layout(broadcast_to(b, {3, 4, 4}), L({3, 4, 4}, {0, 12, -3}, 23));
  expect_layout(broadcast_to(L({4, 1}, {-3, 12}, 23), {2, 4, 5}), L({2, 4, 5}, {0, -3, 0}, 23));
  expect_layout(broadcast_to(L({4, 1}, {-3, 12}, 23), {2, 4, 0}), L({2, 4, 0}, {0, -3, 0}, 23));
  expect_layout(broadcast_to(L({}, {}, 5), {2, 1}), L({2, 1}, {0, 0}, 5));
  const error_kind v = error_kind::invalid_argument;
  expect_error([] { broadcast_to(L({3}, {1}, 0), {4}); }, v,
               "operands could not be broadcast together with remapped shapes [original->remapped]: (3,)  and requested shape (4,)");
  expect_error([&] { broadcast_to(b, {4, 1}); }, v,
               "operands could not be broadcast together with remapped shapes [original->remapped]: (4,4)  and requested shape (4,1)");
  expect_error([&] { broadcast_to(b, {4}); }, v, "input operand has more dimensions than allowed by the axis remapping");
  expect_error([] { broadcast_to(L({3}, {1}, 0), {-1, 3}); }, v, "all elements of broadcast shape must be non-negative");
}

// Bases for the subscript tables (element strides and offsets of the NumPy views named in comments).
layout sub_base(char b) {
  switch (b) {
    case 'a': return L({2, 3, 4}, {12, 4, 1}, 0);    // arange(24).reshape(2, 3, 4)
    case 'b': return L({4, 4}, {12, -3}, 23);        // arange(60).reshape(5, 12)[1:, ::-3]
    case 'c': return L({4, 2, 3}, {-1, 12, 4}, 3);   // a.transpose(2, 0, 1)[::-1]
    case 'z': return L({0, 3}, {3, 1}, 0);           // arange(0).reshape(0, 3)
    case 's': return L({}, {}, 7);                   // arange(1000)[7:8].reshape(())
    default: return L({10}, {1}, 0);                 // 'v': arange(10)
  }
}

TEST(ArrayLayout, SubscriptMatchesNumPy) {
  struct c { char base; std::vector<index_item> items; layout want; };
  const std::vector<c> cases = {
    {'a', {ix(1)}, L({3, 4}, {4, 1}, 12)},
    {'a', {ix(-1)}, L({3, 4}, {4, 1}, 12)},
    {'a', {ix(1), ix(2)}, L({4}, {1}, 20)},
    {'a', {ix(1), ix(-3), ix(-1)}, L({}, {}, 15)},
    {'a', {sl(n, n, n)}, L({2, 3, 4}, {12, 4, 1}, 0)},
    {'a', {sl(n, n, -1)}, L({2, 3, 4}, {-12, 4, 1}, 12)},
    {'a', {ell(), ix(1)}, L({2, 3}, {12, 4}, 1)},
    {'a', {ix(1), ell()}, L({3, 4}, {4, 1}, 12)},
    {'a', {nx()}, L({1, 2, 3, 4}, {0, 12, 4, 1}, 0)},
    {'a', {sl(n, n, n), nx(), ix(1)}, L({2, 1, 4}, {12, 0, 1}, 4)},
    {'a', {ell(), nx()}, L({2, 3, 4, 1}, {12, 4, 1, 0}, 0)},
    {'a', {nx(), ell(), nx(), ix(2)}, L({1, 2, 3, 1}, {0, 12, 4, 0}, 2)},
    {'a', {sl(1, n, n)}, L({1, 3, 4}, {12, 4, 1}, 12)},
    {'a', {sl(-5, 10, n)}, L({2, 3, 4}, {12, 4, 1}, 0)},
    {'a', {sl(n, n, n), sl(5, 1, -1)}, L({2, 1, 4}, {12, -4, 1}, 8)},
    {'a', {sl(n, n, n), sl(n, n, -2), sl(1, n, 2)}, L({2, 2, 2}, {12, -8, 2}, 9)},
    {'a', {sl(n, n, n), sl(1, 1, n)}, L({2, 0, 4}, {12, 4, 1}, 0)},
    {'a', {sl(n, n, n), sl(2, 0, n)}, L({2, 0, 4}, {12, 4, 1}, 0)},
    {'a', {sl(n, n, n), sl(10, n, n)}, L({2, 0, 4}, {12, 4, 1}, 0)},
    {'a', {sl(n, n, n), sl(n, -10, n)}, L({2, 0, 4}, {12, 4, 1}, 0)},
    {'a', {sl(n, n, n), sl(-10, -1, 1)}, L({2, 2, 4}, {12, 4, 1}, 0)},
    {'a', {sl(n, n, n), sl(10, -10, -1)}, L({2, 3, 4}, {12, -4, 1}, 8)},
    {'a', {sl(n, n, n), sl(n, n, 5)}, L({2, 1, 4}, {12, 20, 1}, 0)},
    {'a', {ix(0), ix(1), ix(2)}, L({}, {}, 6)},
    {'a', {ell()}, L({2, 3, 4}, {12, 4, 1}, 0)},
    {'a', {}, L({2, 3, 4}, {12, 4, 1}, 0)},
    {'a', {ix(1), ell(), ix(2)}, L({3}, {4}, 14)},
    {'a', {sl(n, n, n), sl(n, n, n), sl(n, n, -3)}, L({2, 3, 2}, {12, 4, -3}, 3)},
    {'a', {sl(n, n, n), sl(-1, -4, -1), sl(3, 0, -2)}, L({2, 3, 2}, {12, -4, -2}, 11)},
    {'a', {sl(n, n, n), sl(9223372036854775807, n, n)}, L({2, 0, 4}, {12, 4, 1}, 0)},
    {'a', {sl(n, n, n), sl(-9223372036854775807, 9223372036854775807, 9223372036854775807)}, L({2, 1, 4}, {12, -4, 1}, 0)},
    {'a', {sl(n, n, n), sl(n, n, -9223372036854775807)}, L({2, 1, 4}, {12, 4, 1}, 8)},
    {'b', {sl(n, n, 2)}, L({2, 4}, {24, -3}, 23)},
    {'b', {ix(1), sl(n, n, -1)}, L({4}, {3}, 26)},
    {'b', {ix(-1), sl(1, 3, n)}, L({2}, {-3}, 56)},
    {'b', {sl(n, n, n), nx(), ix(-2)}, L({4, 1}, {12, 0}, 17)},
    {'b', {ell(), sl(n, n, -1)}, L({4, 4}, {12, 3}, 14)},
    {'c', {ix(1)}, L({2, 3}, {12, 4}, 2)},
    {'c', {sl(n, n, -2), ix(1), nx(), sl(n, n, 2)}, L({2, 1, 2}, {2, 0, 8}, 12)},
    {'c', {ell(), ix(-1)}, L({4, 2}, {-1, 12}, 11)},
    {'z', {sl(n, n, n), ix(1)}, L({0}, {3}, 1)},
    {'z', {sl(n, n, -1)}, L({0, 3}, {3, 1}, 0)},
    {'z', {sl(5, n, n), sl(n, n, -1)}, L({0, 3}, {3, -1}, 2)},
    {'s', {ell()}, L({}, {}, 7)},
    {'s', {nx()}, L({1}, {0}, 7)},
    {'s', {}, L({}, {}, 7)},
    {'s', {nx(), ell(), nx()}, L({1, 1}, {0, 0}, 7)},
    {'v', {sl(3, n, n)}, L({7}, {1}, 3)},
    {'v', {sl(n, n, 3)}, L({4}, {3}, 0)},
    {'v', {sl(8, 0, -3)}, L({3}, {-3}, 8)},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE("case " + std::to_string(i));
    expect_layout(subscript(sub_base(cases[i].base), cases[i].items), cases[i].want);
  }
}

TEST(ArrayLayout, SubscriptErrorsMatchNumPy) {
  struct c { char base; std::vector<index_item> items; error_kind kind; std::string message; };
  const std::vector<c> cases = {
    {'a', {ix(2)}, error_kind::index_error, "index 2 is out of bounds for axis 0 with size 2"},
    {'a', {ix(-3)}, error_kind::index_error, "index -3 is out of bounds for axis 0 with size 2"},
    {'a', {ix(0), ix(3)}, error_kind::index_error, "index 3 is out of bounds for axis 1 with size 3"},
    {'a', {ix(0), ix(0), ix(-5)}, error_kind::index_error, "index -5 is out of bounds for axis 2 with size 4"},
    {'a', {ix(1), ix(2), ix(3), ix(4)}, error_kind::index_error, "too many indices for array: array is 3-dimensional, but 4 were indexed"},
    {'a', {ell(), ix(1), ell()}, error_kind::index_error, "an index can only have a single ellipsis ('...')"},
    {'a', {sl(n, n, 0)}, error_kind::invalid_argument, "slice step cannot be zero"},
    {'a', {ix(5), sl(n, n, 0)}, error_kind::index_error, "index 5 is out of bounds for axis 0 with size 2"},
    {'a', {sl(n, n, 0), ix(5)}, error_kind::invalid_argument, "slice step cannot be zero"},
    {'v', {ix(1), ix(2)}, error_kind::index_error, "too many indices for array: array is 1-dimensional, but 2 were indexed"},
    {'v', {ix(10)}, error_kind::index_error, "index 10 is out of bounds for axis 0 with size 10"},
    {'s', {ix(0)}, error_kind::index_error, "too many indices for array: array is 0-dimensional, but 1 were indexed"},
    {'z', {ix(0)}, error_kind::index_error, "index 0 is out of bounds for axis 0 with size 0"},
    {'a', {nx(), ix(0), ix(0), ix(4)}, error_kind::index_error, "index 4 is out of bounds for axis 2 with size 4"},
    {'a', {ell(), ix(4)}, error_kind::index_error, "index 4 is out of bounds for axis 2 with size 4"},
    {'a', {ell(), nx(), ix(1), ix(2), ix(3), ix(4)}, error_kind::index_error, "too many indices for array: array is 3-dimensional, but 4 were indexed"},
  };
  for (const c& t : cases) expect_error([&] { subscript(sub_base(t.base), t.items); }, t.kind, t.message);
  expect_error([] { subscript(L({3}, {1}, 0), {ix(5)}); }, error_kind::index_error,
               "index 5 is out of bounds for axis 0 with size 3");
}

TEST(ArrayLayout, TransposeSwapAxes) {
  const layout a = sub_base('a'), b = sub_base('b');
  expect_layout(transpose(a, {}), L({4, 3, 2}, {1, 4, 12}, 0));
  expect_layout(transpose(a, {1, 2, 0}), L({3, 4, 2}, {4, 1, 12}, 0));
  expect_layout(transpose(a, {-1, 0, -2}), L({4, 2, 3}, {1, 12, 4}, 0));
  expect_layout(transpose(b, {}), L({4, 4}, {-3, 12}, 23));
  expect_layout(transpose(L({}, {}, 7), {}), L({}, {}, 7));
  expect_layout(swap_axes(a, 0, 2), L({4, 3, 2}, {1, 4, 12}, 0));
  expect_layout(swap_axes(a, -1, 1), L({2, 4, 3}, {12, 1, 4}, 0));
  expect_layout(swap_axes(a, 1, 1), a);
  const error_kind v = error_kind::invalid_argument, x = error_kind::axis_error;
  expect_error([&] { transpose(a, {0, 1}); }, v, "axes don't match array");
  expect_error([&] { transpose(a, {0, 1, 1}); }, v, "repeated axis in transpose");
  expect_error([&] { transpose(a, {0, 1, 3}); }, x, "axis 3 is out of bounds for array of dimension 3");
  expect_error([&] { transpose(a, {0, 0, 3}); }, v, "repeated axis in transpose");  // left to right, as NumPy
  expect_error([&] { swap_axes(a, 3, 0); }, x, "axis1: axis 3 is out of bounds for array of dimension 3");
  expect_error([&] { swap_axes(a, 0, -4); }, x, "axis2: axis -4 is out of bounds for array of dimension 3");
}

TEST(ArrayLayout, SqueezeExpandDims) {
  const layout w = L({1, 4, 1, 1, 3}, {0, 6, 6, 0, 2}, 0);  // arange(24).reshape(4,1,6)[:, :, ::2][None, :, :, None]
  const layout a = sub_base('a'), b = sub_base('b');
  expect_layout(squeeze(w, {}), L({4, 3}, {6, 2}, 0));
  expect_layout(squeeze(w, {0}), L({4, 1, 1, 3}, {6, 6, 0, 2}, 0));
  expect_layout(squeeze(L({1, 1}, {1, 1}, 3), {}), L({}, {}, 3));
  expect_layout(squeeze(a, {}), a);
  expect_layout(expand_dims(a, {0}), L({1, 2, 3, 4}, {24, 12, 4, 1}, 0));
  expect_layout(expand_dims(a, {-1}), L({2, 3, 4, 1}, {12, 4, 1, 1}, 0));
  expect_layout(expand_dims(a, {1, 3}), L({2, 1, 3, 1, 4}, {12, 12, 4, 4, 1}, 0));
  expect_layout(expand_dims(b, {0, -1}), L({1, 4, 4, 1}, {48, 12, -3, -3}, 23));
  expect_layout(expand_dims(b, {1}), L({4, 1, 4}, {12, -12, -3}, 23));
  expect_layout(expand_dims(L({}, {}, 7), {0, 1}), L({1, 1}, {1, 1}, 7));
  const error_kind v = error_kind::invalid_argument, x = error_kind::axis_error;
  const char* not_one = "cannot select an axis to squeeze out which has size not equal to one";
  expect_error([&] { squeeze(w, {-1, 2}); }, v, not_one);
  expect_error([&] { squeeze(w, {1}); }, v, not_one);
  expect_error([&] { squeeze(w, {0, -5}); }, v, "duplicate value in 'axis'");
  expect_error([&] { squeeze(w, {1, 9}); }, x, "axis 9 is out of bounds for array of dimension 5");
  expect_error([&] { expand_dims(b, {0, 4}); }, x, "axis 4 is out of bounds for array of dimension 4");
  expect_error([&] { expand_dims(b, {1, 1}); }, v, "repeated axis");
  expect_error([&] { expand_dims(b, {1, 1, 7}); }, x, "axis 7 is out of bounds for array of dimension 5");
  expect_error([&] { expand_dims(b, {-4}); }, x, "axis -4 is out of bounds for array of dimension 3");
}

// Bases for the reshape table: 't' transposed, 'h' column-strided, 'r' row-strided, 'n' both axes
// reversed, 'p' last axis reversed, 'o' a middle slice, 'w' an extent-1 axis with a stray stride,
// 'e' empty, 'u' one element, 'x' a stride-0 (broadcast) axis.
layout reshape_base(char b) {
  switch (b) {
    case 'a': return L({2, 3, 4}, {12, 4, 1}, 0);
    case 't': return L({3, 2}, {1, 3}, 0);
    case 'h': return L({4, 3}, {6, 2}, 0);
    case 'r': return L({2, 6}, {12, 1}, 0);
    case 'n': return L({4, 6}, {-6, -1}, 23);
    case 'p': return L({4, 6}, {6, -1}, 5);
    case 'o': return L({2, 2, 6}, {24, 6, 1}, 6);
    case 'w': return L({4, 1, 3}, {6, 6, 2}, 0);
    case 'e': return L({2, 0, 3}, {3, 3, 1}, 0);
    case 'u': return L({1, 1}, {1, 1}, 5);
    default: return L({3, 4}, {0, 1}, 0);  // 'x'
  }
}

TEST(ArrayLayout, ReshapeViewMatchesNumPy) {
  struct c { char base; dims shape; std::optional<layout> want; };
  const std::vector<c> cases = {
    {'a', {6, 4}, L({6, 4}, {4, 1}, 0)},
    {'a', {24}, L({24}, {1}, 0)},
    {'a', {-1}, L({24}, {1}, 0)},
    {'a', {4, -1}, L({4, 6}, {6, 1}, 0)},
    {'a', {2, 3, 4}, L({2, 3, 4}, {12, 4, 1}, 0)},
    {'a', {1, 2, 1, 12, 1}, L({1, 2, 1, 12, 1}, {24, 12, 12, 1, 1}, 0)},
    {'t', {6}, std::nullopt},
    {'t', {3, 2, 1}, L({3, 2, 1}, {1, 3, 3}, 0)},
    {'t', {1, 3, 2}, L({1, 3, 2}, {3, 1, 3}, 0)},
    {'t', {3, 1, 2}, L({3, 1, 2}, {1, 6, 3}, 0)},
    {'t', {2, 3}, std::nullopt},
    {'h', {12}, L({12}, {2}, 0)},
    {'h', {2, 2, 3}, L({2, 2, 3}, {12, 6, 2}, 0)},
    {'h', {4, 3, 1}, L({4, 3, 1}, {6, 2, 2}, 0)},
    {'h', {2, 6}, L({2, 6}, {12, 2}, 0)},
    {'h', {3, 4}, L({3, 4}, {8, 2}, 0)},
    {'r', {12}, std::nullopt},
    {'r', {2, 2, 3}, L({2, 2, 3}, {12, 3, 1}, 0)},
    {'r', {2, 6, 1}, L({2, 6, 1}, {12, 1, 1}, 0)},
    {'r', {1, 2, 1, 6}, L({1, 2, 1, 6}, {24, 12, 6, 1}, 0)},
    {'r', {4, 3}, std::nullopt},
    {'r', {2, 3, 2}, L({2, 3, 2}, {12, 2, 1}, 0)},
    {'n', {24}, L({24}, {-1}, 23)},
    {'n', {2, 2, 3, 2}, L({2, 2, 3, 2}, {-12, -6, -2, -1}, 23)},
    {'n', {8, 3}, L({8, 3}, {-3, -1}, 23)},
    {'p', {4, 2, 3, 1}, L({4, 2, 3, 1}, {6, -3, -1, -1}, 5)},
    {'p', {24}, std::nullopt},
    {'p', {4, 3, 2}, L({4, 3, 2}, {6, -2, -1}, 5)},
    {'o', {2, 2, 6}, L({2, 2, 6}, {24, 6, 1}, 6)},
    {'o', {4, 6}, std::nullopt},
    {'o', {2, 12}, L({2, 12}, {24, 1}, 6)},
    {'o', {2, 2, 2, 3}, L({2, 2, 2, 3}, {24, 6, 3, 1}, 6)},
    {'o', {24}, std::nullopt},
    {'w', {4, 3}, L({4, 3}, {6, 2}, 0)},
    {'w', {12}, L({12}, {2}, 0)},
    {'w', {2, 2, 1, 3}, L({2, 2, 1, 3}, {12, 6, 6, 2}, 0)},
    {'e', {0, 6}, L({0, 6}, {6, 1}, 0)},
    {'e', {3, 0, 5}, L({3, 0, 5}, {5, 5, 1}, 0)},
    {'e', {0}, L({0}, {1}, 0)},
    {'u', {}, L({}, {}, 5)},
    {'u', {1}, L({1}, {1}, 5)},
    {'u', {1, 1, 1}, L({1, 1, 1}, {1, 1, 1}, 5)},
    {'x', {12}, std::nullopt},
    {'x', {3, 2, 2}, L({3, 2, 2}, {0, 2, 1}, 0)},
    {'x', {3, 4, 1}, L({3, 4, 1}, {0, 1, 1}, 0)},
    {'x', {1, 3, 4}, L({1, 3, 4}, {0, 0, 1}, 0)},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    SCOPED_TRACE("case " + std::to_string(i));
    const layout base = reshape_base(cases[i].base);
    const std::optional<layout> got = reshape_view(base, cases[i].shape);
    ASSERT_EQ(got.has_value(), cases[i].want.has_value());
    if (!got) continue;
    expect_layout(*got, *cases[i].want);
    EXPECT_EQ(addresses(*got), addresses(base));  // a view: the same elements in the same order
  }
}

TEST(ArrayLayout, ResolveReshape) {
  EXPECT_EQ(resolve_reshape(0, {-1}), (dims{0}));
  EXPECT_EQ(resolve_reshape(6, {2, -3}), (dims{2, 3}));  // NumPy 2: any negative entry is the unknown one
  EXPECT_EQ(resolve_reshape(6, {-5, 6}), (dims{1, 6}));
  EXPECT_EQ(resolve_reshape(1, {}), dims{});
  EXPECT_EQ(resolve_reshape(0, {3, 0, 5}), (dims{3, 0, 5}));
  struct c { std::int64_t size; dims shape; std::string message; };
  const std::vector<c> cases = {
    {6, {4}, "cannot reshape array of size 6 into shape (4,)"},
    {6, {4, -1}, "cannot reshape array of size 6 into shape (4,newaxis)"},
    {6, {0, -1}, "cannot reshape array of size 6 into shape (0,newaxis)"},
    {0, {0, -1}, "cannot reshape array of size 0 into shape (0,newaxis)"},
    {6, {-1, -1}, "can only specify one unknown dimension"},
    {6, {-1, 0}, "cannot reshape array of size 6 into shape (0)"},
    {6, {7, -1}, "cannot reshape array of size 6 into shape (7,newaxis)"},
    {6, {}, "cannot reshape array of size 6 into shape ()"},
    {6, {2, 3, -1, -1}, "can only specify one unknown dimension"},
    {6, {-1, 4}, "cannot reshape array of size 6 into shape (4)"},
  };
  for (const c& t : cases)
    expect_error([&] { resolve_reshape(t.size, t.shape); }, error_kind::invalid_argument, t.message);
  expect_error([] { reshape_view(L({2, 3}, {3, 1}, 0), {4}); }, error_kind::invalid_argument,
               "cannot reshape array of size 6 into shape (4,)");
}

TEST(ArrayLayout, NormalizeAxis) {
  EXPECT_EQ(normalize_axis(-1, 2), 1);
  EXPECT_EQ(normalize_axis(-2, 2), 0);
  EXPECT_EQ(normalize_axis(1, 2), 1);
  expect_error([] { normalize_axis(3, 2); }, error_kind::axis_error, "axis 3 is out of bounds for array of dimension 2");
  expect_error([] { normalize_axis(-3, 2); }, error_kind::axis_error, "axis -3 is out of bounds for array of dimension 2");
  expect_error([] { normalize_axis(0, 0); }, error_kind::axis_error, "axis 0 is out of bounds for array of dimension 0");
  EXPECT_EQ(normalize_axes({-1, 0}, 3), (std::vector<int>{0, 2}));
  EXPECT_EQ(normalize_axes({}, 3), std::vector<int>{});
  expect_error([] { normalize_axes({0, -3}, 3); }, error_kind::invalid_argument, "repeated axis");
  expect_error([] { normalize_axes({0, 0, 5}, 3); }, error_kind::axis_error, "axis 5 is out of bounds for array of dimension 3");
}

TEST(ArrayLayout, Coalesce) {
  auto one = [](const layout& l) { return coalesce({l}).at(0); };
  expect_layout(one(L({4, 8}, {8, 1}, 0)), L({32}, {1}, 0));
  expect_layout(one(L({2, 3, 4}, {12, 4, 1}, 5)), L({24}, {1}, 5));
  expect_layout(one(L({4, 1, 3}, {6, 99, 2}, 0)), L({12}, {2}, 0));   // extent-1 axis dropped, then merged
  expect_layout(one(L({4, 6}, {-6, -1}, 23)), L({24}, {-1}, 23));
  expect_layout(one(L({2, 2, 6}, {24, 6, 1}, 6)), L({2, 12}, {24, 1}, 6));
  expect_layout(one(L({3, 2}, {1, 3}, 0)), L({3, 2}, {1, 3}, 0));     // transposed: nothing to merge
  expect_layout(one(L({2, 3, 4}, {0, 0, 1}, 0)), L({6, 4}, {0, 1}, 0));  // broadcast axes merge together
  expect_layout(one(L({1, 1}, {7, 7}, 4)), L({}, {}, 4));
  expect_layout(one(L({3, 0, 2}, {5, 5, 1}, 2)), L({0}, {1}, 2));
  // Merged only where every operand allows it: a (2,3,4) dense array with a (2,3,4) broadcast of (3,4).
  const std::vector<layout> two = coalesce({L({2, 3, 4}, {12, 4, 1}, 0), L({2, 3, 4}, {0, 4, 1}, 3)});
  expect_layout(two[0], L({2, 12}, {12, 1}, 0));
  expect_layout(two[1], L({2, 12}, {0, 1}, 3));
  for (const layout& l : {L({4, 1, 3}, {6, 99, 2}, 0), L({2, 2, 6}, {24, 6, 1}, 6), L({2, 3, 4}, {0, 0, 1}, 0),
                          L({4, 4}, {12, -3}, 23), L({1, 1}, {7, 7}, 4)})
    EXPECT_EQ(addresses(one(l)), addresses(l));
}

TEST(ArrayLayout, ReinterpretMatchesNumPyView) {
  // float32 (3, 4) viewed as int16, float64, complex128 (NumPy: (3, 8), (3, 2), (3, 1)).
  const layout a = contiguous({3, 4});
  EXPECT_EQ(reinterpret(a, 4, 2).shape, (dims{3, 8}));
  EXPECT_EQ(reinterpret(a, 4, 2).strides, (dims{8, 1}));
  EXPECT_EQ(reinterpret(a, 4, 8).shape, (dims{3, 2}));
  EXPECT_EQ(reinterpret(a, 4, 16).shape, (dims{3, 1}));
  EXPECT_EQ(reinterpret(a, 4, 4).strides, a.strides);
  // a[1:, ::1] rows of a (4, 6) float32, viewed as float64: offset 6 floats = 3 doubles, row stride 3.
  const layout rows{{3, 6}, {6, 1}, 6};
  const layout d = reinterpret(rows, 4, 8);
  EXPECT_EQ(d.shape, (dims{3, 3}));
  EXPECT_EQ(d.strides, (dims{3, 1}));
  EXPECT_EQ(d.offset, 3);
  // (4, 3)[:, :1] as int16 (NumPy: (4, 2)): the last axis has extent 1, so any stride counts as contiguous.
  EXPECT_EQ(reinterpret(layout{{4, 1}, {3, 1}, 0}, 4, 2).shape, (dims{4, 2}));
  // Errors, NumPy's texts.
  const auto v = error_kind::invalid_argument;
  expect_error([] { reinterpret(contiguous({}), 4, 2); }, v,
               "Changing the dtype of a 0d array is only supported if the itemsize is unchanged");
  expect_error([&] { reinterpret(transpose(a, {}), 4, 2); }, v,
               "To change to a dtype of a different size, the last axis must be contiguous");
  expect_error([] { reinterpret(contiguous({3, 3}), 4, 8); }, v,
               "When changing to a larger dtype, its size must be a divisor of the total size in bytes of the last "
               "axis of the array.");
  expect_error([] { reinterpret(contiguous({3}), 8, 3); }, v,
               "When changing to a smaller dtype, its size must be a divisor of the size of original dtype");
  // A stride of 3 float32 is not a whole number of float64: NumPy has byte strides, tegula elements.
  expect_error([] { reinterpret(layout{{2, 2}, {3, 1}, 0}, 4, 8); }, error_kind::not_implemented,
               "view as a 8-byte dtype: the stride (12 bytes) is not a whole number of new items; tegula arrays step "
               "in whole elements (copy the array first)");
}

}  // namespace
}  // namespace tegula::array
