// Tensor maps of a tensor-core kernel's operands: the copy engine's descriptors, encoded at launch.
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "tegula/codegen/cuda.hpp"
#include "tegula/kernel/arguments.hpp"
#include "tegula/runtime/tensor_map.hpp"

namespace tegula::rt {
class stream;
}

namespace tegula::kernel {

// The CUtensorMapDataType of `t` (float8 as bytes: the copy engine does not convert); invalid_argument otherwise.
int tensor_map_data_type(ir::dtype t);

// The map `spec` describes over the 2-D array `a`. Rows the copy engine cannot address (an address or row pitch
// not a multiple of 16 bytes) are first copied on `s` into a buffer of aligned rows, appended to `keep` (it must
// live until the launch is queued), and `copied` is set. invalid_argument for an array that is not 2-D or whose
// columns are not unit-stride.
rt::tensor_map encode_operand(const std::string& kernel_name, const codegen::tensor_map_spec& spec,
                              const array_arg& a, const rt::stream& s, std::vector<std::shared_ptr<void>>& keep,
                              bool& copied);

}  // namespace tegula::kernel
