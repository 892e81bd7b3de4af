// compile_result <-> bytes: the payload the disk cache stores for one compiled program.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "tegula/jit/nvrtc.hpp"

namespace tegula::jit {

std::string encode_result(const compile_result& result);
// nullopt for anything encode_result did not produce (wrong version, truncated, trailing bytes).
std::optional<compile_result> decode_result(std::string_view payload);

}  // namespace tegula::jit
