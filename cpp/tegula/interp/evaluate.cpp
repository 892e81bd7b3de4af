// One elementwise op on tiles, exactly as the executor runs it (also used for constant folding).
#include "tegula/interp/evaluate.hpp"

#include "tegula/interp/convert.hpp"
#include "tegula/interp/elementwise.hpp"

namespace tegula::interp {
namespace {

std::optional<unary_fn> unary_of(ir::op_kind k) {
  using K = ir::op_kind;
  switch (k) {
    case K::neg: return unary_fn::neg;
    case K::logical_not: return unary_fn::logical_not;
    case K::abs: return unary_fn::abs;
    case K::exp: return unary_fn::exp;
    case K::exp2: return unary_fn::exp2;
    case K::log: return unary_fn::log;
    case K::log2: return unary_fn::log2;
    case K::sqrt: return unary_fn::sqrt;
    case K::rsqrt: return unary_fn::rsqrt;
    case K::sin: return unary_fn::sin;
    case K::cos: return unary_fn::cos;
    case K::tanh: return unary_fn::tanh;
    case K::floor: return unary_fn::floor;
    case K::ceil: return unary_fn::ceil;
    case K::tan: return unary_fn::tan;
    case K::asin: return unary_fn::asin;
    case K::acos: return unary_fn::acos;
    case K::atan: return unary_fn::atan;
    case K::sinh: return unary_fn::sinh;
    case K::cosh: return unary_fn::cosh;
    case K::asinh: return unary_fn::asinh;
    case K::acosh: return unary_fn::acosh;
    case K::atanh: return unary_fn::atanh;
    case K::log10: return unary_fn::log10;
    case K::log1p: return unary_fn::log1p;
    case K::expm1: return unary_fn::expm1;
    case K::trunc: return unary_fn::trunc;
    case K::rint: return unary_fn::rint;
    default: return std::nullopt;  // not unary elementwise: the executor's full switch covers every op
  }
}

std::optional<binary_fn> binary_of(ir::op_kind k) {
  using K = ir::op_kind;
  switch (k) {
    case K::add: return binary_fn::add;
    case K::sub: return binary_fn::sub;
    case K::mul: return binary_fn::mul;
    case K::div: return binary_fn::div;
    case K::floordiv: return binary_fn::floordiv;
    case K::mod: return binary_fn::mod;
    case K::pow: return binary_fn::pow;
    case K::atan2: return binary_fn::atan2;
    case K::hypot: return binary_fn::hypot;
    case K::copysign: return binary_fn::copysign;
    case K::minimum: return binary_fn::minimum;
    case K::maximum: return binary_fn::maximum;
    case K::bit_and: return binary_fn::bit_and;
    case K::bit_or: return binary_fn::bit_or;
    case K::bit_xor: return binary_fn::bit_xor;
    case K::shl: return binary_fn::shl;
    case K::shr: return binary_fn::shr;
    default: return std::nullopt;
  }
}

std::optional<compare_fn> compare_of(ir::op_kind k) {
  using K = ir::op_kind;
  switch (k) {
    case K::eq: return compare_fn::eq;
    case K::ne: return compare_fn::ne;
    case K::lt: return compare_fn::lt;
    case K::le: return compare_fn::le;
    case K::gt: return compare_fn::gt;
    case K::ge: return compare_fn::ge;
    default: return std::nullopt;
  }
}

}  // namespace

std::optional<tile_value> evaluate_elementwise(const ir::op& o, const std::vector<const tile_value*>& x) {
  using K = ir::op_kind;
  if (auto fn = unary_of(o.kind); fn && x.size() == 1) return apply_unary(*fn, *x[0]);
  if (auto fn = binary_of(o.kind); fn && x.size() == 2) return apply_binary(*fn, *x[0], *x[1]);
  if (auto fn = compare_of(o.kind); fn && x.size() == 2) return apply_compare(*fn, *x[0], *x[1]);
  if (o.kind == K::where && x.size() == 3) return apply_where(*x[0], *x[1], *x[2]);
  if (o.kind == K::astype && x.size() == 1) return convert(*x[0], o.dtype_attr("dtype"));
  if (o.kind == K::bitcast && x.size() == 1) return bitcast(*x[0], o.dtype_attr("dtype"));
  return std::nullopt;
}

}  // namespace tegula::interp
