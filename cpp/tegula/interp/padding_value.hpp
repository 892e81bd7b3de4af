// The storage value that out-of-bounds or masked elements of a load/gather read as, per dtype.
#pragma once
#include <limits>

#include "tegula/interp/dtype_traits.hpp"
#include "tegula/interp/memory_ops.hpp"

namespace tegula::interp {

template <ir::dtype D>
typename dtype_traits<D>::stor padding_value(padding_kind p) {
  using tr = dtype_traits<D>;
  using S = typename tr::stor;
  using M = typename tr::mem;
  if constexpr (is_real_v<D>) {
    switch (p) {
      case padding_kind::zero: return 0.0;
      case padding_kind::neg_inf: return -std::numeric_limits<double>::infinity();
      case padding_kind::pos_inf: return std::numeric_limits<double>::infinity();
      case padding_kind::nan: return std::numeric_limits<double>::quiet_NaN();
    }
  } else if constexpr (D == ir::dtype::b1) {
    return p == padding_kind::pos_inf ? 1 : 0;
  } else {
    switch (p) {
      case padding_kind::zero:
      case padding_kind::nan: return 0;
      case padding_kind::neg_inf: return S(std::numeric_limits<M>::min());
      case padding_kind::pos_inf: return S(std::numeric_limits<M>::max());
    }
  }
  return S(0);
}

}  // namespace tegula::interp
