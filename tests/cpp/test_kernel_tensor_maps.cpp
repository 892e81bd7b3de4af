// Tests of kernel/tensor_maps that need no GPU: dtypes the copy engine reads, and operands it cannot take.
#include <gtest/gtest.h>

#include <cuda.h>

#include "expect_error.hpp"
#include "tegula/kernel/tensor_maps.hpp"

namespace tegula::kernel {
namespace {

TEST(KernelTensorMaps, DataTypes) {
  EXPECT_EQ(tensor_map_data_type(ir::dtype::bf16), CU_TENSOR_MAP_DATA_TYPE_BFLOAT16);
  EXPECT_EQ(tensor_map_data_type(ir::dtype::f16), CU_TENSOR_MAP_DATA_TYPE_FLOAT16);
  EXPECT_EQ(tensor_map_data_type(ir::dtype::f32), CU_TENSOR_MAP_DATA_TYPE_FLOAT32);
  EXPECT_EQ(tensor_map_data_type(ir::dtype::f64), CU_TENSOR_MAP_DATA_TYPE_FLOAT64);
  EXPECT_EQ(tensor_map_data_type(ir::dtype::f8e4m3), CU_TENSOR_MAP_DATA_TYPE_UINT8);
  testing::expect_error([] { tensor_map_data_type(ir::dtype::i32); }, error_kind::invalid_argument,
                        "no tensor map for dtype 'int32'");
}

TEST(KernelTensorMaps, OperandsMustBeTwoDimensionalWithUnitStrideRows) {
  std::vector<std::shared_ptr<void>> keep;
  bool copied = false;
  codegen::tensor_map_spec spec;
  spec.array = 1;
  spec.elem = ir::dtype::bf16;
  spec.box_rows = 64;
  spec.box_cols = 64;
  const rt::stream* none = nullptr;  // never reached: the checks come first
  testing::expect_error([&] { encode_operand("mm", spec, make_array(0, ir::dtype::bf16, {64}), *none, keep, copied); },
                        error_kind::invalid_argument, "kernel 'mm': array 1 is a tensor-core operand and must be 2-D "
                        "(it is 1-D)");
  testing::expect_error(
      [&] { encode_operand("mm", spec, make_array(0, ir::dtype::bf16, {64, 64}, {1, 64}), *none, keep, copied); },
      error_kind::invalid_argument, "kernel 'mm': array 1 is a tensor-core operand and needs unit-stride rows "
                                    "(column stride 64)");
  EXPECT_TRUE(keep.empty());
  EXPECT_FALSE(copied);
}

}  // namespace
}  // namespace tegula::kernel
