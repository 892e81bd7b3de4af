// A launch's arguments as the kernel ABI sees them: array views and typed scalars (every front end builds these).
#pragma once
#include <cstdint>
#include <variant>
#include <vector>

#include "tegula/codegen/cuda.hpp"
#include "tegula/ir/ir.hpp"

namespace tegula::kernel {

// Arrays of more axes are refused (make_array): the views live inline, so a launch allocates nothing per array.
constexpr int max_rank = 16;

// An array view: address, dtype, extents and strides (elements), and the layout its code is specialised for.
// `contiguous`/`aligned` are what the caller declares (the codegen specialization, part of every cache key); an
// array may be more than it declares, never less (launch checks).
struct array_arg {
  std::uintptr_t address = 0;
  ir::dtype t = ir::dtype::f32;
  int rank = 1;
  std::int64_t shape[max_rank] = {}, strides[max_rank] = {};
  bool contiguous = true, aligned = true;
};

// A run-time scalar of dtype `t`: floating dtypes read `f`, the others `i` (bool: i != 0).
struct scalar_arg {
  ir::dtype t = ir::dtype::f32;
  double f = 0;
  std::int64_t i = 0;
};

using argument = std::variant<array_arg, scalar_arg>;

// An array view declaring its actual layout; invalid_argument for a rank over max_rank or shape/stride counts that
// differ. Empty strides: C order.
array_arg make_array(std::uintptr_t address, ir::dtype t, const std::vector<std::int64_t>& shape,
                     const std::vector<std::int64_t>& strides = {});

// What the array really is: its last axis contiguous (or of one element), its address and the pitch of every
// axis of more than one element but the last 16-byte aligned.
codegen::array_spec actual_layout(const array_arg& a);

// The codegen specialization of every array argument, in order (what compile's target needs).
std::vector<codegen::array_spec> declared_layouts(const std::vector<argument>& args);

// Bytes of the array arguments, a broadcast (stride 0) axis counted once: what a launch reads and writes.
std::uint64_t bytes_touched(const std::vector<argument>& args);

// The scalar's bytes in the kernel ABI (its C type; bool one byte, f16/bf16 rounded to nearest even); returns
// the count written to `out` (at most 8).
std::size_t scalar_bytes(const scalar_arg& s, unsigned char out[8]);

// Calls put(bytes, n) for each kernel parameter of `args` in the ABI's order (codegen/cuda.hpp): an array as its
// 8-byte pointer, extents and strides, a scalar as scalar_bytes. launch's packer and the tests read it.
template <class F>
void for_each_param(const std::vector<argument>& args, F&& put) {
  for (const auto& a : args) {
    if (const auto* x = std::get_if<array_arg>(&a)) {
      const std::uint64_t ptr = x->address;
      put(static_cast<const void*>(&ptr), std::size_t(8));
      for (int d = 0; d < x->rank; ++d) put(static_cast<const void*>(&x->shape[d]), std::size_t(8));
      for (int d = 0; d < x->rank; ++d) put(static_cast<const void*>(&x->strides[d]), std::size_t(8));
    } else {
      unsigned char bytes[8];
      const std::size_t n = scalar_bytes(std::get<scalar_arg>(a), bytes);
      put(static_cast<const void*>(bytes), n);
    }
  }
}

}  // namespace tegula::kernel
