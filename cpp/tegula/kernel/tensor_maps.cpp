// Tensor maps of kernel operands (see tensor_maps.hpp).
#include "tegula/kernel/tensor_maps.hpp"

#include <cuda.h>

#include <algorithm>

#include "tegula/runtime/buffer.hpp"
#include "tegula/runtime/stream.hpp"
#include "tegula/support/error.hpp"

namespace tegula::kernel {

int tensor_map_data_type(ir::dtype t) {
  switch (t) {
    case ir::dtype::bf16: return CU_TENSOR_MAP_DATA_TYPE_BFLOAT16;
    case ir::dtype::f16: return CU_TENSOR_MAP_DATA_TYPE_FLOAT16;
    case ir::dtype::f32: return CU_TENSOR_MAP_DATA_TYPE_FLOAT32;
    case ir::dtype::f64: return CU_TENSOR_MAP_DATA_TYPE_FLOAT64;
    default:
      if (ir::is_float8(t)) return CU_TENSOR_MAP_DATA_TYPE_UINT8;
      fail(error_kind::invalid_argument, "no tensor map for dtype '", ir::name(t), "'");
  }
}

rt::tensor_map encode_operand(const std::string& kernel_name, const codegen::tensor_map_spec& spec,
                              const array_arg& a, const rt::stream& s, std::vector<std::shared_ptr<void>>& keep,
                              bool& copied) {
  copied = false;
  if (a.rank != 2)
    fail(error_kind::invalid_argument, "kernel '", kernel_name, "': array ", spec.array,
         " is a tensor-core operand and must be 2-D (it is ", a.rank, "-D)");
  if (a.shape[1] > 1 && a.strides[1] != 1)
    fail(error_kind::invalid_argument, "kernel '", kernel_name, "': array ", spec.array,
         " is a tensor-core operand and needs unit-stride rows (column stride ", a.strides[1], ")");
  const int type = tensor_map_data_type(spec.elem);
  const std::int64_t item = ir::size_bytes(spec.elem), rows = a.shape[0], cols = a.shape[1];
  if (a.address % 16 == 0 && (a.strides[0] * item) % 16 == 0)
    return rt::encode_tensor_map_2d(type, int(item), a.address, rows, cols, a.strides[0], spec.box_rows,
                                    spec.box_cols);
  // The copy engine reads rows at 16-byte aligned addresses: repack into such rows first (one extra pass).
  const std::int64_t pitch = (cols * item + 15) / 16 * 16;
  auto on = rt::stream::wrap(s.handle(), s.dev());
  auto buf = rt::buffer::allocate(std::size_t(std::max<std::int64_t>(1, pitch * rows)), on);
  rt::copy_rows(s, buf->ptr(), std::size_t(pitch), a.address, std::size_t(a.strides[0] * item),
                std::size_t(cols * item), std::size_t(rows));
  keep.push_back(buf);
  copied = true;
  return rt::encode_tensor_map_2d(type, int(item), buf->ptr(), rows, cols, pitch / item, spec.box_rows,
                                  spec.box_cols);
}

}  // namespace tegula::kernel
