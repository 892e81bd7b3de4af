// Kernel arguments: views, their layouts, and scalar bytes in the ABI (see arguments.hpp).
#include "tegula/kernel/arguments.hpp"

#include <cstring>

#include "tegula/interp/small_float.hpp"
#include "tegula/support/error.hpp"

namespace tegula::kernel {

array_arg make_array(std::uintptr_t address, ir::dtype t, const std::vector<std::int64_t>& shape,
                     const std::vector<std::int64_t>& strides) {
  if (shape.size() > std::size_t(max_rank))
    fail(error_kind::invalid_argument, "arrays of at most ", max_rank, " axes are supported, got ", shape.size());
  if (!strides.empty() && strides.size() != shape.size())
    fail(error_kind::invalid_argument, "an array view needs one stride per extent (", shape.size(), " extents, ",
         strides.size(), " strides)");
  array_arg a;
  a.address = address;
  a.t = t;
  a.rank = int(shape.size());
  std::int64_t step = 1;
  for (int d = a.rank - 1; d >= 0; --d) {
    a.shape[d] = shape[std::size_t(d)];
    if (a.shape[d] < 0) fail(error_kind::invalid_argument, "array extent ", d, " is negative (", a.shape[d], ")");
    a.strides[d] = strides.empty() ? step : strides[std::size_t(d)];
    step *= a.shape[d];
  }
  const codegen::array_spec l = actual_layout(a);
  a.contiguous = l.last_dim_contiguous;
  a.aligned = l.aligned_16;
  return a;
}

codegen::array_spec actual_layout(const array_arg& a) {
  const int last = a.rank - 1;
  bool contiguous = a.rank == 0 || a.shape[last] <= 1 || a.strides[last] == 1;
  bool aligned = a.address % 16 == 0;
  for (int d = 0; d < last; ++d)
    aligned = aligned && (a.shape[d] <= 1 || (a.strides[d] * ir::size_bytes(a.t)) % 16 == 0);
  return {contiguous, aligned};
}

std::vector<codegen::array_spec> declared_layouts(const std::vector<argument>& args) {
  std::vector<codegen::array_spec> out;
  for (const auto& a : args)
    if (const auto* x = std::get_if<array_arg>(&a)) out.push_back({x->contiguous, x->aligned});
  return out;
}

std::uint64_t bytes_touched(const std::vector<argument>& args) {
  std::uint64_t total = 0;
  for (const auto& a : args) {
    if (const auto* x = std::get_if<array_arg>(&a)) {
      std::uint64_t n = 1;
      for (int d = 0; d < x->rank; ++d)
        if (x->strides[d] != 0) n *= static_cast<std::uint64_t>(x->shape[d]);
      total += n * static_cast<std::uint64_t>(ir::size_bytes(x->t));
    }
  }
  return total;
}

std::size_t scalar_bytes(const scalar_arg& s, unsigned char out[8]) {
  const std::size_t n = static_cast<std::size_t>(ir::size_bytes(s.t));
  std::memset(out, 0, 8);
  switch (s.t) {
    case ir::dtype::b1: out[0] = s.i != 0; break;
    case ir::dtype::f32: { float f = static_cast<float>(s.f); std::memcpy(out, &f, 4); break; }
    case ir::dtype::f64: std::memcpy(out, &s.f, 8); break;
    case ir::dtype::f16: { auto h = interp::float16_from_double(s.f); std::memcpy(out, &h, 2); break; }
    case ir::dtype::bf16: { auto h = interp::bfloat16_from_double(s.f); std::memcpy(out, &h, 2); break; }
    default:
      if (n > 8)
        fail(error_kind::type_error, "run-time scalars of ", ir::name(s.t), " are not supported");
      std::memcpy(out, &s.i, n);  // little-endian: the low bytes are the value truncated to the dtype
      break;
  }
  return n;
}

}  // namespace tegula::kernel
