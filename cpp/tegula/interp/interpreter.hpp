// The CPU interpreter: runs post-pass tile IR block by block, with bounds checks (reference semantics).
#pragma once
#include <array>
#include <functional>
#include <cstdint>
#include <variant>
#include <vector>

#include "tegula/ir/ir.hpp"

namespace tegula::interp {

// An array argument in host memory: element strides (not bytes), any sign, as NumPy's view.
struct array_arg {
  void* data = nullptr;
  ir::dtype elem = ir::dtype::f32;
  std::vector<std::int64_t> shape;
  std::vector<std::int64_t> strides;  // in elements
};

// A scalar argument: the value converted to the parameter's dtype by the interpreter.
using scalar_arg = std::variant<std::int64_t, std::uint64_t, double, bool>;
using argument = std::variant<array_arg, scalar_arg>;

// Runs `f` once per block of `grid` (x fastest), in order, on this thread. Arguments match
// f.params one to one (arrays for array params, scalars for scalar-tile params) or it throws
// invalid_argument/type_error naming the parameter. A failing `assert` op, an unmasked
// out-of-bounds scatter/atomic offset, or a division by zero in integer arithmetic throws
// tegula::error(invalid_argument) whose message starts with the op's source location and names
// the block index. load/store/gather outside the array are not errors: loads and gathers pad
// (attr padding), stores skip. Blocks run one after another, so atomics and racing scatters are
// applied in block order, and within a block in row-major element order.
//
// `interrupted`, when given, is asked between blocks (at most every few milliseconds); when it returns true the run
// stops and throws tegula::error(interrupted). The caller decides what interrupts (Ctrl-C in Python).
void run(const ir::function& f, const std::vector<argument>& args, std::array<std::int64_t, 3> grid,
         const std::function<bool()>& interrupted = {});

}  // namespace tegula::interp
