// Tests of ir/infer: result types of every op family, broadcasting, accumulation dtypes, errors.
#include "tegula/ir/infer.hpp"

#include <gtest/gtest.h>

#include <string>

#include "tegula/support/error.hpp"

namespace tegula::ir {
namespace {

using attrs = std::vector<std::pair<std::string, attribute>>;
using shape = std::vector<std::int64_t>;

op make(op_kind k, const attrs& a = {}) {
  op o{k, {}, {}, {}, {}, {}};
  for (const auto& [n, v] : a) o.set_attr(n, v);
  return o;
}

type one(op_kind k, const std::vector<type>& in, const attrs& a = {}) {
  auto r = infer_results(make(k, a), in);
  EXPECT_EQ(r.size(), 1u);
  return r.empty() ? type{} : r[0];
}

// The message of the error infer_results throws, checking its kind.
std::string error_of(op_kind k, const std::vector<type>& in, const attrs& a, error_kind kind) {
  try {
    infer_results(make(k, a), in);
  } catch (const tegula::error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error for " << info(k).text;
  return {};
}

const type f32_4 = type::tile(dtype::f32, {4});
const type i32 = type::tile(dtype::i32);
const type i64 = type::tile(dtype::i64);

TEST(IrInfer, Sources) {
  EXPECT_EQ(one(op_kind::constant, {}, {{"dtype", dtype::f16}, {"value", 1.5}}), type::tile(dtype::f16));
  EXPECT_EQ(one(op_kind::constant, {}, {{"dtype", dtype::i8}, {"shape", shape{2, 3}}, {"value", std::int64_t(-128)}}),
            type::tile(dtype::i8, {2, 3}));
  EXPECT_EQ(one(op_kind::arange, {}, {{"n", std::int64_t(128)}}), type::tile(dtype::i32, {128}));
  EXPECT_EQ(one(op_kind::block_id, {}, {{"axis", std::int64_t(2)}}), i32);
  EXPECT_EQ(one(op_kind::num_blocks, {}, {{"axis", std::int64_t(0)}}), i32);
  EXPECT_EQ(one(op_kind::dim, {type::array(dtype::f32, 2)}, {{"axis", std::int64_t(1)}}), i64);
  EXPECT_EQ(one(op_kind::num_tiles, {type::array(dtype::f32, 2)}, {{"axis", std::int64_t(0)}, {"tile", std::int64_t(64)}}), i32);
}

TEST(IrInfer, SourceErrors) {
  EXPECT_NE(error_of(op_kind::constant, {}, {{"dtype", dtype::i8}, {"value", std::int64_t(128)}}, error_kind::invalid_argument)
                .find("constant: value 128 does not fit int8"), std::string::npos);
  error_of(op_kind::constant, {}, {{"dtype", dtype::i32}, {"value", 1.5}}, error_kind::type_error);
  error_of(op_kind::constant, {}, {{"dtype", dtype::b1}, {"value", std::int64_t(2)}}, error_kind::invalid_argument);
  error_of(op_kind::constant, {}, {{"value", std::int64_t(2)}}, error_kind::invalid_argument);  // no dtype
  error_of(op_kind::arange, {}, {{"n", std::int64_t(0)}}, error_kind::invalid_argument);
  EXPECT_EQ(error_of(op_kind::block_id, {}, {{"axis", std::int64_t(3)}}, error_kind::invalid_argument),
            "block_id: axis 3 must be 0, 1 or 2");
  EXPECT_EQ(error_of(op_kind::block_id, {}, {}, error_kind::invalid_argument), "block_id: missing int attribute 'axis'");
  error_of(op_kind::dim, {type::array(dtype::f32, 2)}, {{"axis", std::int64_t(2)}}, error_kind::invalid_argument);
  error_of(op_kind::dim, {f32_4}, {{"axis", std::int64_t(0)}}, error_kind::type_error);
  error_of(op_kind::num_tiles, {type::array(dtype::f32, 1)}, {{"axis", std::int64_t(0)}, {"tile", std::int64_t(0)}},
           error_kind::invalid_argument);
}

TEST(IrInfer, LoadStore) {
  const type a = type::array(dtype::f32, 2);
  EXPECT_EQ(one(op_kind::load, {a, i32, i64}, {{"shape", shape{1, 4096}}, {"padding", std::string("neg_inf")}}),
            type::tile(dtype::f32, {1, 4096}));
  EXPECT_TRUE(infer_results(make(op_kind::store), {a, i32, i32, type::tile(dtype::f32, {2, 2})}).empty());
  attrs ok{{"shape", shape{4}}, {"padding", std::string("zero")}};
  error_of(op_kind::load, {a, i32}, {{"shape", shape{1, 4}}, {"padding", std::string("zero")}}, error_kind::invalid_argument);
  error_of(op_kind::load, {type::array(dtype::f32, 1), type::tile(dtype::i16)}, ok, error_kind::type_error);
  error_of(op_kind::load, {type::array(dtype::f32, 1), type::tile(dtype::i32, {2})}, ok, error_kind::type_error);
  error_of(op_kind::load, {a, i32, i32}, {{"shape", shape{1}}, {"padding", std::string("zero")}}, error_kind::invalid_argument);
  error_of(op_kind::load, {a, i32, i32}, {{"shape", shape{0, 4}}, {"padding", std::string("zero")}}, error_kind::invalid_argument);
  error_of(op_kind::load, {type::array(dtype::f32, 1), i32}, {{"shape", shape{4}}, {"padding", std::string("one")}},
           error_kind::invalid_argument);
  error_of(op_kind::load, {type::array(dtype::i32, 1), i32}, {{"shape", shape{4}}, {"padding", std::string("pos_inf")}},
           error_kind::type_error);
  error_of(op_kind::store, {a, i32, i32, type::tile(dtype::f32, {4})}, {}, error_kind::invalid_argument);
  error_of(op_kind::store, {a, i32, i32, type::tile(dtype::f64, {2, 2})}, {}, error_kind::type_error);
  error_of(op_kind::store, {a, i32, type::tile(dtype::f32, {2, 2})}, {}, error_kind::invalid_argument);
}

TEST(IrInfer, GatherScatterAtomics) {
  const type a = type::array(dtype::f32, 2);
  const type off = type::tile(dtype::i64, {8, 2});
  const type val = type::tile(dtype::f32, {8, 2});
  const type mask = type::tile(dtype::b1, {8, 2});
  attrs nomask{{"has_mask", std::int64_t(0)}};
  attrs withmask{{"has_mask", std::int64_t(1)}};
  EXPECT_EQ(one(op_kind::gather, {a, off, off}, {{"has_mask", std::int64_t(0)}, {"padding", std::string("zero")}}), val);
  EXPECT_EQ(one(op_kind::gather, {a, off, off, mask}, {{"has_mask", std::int64_t(1)}, {"padding", std::string("nan")}}), val);
  EXPECT_TRUE(infer_results(make(op_kind::scatter, nomask), {a, off, off, val}).empty());
  EXPECT_TRUE(infer_results(make(op_kind::scatter, withmask), {a, off, off, val, mask}).empty());
  EXPECT_EQ(one(op_kind::atomic_add, {a, off, off, val}, nomask), val);
  EXPECT_EQ(one(op_kind::atomic_max, {a, off, off, val, mask}, withmask), val);
  EXPECT_EQ(one(op_kind::atomic_cas, {a, off, off, val, val}, nomask), val);
  error_of(op_kind::gather, {a, off}, {{"has_mask", std::int64_t(0)}, {"padding", std::string("zero")}}, error_kind::invalid_argument);
  error_of(op_kind::gather, {a, off, type::tile(dtype::i64, {8})}, {{"has_mask", std::int64_t(0)}, {"padding", std::string("zero")}},
           error_kind::invalid_argument);
  error_of(op_kind::gather, {a, val, val}, {{"has_mask", std::int64_t(0)}, {"padding", std::string("zero")}}, error_kind::type_error);
  error_of(op_kind::scatter, {a, off, off, val, val}, withmask, error_kind::type_error);  // mask not bool
  error_of(op_kind::scatter, {a, off, off, type::tile(dtype::f16, {8, 2})}, nomask, error_kind::type_error);
  error_of(op_kind::atomic_add, {type::array(dtype::b1, 1), type::tile(dtype::i32, {4}), type::tile(dtype::b1, {4})}, nomask,
           error_kind::type_error);
  error_of(op_kind::atomic_cas, {a, off, off, val}, nomask, error_kind::invalid_argument);
  error_of(op_kind::scatter, {a, off, off, val}, {{"has_mask", std::int64_t(2)}}, error_kind::invalid_argument);
}

TEST(IrInfer, Unary) {
  EXPECT_EQ(one(op_kind::exp, {f32_4}), f32_4);
  EXPECT_EQ(one(op_kind::neg, {type::tile(dtype::i8, {4})}), type::tile(dtype::i8, {4}));
  EXPECT_EQ(one(op_kind::logical_not, {type::tile(dtype::b1, {4})}), type::tile(dtype::b1, {4}));
  EXPECT_EQ(one(op_kind::logical_not, {type::tile(dtype::u16)}), type::tile(dtype::u16));
  EXPECT_EQ(one(op_kind::abs, {type::tile(dtype::b1)}), type::tile(dtype::b1));
  for (op_kind k : {op_kind::exp, op_kind::exp2, op_kind::log, op_kind::log2, op_kind::sqrt, op_kind::rsqrt, op_kind::sin,
                    op_kind::cos, op_kind::tanh, op_kind::floor, op_kind::ceil})
    EXPECT_EQ(error_of(k, {type::tile(dtype::i32, {4})}, {}, error_kind::type_error),
              std::string(info(k).text) + ": requires float operands, got int32");
  error_of(op_kind::neg, {type::tile(dtype::b1)}, {}, error_kind::type_error);
  error_of(op_kind::logical_not, {f32_4}, {}, error_kind::type_error);
  error_of(op_kind::exp, {type::array(dtype::f32, 1)}, {}, error_kind::type_error);
  error_of(op_kind::exp, {f32_4, f32_4}, {}, error_kind::invalid_argument);
}

TEST(IrInfer, Casts) {
  EXPECT_EQ(one(op_kind::astype, {f32_4}, {{"dtype", dtype::i8}}), type::tile(dtype::i8, {4}));
  EXPECT_EQ(one(op_kind::bitcast, {f32_4}, {{"dtype", dtype::u32}}), type::tile(dtype::u32, {4}));
  EXPECT_EQ(one(op_kind::bitcast, {type::tile(dtype::bf16)}, {{"dtype", dtype::f16}}), type::tile(dtype::f16));
  error_of(op_kind::bitcast, {f32_4}, {{"dtype", dtype::f64}}, error_kind::type_error);
  error_of(op_kind::bitcast, {type::tile(dtype::i8)}, {{"dtype", dtype::b1}}, error_kind::type_error);
  error_of(op_kind::astype, {f32_4}, {{"dtype", std::string("int8")}}, error_kind::invalid_argument);
}

TEST(IrInfer, Binary) {
  EXPECT_EQ(one(op_kind::add, {f32_4, f32_4}), f32_4);
  EXPECT_EQ(one(op_kind::add, {type::tile(dtype::b1), type::tile(dtype::b1)}), type::tile(dtype::b1));
  EXPECT_EQ(one(op_kind::lt, {f32_4, f32_4}), type::tile(dtype::b1, {4}));
  EXPECT_EQ(one(op_kind::eq, {type::tile(dtype::b1), type::tile(dtype::b1)}), type::tile(dtype::b1));
  EXPECT_EQ(one(op_kind::shl, {i32, i32}), i32);
  EXPECT_EQ(one(op_kind::bit_xor, {type::tile(dtype::b1), type::tile(dtype::b1)}), type::tile(dtype::b1));
  EXPECT_EQ(error_of(op_kind::add, {f32_4, type::tile(dtype::f16, {4})}, {}, error_kind::type_error),
            "add: operand types tile<float32, 4> and tile<float16, 4> differ");
  error_of(op_kind::add, {f32_4, type::tile(dtype::f32, {2, 2})}, {}, error_kind::invalid_argument);
  error_of(op_kind::bit_and, {f32_4, f32_4}, {}, error_kind::type_error);
  error_of(op_kind::shr, {type::tile(dtype::b1), type::tile(dtype::b1)}, {}, error_kind::type_error);
  error_of(op_kind::sub, {type::tile(dtype::b1), type::tile(dtype::b1)}, {}, error_kind::type_error);
  error_of(op_kind::div, {type::tile(dtype::b1), type::tile(dtype::b1)}, {}, error_kind::type_error);
  error_of(op_kind::add, {type::array(dtype::f32, 1), type::array(dtype::f32, 1)}, {}, error_kind::type_error);
  error_of(op_kind::add, {f32_4}, {}, error_kind::invalid_argument);
}

TEST(IrInfer, Where) {
  const type b4 = type::tile(dtype::b1, {4});
  EXPECT_EQ(one(op_kind::where, {b4, f32_4, f32_4}), f32_4);
  error_of(op_kind::where, {f32_4, f32_4, f32_4}, {}, error_kind::type_error);
  error_of(op_kind::where, {type::tile(dtype::b1, {2}), f32_4, f32_4}, {}, error_kind::invalid_argument);
  error_of(op_kind::where, {b4, f32_4, type::tile(dtype::f64, {4})}, {}, error_kind::type_error);
}

TEST(IrInfer, Shapes) {
  const type t = type::tile(dtype::f32, {2, 3, 4});
  EXPECT_EQ(one(op_kind::reshape, {t}, {{"shape", shape{6, 4}}}), type::tile(dtype::f32, {6, 4}));
  EXPECT_EQ(one(op_kind::permute, {t}, {{"perm", shape{2, 0, 1}}}), type::tile(dtype::f32, {4, 2, 3}));
  EXPECT_EQ(one(op_kind::expand_dims, {t}, {{"axis", std::int64_t(-1)}}), type::tile(dtype::f32, {2, 3, 4, 1}));
  EXPECT_EQ(one(op_kind::expand_dims, {t}, {{"axis", std::int64_t(1)}}), type::tile(dtype::f32, {2, 1, 3, 4}));
  EXPECT_EQ(one(op_kind::expand_dims, {i32}, {{"axis", std::int64_t(0)}}), type::tile(dtype::i32, {1}));
  EXPECT_EQ(one(op_kind::broadcast_to, {type::tile(dtype::f32, {3, 1})}, {{"shape", shape{2, 3, 5}}}), type::tile(dtype::f32, {2, 3, 5}));
  EXPECT_EQ(one(op_kind::broadcast_to, {i32}, {{"shape", shape{4}}}), type::tile(dtype::i32, {4}));
  EXPECT_EQ(error_of(op_kind::reshape, {t}, {{"shape", shape{5, 5}}}, error_kind::invalid_argument),
            "reshape: cannot reshape (2, 3, 4) into (5, 5)");
  error_of(op_kind::reshape, {t}, {{"shape", shape{std::int64_t(1) << 62, 1 << 4}}}, error_kind::invalid_argument);
  error_of(op_kind::permute, {t}, {{"perm", shape{0, 0, 1}}}, error_kind::invalid_argument);
  error_of(op_kind::permute, {t}, {{"perm", shape{0, 1}}}, error_kind::invalid_argument);
  error_of(op_kind::permute, {t}, {{"perm", shape{0, 1, 3}}}, error_kind::invalid_argument);
  error_of(op_kind::expand_dims, {t}, {{"axis", std::int64_t(4)}}, error_kind::invalid_argument);
  error_of(op_kind::expand_dims, {t}, {{"axis", std::int64_t(-5)}}, error_kind::invalid_argument);
  EXPECT_EQ(error_of(op_kind::broadcast_to, {type::tile(dtype::f32, {3})}, {{"shape", shape{4}}}, error_kind::invalid_argument),
            "broadcast_to: cannot broadcast (3,) to (4,)");
  error_of(op_kind::broadcast_to, {t}, {{"shape", shape{3, 4}}}, error_kind::invalid_argument);
}

TEST(IrInfer, Reductions) {
  const type t = type::tile(dtype::i8, {2, 3});
  attrs a1{{"axis", std::int64_t(1)}, {"keepdims", std::int64_t(0)}};
  attrs am{{"axis", std::int64_t(-2)}, {"keepdims", std::int64_t(1)}};
  EXPECT_EQ(one(op_kind::reduce_sum, {t}, a1), type::tile(dtype::i64, {2}));
  EXPECT_EQ(one(op_kind::reduce_prod, {type::tile(dtype::u8, {2, 3})}, am), type::tile(dtype::u64, {1, 3}));
  EXPECT_EQ(one(op_kind::reduce_sum, {type::tile(dtype::b1, {4})}, {{"axis", std::int64_t(0)}, {"keepdims", std::int64_t(0)}}), i64);
  EXPECT_EQ(one(op_kind::reduce_sum, {type::tile(dtype::f16, {4})}, {{"axis", std::int64_t(0)}, {"keepdims", std::int64_t(0)}}),
            type::tile(dtype::f16));
  EXPECT_EQ(one(op_kind::reduce_max, {t}, a1), type::tile(dtype::i8, {2}));
  EXPECT_EQ(one(op_kind::reduce_min, {t}, am), type::tile(dtype::i8, {1, 3}));
  EXPECT_EQ(one(op_kind::argmax, {type::tile(dtype::f64, {2, 3})}, a1), type::tile(dtype::i32, {2}));
  EXPECT_EQ(one(op_kind::argmin, {t}, am), type::tile(dtype::i32, {1, 3}));
  EXPECT_EQ(one(op_kind::cumsum, {t}, {{"axis", std::int64_t(-1)}, {"reverse", std::int64_t(0)}}), type::tile(dtype::i64, {2, 3}));
  EXPECT_EQ(one(op_kind::cumprod, {type::tile(dtype::f32, {8})}, {{"axis", std::int64_t(0)}, {"reverse", std::int64_t(1)}}),
            type::tile(dtype::f32, {8}));
  error_of(op_kind::reduce_sum, {t}, {{"axis", std::int64_t(2)}, {"keepdims", std::int64_t(0)}}, error_kind::invalid_argument);
  error_of(op_kind::reduce_sum, {t}, {{"axis", std::int64_t(0)}, {"keepdims", std::int64_t(2)}}, error_kind::invalid_argument);
  error_of(op_kind::reduce_sum, {t}, {{"axis", std::int64_t(0)}}, error_kind::invalid_argument);
  error_of(op_kind::reduce_max, {i32}, {{"axis", std::int64_t(0)}, {"keepdims", std::int64_t(0)}}, error_kind::invalid_argument);
  error_of(op_kind::cumsum, {t}, {{"axis", std::int64_t(0)}}, error_kind::invalid_argument);  // no reverse
}

TEST(IrInfer, Debugging) {
  EXPECT_TRUE(infer_results(make(op_kind::print, {{"format", std::string("{} and {}")}}), {f32_4, i32}).empty());
  EXPECT_TRUE(infer_results(make(op_kind::print, {{"format", std::string("hello")}}), {}).empty());
  EXPECT_TRUE(infer_results(make(op_kind::assert_, {{"message", std::string("m")}}), {type::tile(dtype::b1, {4})}).empty());
  EXPECT_EQ(error_of(op_kind::print, {f32_4}, {{"format", std::string("{} {}")}}, error_kind::invalid_argument),
            "print: format has 2 '{}' for 1 operands");
  error_of(op_kind::assert_, {f32_4}, {{"message", std::string("m")}}, error_kind::type_error);
  error_of(op_kind::assert_, {type::tile(dtype::b1)}, {}, error_kind::invalid_argument);
}

TEST(IrInfer, RegionOpsAreNotInferred) {
  for (op_kind k : {op_kind::for_, op_kind::if_, op_kind::while_, op_kind::reduce, op_kind::scan, op_kind::yield})
    error_of(k, {}, {}, error_kind::internal);
}

TEST(IrInfer, BroadcastShapes) {
  EXPECT_EQ(broadcast_shapes({4, 1}, {3}), (shape{4, 3}));
  EXPECT_EQ(broadcast_shapes({}, {2, 5}), (shape{2, 5}));
  EXPECT_EQ(broadcast_shapes({1, 5}, {7, 1}), (shape{7, 5}));
  EXPECT_EQ(broadcast_shapes({8, 1, 6, 1}, {7, 1, 5}), (shape{8, 7, 6, 5}));
  try {
    broadcast_shapes({2, 3}, {4});
    FAIL();
  } catch (const tegula::error& e) {
    EXPECT_EQ(std::string(e.what()), "shapes (2, 3) and (4,) cannot be broadcast together");
    EXPECT_EQ(e.kind(), error_kind::invalid_argument);
  }
}

TEST(IrInfer, AccumulationDtype) {
  EXPECT_EQ(accumulation_dtype(op_kind::reduce_sum, dtype::b1), dtype::i64);
  EXPECT_EQ(accumulation_dtype(op_kind::cumsum, dtype::i16), dtype::i64);
  EXPECT_EQ(accumulation_dtype(op_kind::reduce_prod, dtype::u32), dtype::u64);
  EXPECT_EQ(accumulation_dtype(op_kind::cumprod, dtype::bf16), dtype::bf16);
  EXPECT_EQ(accumulation_dtype(op_kind::reduce_max, dtype::i8), dtype::i8);
  EXPECT_EQ(accumulation_dtype(op_kind::argmin, dtype::f64), dtype::i32);
}

TEST(IrInfer, Helpers) {
  EXPECT_EQ(normalize_axis(-1, 3), 2);
  EXPECT_EQ(normalize_axis(0, 1), 0);
  EXPECT_FALSE(normalize_axis(3, 3));
  EXPECT_FALSE(normalize_axis(-4, 3));
  EXPECT_EQ(reduced_shape({2, 3, 4}, 1, false), (shape{2, 4}));
  EXPECT_EQ(reduced_shape({2, 3, 4}, 1, true), (shape{2, 1, 4}));
  EXPECT_EQ(shape_string({}), "()");
  EXPECT_EQ(shape_string({4}), "(4,)");
  EXPECT_EQ(shape_string({2, 3}), "(2, 3)");
}

}  // namespace
}  // namespace tegula::ir
