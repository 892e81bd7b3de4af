// The names of ops.def's trait values (op_traits.hpp).
#include "tegula/ir/op_traits.hpp"

#pragma GCC diagnostic error "-Wswitch"

namespace tegula::ir {

const char* name(op_category c) {
  switch (c) {
    case op_category::source: return "source";
    case op_category::memory: return "memory";
    case op_category::unary: return "unary";
    case op_category::binary: return "binary";
    case op_category::comparison: return "comparison";
    case op_category::select: return "select";
    case op_category::shape: return "shape";
    case op_category::mma: return "mma";
    case op_category::reduction: return "reduction";
    case op_category::scan: return "scan";
    case op_category::debug: return "debug";
    case op_category::control: return "control";
  }
  return "?";
}

const char* name(operand_dtypes d) {
  switch (d) {
    case operand_dtypes::any: return "any";
    case operand_dtypes::numeric: return "numeric";
    case operand_dtypes::floating: return "floating";
    case operand_dtypes::int_bool: return "int_bool";
    case operand_dtypes::integer: return "integer";
  }
  return "?";
}

const char* name(result_dtype r) {
  switch (r) {
    case result_dtype::same: return "same";
    case result_dtype::boolean: return "boolean";
    case result_dtype::accumulate: return "accumulate";
    case result_dtype::index: return "index";
    case result_dtype::from_attr: return "from_attr";
    case result_dtype::special: return "special";
  }
  return "?";
}

const char* name(op_effect e) {
  switch (e) {
    case op_effect::pure: return "pure";
    case op_effect::reads_memory: return "reads_memory";
    case op_effect::writes: return "writes";
    case op_effect::regions: return "regions";
    case op_effect::terminator: return "terminator";
  }
  return "?";
}

}  // namespace tegula::ir
