// Tensor maps: the 128-byte descriptors through which the bulk tensor copy engine (TMA) reads a
// 2-D array in boxes (sm_90).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>

namespace tegula::rt {

using tensor_map = std::array<std::uint64_t, 16>;  // CUtensorMap: 128 bytes, passed by value

// A map over a row-major 2-D array at `address` (rows x cols elements of `elem_bytes` bytes, rows
// `row_stride` elements apart) read in boxes of box_rows x box_cols elements with 128-byte
// swizzling; out-of-bounds elements read as zero. `data_type` is a CUtensorMapDataType. Throws
// invalid_argument naming what the copy engine cannot address (alignment, strides, box sizes).
tensor_map encode_tensor_map_2d(int data_type, int elem_bytes, std::uintptr_t address, std::int64_t rows,
                                std::int64_t cols, std::int64_t row_stride, int box_rows, int box_cols);

class stream;

// Copies `rows` rows of `width` bytes from src (rows `src_pitch` bytes apart) to dst (`dst_pitch`
// apart), ordered on `s`: how an array whose rows the copy engine cannot address (strides not a
// multiple of 16 bytes) is repacked for it.
void copy_rows(const stream& s, std::uintptr_t dst, std::size_t dst_pitch, std::uintptr_t src, std::size_t src_pitch,
               std::size_t width, std::size_t rows);

}  // namespace tegula::rt
