// What each op may do besides computing its results: the facts CSE, DCE and LICM rely on.
#include "tegula/passes/effects.hpp"

#pragma GCC diagnostic error "-Wswitch"

namespace tegula::passes {

effect effect_of(ir::op_kind k) {
  using ir::op_kind;
  switch (k) {
    case op_kind::constant: case op_kind::arange: case op_kind::block_id: case op_kind::num_blocks:
    case op_kind::dim: case op_kind::num_tiles:
    case op_kind::neg: case op_kind::logical_not: case op_kind::abs: case op_kind::exp: case op_kind::exp2:
    case op_kind::log: case op_kind::log2: case op_kind::sqrt: case op_kind::rsqrt: case op_kind::sin:
    case op_kind::cos: case op_kind::tanh: case op_kind::floor: case op_kind::ceil: case op_kind::astype:
    case op_kind::tan: case op_kind::asin: case op_kind::acos: case op_kind::atan: case op_kind::sinh: case op_kind::cosh: case op_kind::asinh: case op_kind::acosh: case op_kind::atanh: case op_kind::log10: case op_kind::log1p: case op_kind::expm1: case op_kind::trunc: case op_kind::rint:
    case op_kind::bitcast:
    case op_kind::add: case op_kind::sub: case op_kind::mul: case op_kind::div: case op_kind::floordiv:
    case op_kind::mod: case op_kind::pow: case op_kind::atan2: case op_kind::hypot: case op_kind::copysign: case op_kind::minimum: case op_kind::maximum: case op_kind::bit_and:
    case op_kind::bit_or: case op_kind::bit_xor: case op_kind::shl: case op_kind::shr: case op_kind::eq:
    case op_kind::ne: case op_kind::lt: case op_kind::le: case op_kind::gt: case op_kind::ge: case op_kind::where:
    case op_kind::reshape: case op_kind::permute: case op_kind::expand_dims: case op_kind::broadcast_to:
    case op_kind::reduce_sum: case op_kind::reduce_prod: case op_kind::reduce_max: case op_kind::reduce_min:
    case op_kind::argmax: case op_kind::argmin: case op_kind::cumsum: case op_kind::cumprod: case op_kind::mma:
      return effect::pure;
    case op_kind::load: case op_kind::gather:
      return effect::reads_memory;
    case op_kind::store: case op_kind::scatter: case op_kind::atomic_add: case op_kind::atomic_max:
    case op_kind::atomic_min: case op_kind::atomic_cas: case op_kind::print: case op_kind::assert_:
      return effect::writes;
    case op_kind::reduce: case op_kind::scan: case op_kind::for_: case op_kind::if_: case op_kind::while_:
      return effect::regions;
    case op_kind::yield:
      return effect::terminator;
  }
  return effect::writes;  // unreachable for valid kinds; the safe answer otherwise
}

bool has_side_effects(const ir::op& o) {
  switch (effect_of(o.kind)) {
    case effect::writes: return true;
    case effect::regions:
      for (const ir::region& r : o.regions)
        for (const ir::op& inner : r.ops)
          if (has_side_effects(inner)) return true;
      return false;
    case effect::pure: case effect::reads_memory: case effect::terminator: return false;
  }
  return true;
}

bool may_trap(const ir::function& f, const ir::op& o) {
  bool divides = o.kind == ir::op_kind::div || o.kind == ir::op_kind::floordiv || o.kind == ir::op_kind::mod;
  return divides && !o.operands.empty() && !ir::is_float(f.type_of(o.operands[0]).elem);
}

}  // namespace tegula::passes
