// The one ABI packer: a compiled kernel's launch on a stream (or on the CPU interpreter).
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <vector>

#include "tegula/kernel/arguments.hpp"
#include "tegula/kernel/compile.hpp"
#include "tegula/runtime/launch.hpp"
#include "tegula/runtime/module.hpp"

namespace tegula::rt {
class stream;
}

namespace tegula::kernel {

// A launch grid: 1 to 3 extents, the rest 1.
using grid3 = std::array<std::int64_t, 3>;

// Checks the grid and the arguments against the kernel before anything is packed: invalid_argument for an extent
// below 1 or past the device's limits (x < 2^31, y and z < 2^16), type_error for an argument count or kinds that
// do not match the parameters, internal for an array whose layout is less than the code was specialised for.
void check(const compiled& k, const std::vector<argument>& args, const grid3& grid);

// The launch configuration: the kernel's block, shared memory and cluster, and its grid (for a persistent kernel,
// min(blocks, max_blocks) rounded to whole clusters, the user's grid then passed as three ints).
rt::launch_config config(const compiled& k, const grid3& grid);

// Packs `args` at the offsets the compiled image gives (arrays as pointer, extents, strides; scalars by dtype),
// then the encoded tensor maps and, for a persistent kernel, the grid. An array whose rows the copy engine cannot
// address is first copied into 16-byte aligned rows on `s` (kept in `keep` until the launch is queued; its
// index set in the returned mask).
// `layout` is the image's parameter offsets and sizes (k.gpu->params()); every value is checked against its size.
std::uint64_t pack(const compiled& k, const std::vector<rt::param_info>& layout, const std::vector<argument>& args,
                   const grid3& grid, const rt::stream* s, rt::param_buffer& out,
                   std::vector<std::shared_ptr<void>>& keep);

// What a launch did beyond running the kernel.
struct launch_report {
  std::uint64_t repacked = 0;  // bit i: tensor-map array i was copied into aligned rows first
};

// Runs `k` over `grid`: on `s` for a GPU kernel (s must be on the kernel's device), on the interpreter for a CPU
// one (s ignored; may be null; `interrupted`, when given, is polled by the interpreter and stops it with
// error_kind::interrupted). Checks first (check above); notes the bytes touched with an active profiler.
launch_report launch(const compiled& k, const std::vector<argument>& args, const grid3& grid, const rt::stream* s,
                     const std::function<bool()>& interrupted = {});

}  // namespace tegula::kernel
