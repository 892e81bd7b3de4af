// Reductions and scans whose combiner is an IR region, folded sequentially from the identity.
#include <memory>

#include "tegula/interp/op_failure.hpp"
#include "tegula/interp/reductions.hpp"

namespace tegula::interp {
namespace {

tile_ptr element(const tile_value& x, std::int64_t at) {
  auto e = std::make_shared<tile_value>(x.dtype(), std::vector<std::int64_t>{});
  e->copy_element(0, x, at);
  return e;
}

tile_ptr combine(const combine_fn& f, const tile_ptr& acc, const tile_ptr& x) {
  tile_ptr r = f(acc, x);
  if (!r || r->rank() != 0 || r->dtype() != acc->dtype())
    fail_op("the combiner must yield a scalar ", ir::name(acc->dtype()), ", got ",
            r ? ir::name(r->dtype()) : "nothing", r ? shape_string(r->shape()) : "");
  return r;
}

void check_identity(const tile_value& x, const tile_ptr& identity) {
  if (identity->rank() != 0 || identity->dtype() != x.dtype())
    fail_op("the identity must be a scalar ", ir::name(x.dtype()), ", got ", ir::name(identity->dtype()),
            shape_string(identity->shape()));
}

}  // namespace

tile_value custom_reduce(const tile_value& x, const tile_ptr& identity, int axis, bool keepdims, const combine_fn& f) {
  check_identity(x, identity);
  const axis_split s = split_axis(x.shape(), axis);
  tile_value r(x.dtype(), reduced_shape(x.shape(), axis, keepdims));
  for (std::int64_t o = 0; o < s.outer; ++o)
    for (std::int64_t i = 0; i < s.inner; ++i) {
      tile_ptr acc = identity;
      for (std::int64_t k = 0; k < s.len; ++k) acc = combine(f, acc, element(x, (o * s.len + k) * s.inner + i));
      r.copy_element(o * s.inner + i, *acc, 0);
    }
  return r;
}

tile_value custom_scan(const tile_value& x, const tile_ptr& identity, int axis, bool reverse, const combine_fn& f) {
  check_identity(x, identity);
  const axis_split s = split_axis(x.shape(), axis);
  tile_value r(x.dtype(), x.shape());
  for (std::int64_t o = 0; o < s.outer; ++o)
    for (std::int64_t i = 0; i < s.inner; ++i) {
      tile_ptr acc = identity;
      for (std::int64_t kk = 0; kk < s.len; ++kk) {
        const std::int64_t at = (o * s.len + (reverse ? s.len - 1 - kk : kk)) * s.inner + i;
        acc = combine(f, acc, element(x, at));
        r.copy_element(at, *acc, 0);
      }
    }
  return r;
}

}  // namespace tegula::interp
