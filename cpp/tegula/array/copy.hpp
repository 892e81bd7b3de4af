// Copies between arbitrary strided layouts (any rank, negative and zero strides, dtype casts):
// the fallback for views a 2-D kernel cannot read or write, and for contiguous copies of views.
#pragma once
#include <memory>

#include "tegula/array/layout.hpp"
#include "tegula/array/storage.hpp"
#include "tegula/ir/dtype.hpp"

namespace tegula::array {

// dst[...] = src[...] (cast to dst_t); the shapes must be equal. Overlapping src and dst in one
// storage go through a temporary, so the result is as if src were read first (NumPy semantics).
void copy_strided(const std::shared_ptr<storage>& src, const layout& src_layout, ir::dtype src_t,
                  const std::shared_ptr<storage>& dst, const layout& dst_layout, ir::dtype dst_t);

}  // namespace tegula::array
