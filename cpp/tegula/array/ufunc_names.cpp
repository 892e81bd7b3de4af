// NumPy's ufunc names of engine ops (ufunc_names.hpp).
#include "tegula/array/ufunc_names.hpp"

namespace tegula::array {

const char* ufunc_name(ir::op_kind op) {
  using ir::op_kind;
  switch (op) {
    case op_kind::sub: return "subtract";
    case op_kind::mul: return "multiply";
    case op_kind::div: return "divide";
    case op_kind::floordiv: return "floor_divide";
    case op_kind::mod: return "remainder";
    case op_kind::pow: return "power";
    case op_kind::atan2: return "arctan2";
    case op_kind::bit_and: return "bitwise_and";
    case op_kind::bit_or: return "bitwise_or";
    case op_kind::bit_xor: return "bitwise_xor";
    case op_kind::shl: return "left_shift";
    case op_kind::shr: return "right_shift";
    case op_kind::logical_not: return "invert";  // the engine's ~ of bools and its error text for other dtypes
    default: return ir::info(op).text;            // add, exp, sqrt, ...: NumPy's name already
  }
}

}  // namespace tegula::array
