// Per-element array access through offset tiles: gather, scatter and the atomics.
#include <cstring>
#include <optional>

#include "tegula/interp/convert.hpp"
#include "tegula/interp/dtype_traits.hpp"
#include "tegula/interp/memory_ops.hpp"
#include "tegula/interp/op_failure.hpp"
#include "tegula/interp/padding_value.hpp"

namespace tegula::interp {
namespace {

// Each element's array offset and whether it is inside the array.
struct located {
  std::vector<std::int64_t> offset;
  std::vector<std::uint8_t> inside;
};

// acc + x * y modulo 2^64: offsets outside the array may be absurd, but are never used.
std::int64_t wrapping_madd(std::int64_t acc, std::int64_t x, std::int64_t y) {
  return std::int64_t(std::uint64_t(acc) + std::uint64_t(x) * std::uint64_t(y));
}

located locate(const array_arg& a, const std::vector<const tile_value*>& offsets) {
  if (offsets.size() != a.shape.size())
    fail_op(offsets.size(), " offset tiles for an array of rank ", a.shape.size());
  if (offsets.empty()) return {{0}, {1}};
  const auto& shape = offsets[0]->shape();
  const std::size_t n = std::size_t(offsets[0]->numel());
  located l{std::vector<std::int64_t>(n, 0), std::vector<std::uint8_t>(n, 1)};
  for (std::size_t d = 0; d < offsets.size(); ++d) {
    const tile_value& t = *offsets[d];
    if (t.shape() != shape)
      fail_op("offset tiles differ in shape: ", shape_string(shape), " and ", shape_string(t.shape()));
    const std::int64_t ext = a.shape[d], stride = a.strides[d];
    switch (t.kind()) {
      case repr::real: fail_op("offsets must be integers, got ", ir::name(t.dtype()));
      case repr::sint: {
        const std::int64_t* p = t.data<std::int64_t>();
        for (std::size_t i = 0; i < n; ++i) {
          l.inside[i] &= std::uint8_t(p[i] >= 0 && p[i] < ext);
          l.offset[i] = wrapping_madd(l.offset[i], p[i], stride);
        }
        break;
      }
      case repr::uint: {
        const std::uint64_t* p = t.data<std::uint64_t>();
        for (std::size_t i = 0; i < n; ++i) {
          l.inside[i] &= std::uint8_t(p[i] < std::uint64_t(ext));
          l.offset[i] = wrapping_madd(l.offset[i], std::int64_t(p[i]), stride);
        }
        break;
      }
    }
  }
  return l;
}

std::vector<std::int64_t> result_shape(const std::vector<const tile_value*>& offsets) {
  return offsets.empty() ? std::vector<std::int64_t>{} : offsets[0]->shape();
}

// A bool mask, or a value, matching the offsets' shape (or a scalar, which applies to all).
void check_operand(const tile_value* t, const std::vector<std::int64_t>& shape, const char* what) {
  if (t && t->rank() != 0 && t->shape() != shape)
    fail_op(what, " of shape ", shape_string(t->shape()), " does not match the offsets' ", shape_string(shape));
}

bool masked_out(const tile_value* mask, std::int64_t i) { return mask && !mask->truthy(mask->rank() ? i : 0); }

[[noreturn]] void out_of_bounds(const array_arg& a, const std::vector<const tile_value*>& offsets, std::int64_t i) {
  std::vector<std::int64_t> at;
  for (const tile_value* t : offsets) at.push_back(t->as_int(i));
  fail_op("offset ", shape_string(at), " is out of bounds for an array of shape ", shape_string(a.shape));
}

// The tile in the array's dtype (converted when the front end left it in another).
const tile_value& in_dtype(const tile_value& t, ir::dtype d, std::optional<tile_value>& holder) {
  return t.dtype() == d ? t : holder.emplace(convert(t, d));
}

}  // namespace

tile_value gather(const array_arg& a, const std::vector<const tile_value*>& offsets, const tile_value* mask,
                  padding_kind pad) {
  const located l = locate(a, offsets);
  const auto shape = result_shape(offsets);
  check_operand(mask, shape, "mask");
  if (mask && mask->dtype() != ir::dtype::b1) fail_op("mask must be bool, got ", ir::name(mask->dtype()));
  tile_value r(a.elem, shape);
  dispatch_dtype(a.elem, [&](auto tag) {
    constexpr ir::dtype D = decltype(tag)::value;
    using tr = dtype_traits<D>;
    using S = typename tr::stor;
    const auto* base = static_cast<const typename tr::mem*>(a.data);
    const S p = padding_value<D>(pad);
    S* out = r.data<S>();
    for (std::size_t i = 0; i < l.offset.size(); ++i)
      out[i] = (l.inside[i] && !masked_out(mask, std::int64_t(i))) ? tr::read(base[l.offset[i]]) : p;
  });
  return r;
}

void scatter(const array_arg& a, const std::vector<const tile_value*>& offsets, const tile_value& value,
             const tile_value* mask) {
  const located l = locate(a, offsets);
  check_operand(&value, result_shape(offsets), "value");
  check_operand(mask, result_shape(offsets), "mask");
  std::optional<tile_value> holder;
  const tile_value& v = in_dtype(value, a.elem, holder);
  dispatch_dtype(a.elem, [&](auto tag) {
    using tr = dtype_traits<decltype(tag)::value>;
    using S = typename tr::stor;
    auto* base = static_cast<typename tr::mem*>(a.data);
    const S* in = v.data<S>();
    const bool splat = v.rank() == 0;
    for (std::size_t i = 0; i < l.offset.size(); ++i) {
      if (masked_out(mask, std::int64_t(i))) continue;
      if (!l.inside[i]) out_of_bounds(a, offsets, std::int64_t(i));
      base[l.offset[i]] = tr::write(in[splat ? 0 : i]);
    }
  });
}

tile_value atomic_update(atomic_fn fn, const array_arg& a, const std::vector<const tile_value*>& offsets,
                         const tile_value* compare, const tile_value& value, const tile_value* mask) {
  const located l = locate(a, offsets);
  const auto shape = result_shape(offsets);
  check_operand(&value, shape, "value");
  check_operand(compare, shape, "compare");
  check_operand(mask, shape, "mask");
  if (fn == atomic_fn::cas && !compare) fail_op("atomic_cas needs a compare operand");
  std::optional<tile_value> vh, ch;
  const tile_value& v = in_dtype(value, a.elem, vh);
  const tile_value* c = compare ? &in_dtype(*compare, a.elem, ch) : nullptr;
  tile_value old(a.elem, shape);
  dispatch_dtype(a.elem, [&](auto tag) {
    constexpr ir::dtype D = decltype(tag)::value;
    using tr = dtype_traits<D>;
    using S = typename tr::stor;
    using M = typename tr::mem;
    auto* base = static_cast<M*>(a.data);
    const S* in = v.data<S>();
    S* out = old.data<S>();
    for (std::size_t i = 0; i < l.offset.size(); ++i) {
      if (masked_out(mask, std::int64_t(i))) continue;
      if (!l.inside[i]) out_of_bounds(a, offsets, std::int64_t(i));
      M& slot = base[l.offset[i]];
      const S was = tr::read(slot), x = in[v.rank() ? i : 0];
      out[i] = was;
      switch (fn) {
        case atomic_fn::add:
          if constexpr (is_real_v<D>) slot = tr::write(was + x);
          else slot = tr::write(S(std::uint64_t(was) + std::uint64_t(x)));
          break;
        case atomic_fn::max: slot = tr::write((was >= x || was != was) ? was : x); break;
        case atomic_fn::min: slot = tr::write((was <= x || was != was) ? was : x); break;
        case atomic_fn::cas: {
          const M expected = tr::write(c->data<S>()[c->rank() ? i : 0]);
          if (std::memcmp(&expected, &slot, sizeof(M)) == 0) slot = tr::write(x);
          break;
        }
      }
    }
  });
  return old;
}

}  // namespace tegula::interp
