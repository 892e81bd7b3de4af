// NumPy's name of the ufunc an engine op implements, for error messages that quote NumPy's own (the IR's op
// texts are shorter: "div", "shl", "atan2", ...). The one table: the engine's checks and the bindings' in-place
// operators both name ufuncs through it.
#pragma once
#include "tegula/ir/ir.hpp"

namespace tegula::array {

const char* ufunc_name(ir::op_kind op);

}  // namespace tegula::array
