// Tensor maps: the 128-byte descriptors through which the bulk tensor copy engine (TMA) reads a
// 2-D array in boxes (sm_90).
#pragma once
#include <array>
#include <cstdint>

namespace tegula::rt {

using tensor_map = std::array<std::uint64_t, 16>;  // CUtensorMap: 128 bytes, passed by value

// A map over a row-major 2-D array at `address` (rows x cols elements of `elem_bytes` bytes, rows
// `row_stride` elements apart) read in boxes of box_rows x box_cols elements with 128-byte
// swizzling; out-of-bounds elements read as zero. `data_type` is a CUtensorMapDataType. Throws
// invalid_argument naming what the copy engine cannot address (alignment, strides, box sizes).
tensor_map encode_tensor_map_2d(int data_type, int elem_bytes, std::uintptr_t address, std::int64_t rows,
                                std::int64_t cols, std::int64_t row_stride, int box_rows, int box_cols);

}  // namespace tegula::rt
