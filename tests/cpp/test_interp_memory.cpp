// Interpreter: load padding at array edges, strided (negative) views, stores that skip
// out-of-bounds elements, gather/scatter with masks, atomics across blocks.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "interp_test_util.hpp"
#include "tegula/support/error.hpp"

namespace tegula::interp::test {
namespace {

using shape_t = std::vector<std::int64_t>;
const float inf = std::numeric_limits<float>::infinity();

// Copies tile (bid(1), bid(0)) of x (rows x cols, tile th x tw) into the same tile of out.
ir::function copy_2d(dtype d, std::int64_t th, std::int64_t tw, const std::string& padding) {
  kernel k;
  value_id px = k.param("x", array(d, 2)), po = k.param("out", array(d, 2));
  value_id r = k.bid(1), c = k.bid(0);
  value_id t = k.op1(op_kind::load, {px, r, c}, tile(d, {th, tw}), {{"shape", shape_t{th, tw}}, {"padding", padding}});
  k.op(op_kind::store, {po, r, c, t});
  return k.finish();
}

TEST(InterpMemory, LoadPadsEdgesOfNonMultipleArray) {
  const std::int64_t rows = 5, cols = 7, th = 2, tw = 3;
  std::vector<float> x(rows * cols), out(6 * 9, 123.0f);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = float(i);
  run(copy_2d(dtype::f32, th, tw, "neg_inf"), {view(x, {rows, cols}), view(out, {6, 9})}, {3, 3, 1});
  for (std::int64_t i = 0; i < 6; ++i)
    for (std::int64_t j = 0; j < 9; ++j) {
      const float want = (i < rows && j < cols) ? x[std::size_t(i * cols + j)] : -inf;
      ASSERT_EQ(out[std::size_t(i * 9 + j)], want) << i << ", " << j;
    }
}

TEST(InterpMemory, IntegerPaddingUsesTheDtypesExtremes) {
  std::vector<std::int32_t> x{1, 2, 3}, out(4, 0);
  for (const auto& [pad, want] : std::vector<std::pair<std::string, std::int32_t>>{
           {"neg_inf", INT32_MIN}, {"pos_inf", INT32_MAX}, {"zero", 0}, {"nan", 0}}) {
    kernel k;
    value_id px = k.param("x", array(dtype::i32, 1)), po = k.param("out", array(dtype::i32, 1));
    value_id z = k.i32(0);
    value_id t = k.op1(op_kind::load, {px, z}, tile(dtype::i32, {4}), {{"shape", shape_t{4}}, {"padding", pad}});
    k.op(op_kind::store, {po, z, t});
    run(k.finish(), {view(x, {3}), view(out, {4})}, {1, 1, 1});
    EXPECT_EQ(out, (std::vector<std::int32_t>{1, 2, 3, want})) << pad;
  }
}

TEST(InterpMemory, NegativeAndTransposedStrides) {
  // base is 4 x 6 row-major; v[i][j] = base[3 - i][5 - j] (both strides negative).
  std::vector<float> base(24);
  for (std::size_t i = 0; i < base.size(); ++i) base[i] = float(i);
  std::vector<float> out(4 * 8, -1.0f);
  run(copy_2d(dtype::f32, 2, 4, "nan"), {view(base, {4, 6}, {-6, -1}, 23), view(out, {4, 8})}, {2, 2, 1});
  for (std::int64_t i = 0; i < 4; ++i)
    for (std::int64_t j = 0; j < 8; ++j) {
      const float got = out[std::size_t(i * 8 + j)];
      if (j < 6) EXPECT_EQ(got, base[std::size_t((3 - i) * 6 + (5 - j))]) << i << ", " << j;
      else EXPECT_TRUE(std::isnan(got)) << i << ", " << j;
    }
  // The transpose, 6 x 4, written through a transposed output view as well.
  std::vector<float> t_out(24, -1.0f);
  run(copy_2d(dtype::f32, 4, 4, "zero"), {view(base, {6, 4}, {1, 6}), view(t_out, {6, 4}, {1, 6})}, {1, 2, 1});
  EXPECT_EQ(t_out, base);
}

TEST(InterpMemory, StoreSkipsOutOfBoundsElements) {
  // out views the first 5 of 9 elements; the rest must stay untouched.
  std::vector<std::int32_t> in{10, 11, 12, 13, 14, 15, 16, 17}, buf(9, -7);
  kernel k;
  value_id pi = k.param("in", array(dtype::i32, 1)), po = k.param("out", array(dtype::i32, 1));
  value_id b = k.bid();
  value_id t = k.op1(op_kind::load, {pi, b}, tile(dtype::i32, {4}), {{"shape", shape_t{4}}});
  k.op(op_kind::store, {po, b, t});
  k.op(op_kind::store, {po, k.i32(-1), t});  // entirely before the array: nothing written
  run(k.finish(), {view(in, {8}), view(buf, {5})}, {2, 1, 1});
  EXPECT_EQ(buf, (std::vector<std::int32_t>{10, 11, 12, 13, 14, -7, -7, -7, -7}));
}

TEST(InterpMemory, GatherPadsMaskedAndOutOfBounds) {
  std::vector<float> x(10);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = float(i) * 10;
  std::vector<float> out(8);
  kernel k;
  value_id px = k.param("x", array(dtype::f32, 1)), po = k.param("out", array(dtype::f32, 1));
  const auto I = tile(dtype::i32, {8});
  value_id idx = k.op1(op_kind::arange, {}, I, {{"n", std::int64_t(8)}});
  value_id off = k.op1(op_kind::sub, {k.op1(op_kind::mul, {idx, k.iconst(2, I)}, I), k.iconst(3, I)}, I);  // -3..11
  value_id m = k.op1(op_kind::ne, {off, k.iconst(5, I)}, tile(dtype::b1, {8}));
  value_id g = k.op1(op_kind::gather, {px, off, m}, tile(dtype::f32, {8}), {{"has_mask", std::int64_t(1)}, {"padding", "pos_inf"}});
  k.op(op_kind::store, {po, k.i32(0), g});
  run(k.finish(), {view(x, {10}), view(out, {8})}, {1, 1, 1});
  EXPECT_EQ(out, (std::vector<float>{inf, inf, 10, 30, inf, 70, 90, inf}));
}

TEST(InterpMemory, Gather2DAndScatterWithMask) {
  // out[j][i] = x[i][j] for a 3 x 4 x through gather/scatter with per-axis offsets.
  std::vector<std::int64_t> x(12), out(12, -1);
  for (std::size_t i = 0; i < x.size(); ++i) x[i] = std::int64_t(i);
  kernel k;
  value_id px = k.param("x", array(dtype::i64, 2)), po = k.param("out", array(dtype::i64, 2));
  const auto I = tile(dtype::i32, {3, 4});
  value_id rows = k.op1(op_kind::broadcast_to, {k.op1(op_kind::reshape, {k.op1(op_kind::arange, {}, tile(dtype::i32, {3}))},
                                                       tile(dtype::i32, {3, 1}), {{"shape", shape_t{3, 1}}})},
                        I, {{"shape", shape_t{3, 4}}});
  value_id cols = k.op1(op_kind::broadcast_to, {k.op1(op_kind::arange, {}, tile(dtype::i32, {4}))}, I, {{"shape", shape_t{3, 4}}});
  value_id v = k.op1(op_kind::gather, {px, rows, cols}, tile(dtype::i64, {3, 4}));
  value_id keep = k.op1(op_kind::ne, {cols, k.iconst(2, I)}, tile(dtype::b1, {3, 4}));  // skip column 2
  k.op(op_kind::scatter, {po, cols, rows, v, keep}, {}, {{"has_mask", std::int64_t(1)}});
  run(k.finish(), {view(x, {3, 4}), view(out, {4, 3})}, {1, 1, 1});
  EXPECT_EQ(out, (std::vector<std::int64_t>{0, 4, 8, 1, 5, 9, -1, -1, -1, 3, 7, 11}));
}

TEST(InterpMemory, ScatterOutOfBoundsIsAnErrorWithLocation) {
  std::vector<float> x(4, 0.0f);
  kernel k;
  value_id px = k.param("x", array(dtype::f32, 1));
  const auto I = tile(dtype::i32, {4});
  value_id off = k.op1(op_kind::add, {k.op1(op_kind::arange, {}, I), k.op1(op_kind::broadcast_to, {k.bid()}, I, {{"shape", shape_t{4}}})}, I);
  k.loc = {"kern.py", 12, 3};
  k.op(op_kind::scatter, {px, off, k.constant(1.0, tile(dtype::f32, {4}))});
  try {
    run(k.finish(), {view(x, {4})}, {2, 1, 1});
    FAIL() << "expected an out-of-bounds error";
  } catch (const error& e) {
    EXPECT_EQ(std::string(e.what()),
              "kern.py:12:3: scatter: offset (4,) is out of bounds for an array of shape (4,) in block (1, 0, 0)");
  }
  EXPECT_EQ(x, (std::vector<float>{1, 1, 1, 1}));  // block 0 and the in-bounds part of block 1
}

TEST(InterpMemory, AtomicsAcrossBlocksAreSequential) {
  // Each block: histogram of its 8 values into 4 bins, a ticket from a counter, a running max,
  // and a compare-and-swap that only the first block wins.
  std::vector<std::int32_t> values{0, 1, 1, 3, 3, 3, 2, 0, 1, 1, 1, 1, 2, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  std::vector<std::int32_t> hist(4, 0), counter(1, 100), tickets(3, -1), lock(1, 0), old_lock(3, -1);
  std::vector<float> best(1, -inf), contrib{2.5f, 7.0f, 1.0f};
  kernel k;
  value_id pv = k.param("values", array(dtype::i32, 1)), ph = k.param("hist", array(dtype::i32, 1));
  value_id pc = k.param("counter", array(dtype::i32, 1)), pt = k.param("tickets", array(dtype::i32, 1));
  value_id pl = k.param("lock", array(dtype::i32, 1)), pol = k.param("old_lock", array(dtype::i32, 1));
  value_id pb = k.param("best", array(dtype::f32, 1)), pcon = k.param("contrib", array(dtype::f32, 1));
  value_id b = k.bid();
  const auto V = tile(dtype::i32, {8}), one = tile(dtype::i32, {1});
  value_id v = k.op1(op_kind::load, {pv, b}, V, {{"shape", shape_t{8}}});
  k.op1(op_kind::atomic_add, {ph, v, k.iconst(1, V)}, V);
  value_id zero1 = k.iconst(0, one);
  value_id ticket = k.op1(op_kind::atomic_add, {pc, zero1, k.iconst(1, one)}, one);
  k.op(op_kind::store, {pt, b, ticket});
  value_id mine = k.op1(op_kind::add, {k.op1(op_kind::reshape, {b}, one, {{"shape", shape_t{1}}}), k.iconst(1, one)}, one);
  value_id was = k.op1(op_kind::atomic_cas, {pl, zero1, k.iconst(0, one), mine}, one);
  k.op(op_kind::store, {pol, b, was});
  value_id c = k.op1(op_kind::load, {pcon, b}, tile(dtype::f32, {1}), {{"shape", shape_t{1}}});
  k.op1(op_kind::atomic_max, {pb, zero1, c}, tile(dtype::f32, {1}));
  run(k.finish(),
      {view(values, {24}), view(hist, {4}), view(counter, {1}), view(tickets, {3}), view(lock, {1}), view(old_lock, {3}),
       view(best, {1}), view(contrib, {3})},
      {3, 1, 1});
  EXPECT_EQ(hist, (std::vector<std::int32_t>{10, 7, 3, 4}));
  EXPECT_EQ(counter[0], 103);
  EXPECT_EQ(tickets, (std::vector<std::int32_t>{100, 101, 102}));
  EXPECT_EQ(lock[0], 1);
  EXPECT_EQ(old_lock, (std::vector<std::int32_t>{0, 1, 1}));
  EXPECT_EQ(best[0], 7.0f);
}

TEST(InterpMemory, AtomicAddReturnsOldValuesForDuplicateOffsets) {
  std::vector<float> acc(2, 0.5f), old(4, -1.0f);
  kernel k;
  value_id pa = k.param("acc", array(dtype::f32, 1)), po = k.param("old", array(dtype::f32, 1));
  const auto I = tile(dtype::i32, {4}), F = tile(dtype::f32, {4});
  value_id off = k.op1(op_kind::floordiv, {k.op1(op_kind::arange, {}, I), k.iconst(2, I)}, I);  // 0 0 1 1
  value_id keep = k.op1(op_kind::ne, {k.op1(op_kind::arange, {}, I), k.iconst(3, I)}, tile(dtype::b1, {4}));
  value_id r = k.op1(op_kind::atomic_add, {pa, off, k.constant(1.0, F), keep}, F, {{"has_mask", std::int64_t(1)}});
  k.op(op_kind::store, {po, k.i32(0), r});
  run(k.finish(), {view(acc, {2}), view(old, {4})}, {1, 1, 1});
  EXPECT_EQ(acc, (std::vector<float>{2.5f, 1.5f}));
  EXPECT_EQ(old, (std::vector<float>{0.5f, 1.5f, 0.5f, 0.0f}));  // masked: 0
}

}  // namespace
}  // namespace tegula::interp::test
