// Materialising pending nodes: plan, substitute copies or materialise inner nodes where the plan
// asks, get the (cached) kernel, run it. Afterwards the node is a leaf over fresh contiguous storage.
#pragma once
#include "tegula/array/expr.hpp"

namespace tegula::array {

void materialize(const node_ptr& n);

// Evaluates `src` (broadcast to dst's shape, cast to dst_t) into an existing layout: in-place
// ops, out=, setitem. Pending readers of `dst` are materialised first (expr.hpp: flush_readers).
// `src_is_temporary`: nobody else holds src (the value of an in-place op), so it may be evaluated
// straight into dst.
void assign(const std::shared_ptr<storage>& dst, const layout& dst_layout, dtype dst_t, const node_ptr& src,
            bool src_is_temporary = false);

// The value of a 0-d node as an int64 (materialised and read back: a synchronisation on the GPU).
std::int64_t int64_value(const node_ptr& n);

// New storage for `bytes` on the device of `like`.
std::shared_ptr<storage> allocate_like(const node& like, std::size_t bytes);

// x's values (materialised) in a C-contiguous leaf: x itself when it is one, unless `always_copy`, else a copy next
// to it.
node_ptr contiguous_leaf(const node_ptr& x, bool always_copy = false);

}  // namespace tegula::array
