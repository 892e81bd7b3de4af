// Specialization keys: the bytes a kernel's IR and generated code depend on (every front end writes them here).
#pragma once
#include <string>
#include <string_view>

#include "tegula/kernel/arguments.hpp"

namespace tegula::kernel {

// A key is the target, then one entry per parameter, in order; two launches with equal keys take one compiled
// kernel, and every fact the IR or the code depends on is in it:
//   target: 'T' + the arch (0: the CPU interpreter);
//   array: 'A' + dtype + rank + the declared layout (bit 0 contiguous last axis, bit 1 16-byte aligned);
//   scalar: 'S' + dtype (its value is a launch-time parameter);
//   constant: 'C' + length + the front end's bytes for its value (the value is folded into the IR).
void key_target(std::string& key, int arch);
void key_array(std::string& key, const array_arg& a);
void key_scalar(std::string& key, ir::dtype t);
void key_constant(std::string& key, std::string_view value);

// The key of `args` (arrays and scalars only) for `arch`: what a front end without constants writes.
std::string key_of(const std::vector<argument>& args, int arch);

}  // namespace tegula::kernel
