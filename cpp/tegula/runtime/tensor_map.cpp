// Tensor maps for the bulk tensor copy engine (see tensor_map.hpp).
#include "tegula/runtime/tensor_map.hpp"

#include "tegula/runtime/driver.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/runtime/stream.hpp"
#include "tegula/support/error.hpp"

namespace tegula::rt {

tensor_map encode_tensor_map_2d(int data_type, int elem_bytes, std::uintptr_t address, std::int64_t rows,
                                std::int64_t cols, std::int64_t row_stride, int box_rows, int box_cols) {
  static_assert(sizeof(tensor_map) == sizeof(CUtensorMap), "a tensor map is 128 bytes");
  if (address % 16 != 0) fail(error_kind::invalid_argument, "the copy engine needs a 16-byte aligned array, got address ", address);
  if ((row_stride * elem_bytes) % 16 != 0 || row_stride < cols)
    fail(error_kind::invalid_argument, "the copy engine needs rows whose stride (", row_stride * elem_bytes,
         " bytes) is a multiple of 16 and covers the row");
  if (rows < 1 || cols < 1 || box_rows < 1 || box_rows > 256 || box_cols < 1 || box_cols * elem_bytes > 128)
    fail(error_kind::invalid_argument, "tensor map: bad extents (", rows, " x ", cols, ") or box (", box_rows, " x ",
         box_cols, ")");
  CUtensorMap map;
  const cuuint64_t dims[2] = {cuuint64_t(cols), cuuint64_t(rows)};
  const cuuint64_t strides[1] = {cuuint64_t(row_stride * elem_bytes)};
  const cuuint32_t box[2] = {cuuint32_t(box_cols), cuuint32_t(box_rows)};
  const cuuint32_t elem_strides[2] = {1, 1};
  TEGULA_CHECK(drv().cuTensorMapEncodeTiled(&map, CUtensorMapDataType(data_type), 2, reinterpret_cast<void*>(address),
                                            dims, strides, box, elem_strides, CU_TENSOR_MAP_INTERLEAVE_NONE,
                                            CU_TENSOR_MAP_SWIZZLE_128B, CU_TENSOR_MAP_L2_PROMOTION_L2_256B,
                                            CU_TENSOR_MAP_FLOAT_OOB_FILL_NONE));
  tensor_map out;
  static_assert(sizeof out == sizeof map);
  __builtin_memcpy(out.data(), &map, sizeof map);
  return out;
}

void copy_rows(const stream& s, std::uintptr_t dst, std::size_t dst_pitch, std::uintptr_t src, std::size_t src_pitch,
               std::size_t width, std::size_t rows) {
  if (rows == 0 || width == 0) return;
  CUDA_MEMCPY2D c{};
  c.srcMemoryType = CU_MEMORYTYPE_DEVICE;
  c.srcDevice = CUdeviceptr(src);
  c.srcPitch = src_pitch;
  c.dstMemoryType = CU_MEMORYTYPE_DEVICE;
  c.dstDevice = CUdeviceptr(dst);
  c.dstPitch = dst_pitch;
  c.WidthInBytes = width;
  c.Height = rows;
  s.dev().make_current();
  TEGULA_CHECK(drv().cuMemcpy2DAsync(&c, s.handle()));
}

}  // namespace tegula::rt
