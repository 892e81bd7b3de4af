// The front half of the compile driver: IR -> passes -> CUDA C++ and the NVRTC request, for an arch, with no GPU.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "tegula/codegen/cuda.hpp"
#include "tegula/ir/ir.hpp"
#include "tegula/jit/compiler.hpp"

namespace tegula::rt {
class device;
}  // namespace tegula::rt

namespace tegula::kernel {

// NVRTC behind the jit caches (jit::compile); the Python bindings pass one that Ctrl-C interrupts.
using nvrtc_function = std::function<std::shared_ptr<const jit::compiled>(const jit::compile_request&)>;

// Where and how a kernel is compiled. A null device is the CPU interpreter (no codegen, no NVRTC) for compile();
// translate() reads everything but the device (its arch is given).
struct target {
  rt::device* device = nullptr;
  std::vector<codegen::array_spec> arrays;  // per array parameter: its declared layout (arguments.hpp)
  int stages = 0;                           // tensor-core pipeline stages (0: as many as fit)
  int cluster = 1;                          // tensor-core blocks per cluster (1 or 2)
  bool long_bodies_fewer_groups = false;    // the array engine's codegen option (codegen/cuda.hpp)
  std::string program_name;                 // NVRTC's program name; "" -> "<kernel name>.cu"
  jit::component made_by = jit::component::other;  // who the disk cache lists as the entry's maker (tile, array)
  bool keep_stages = false;                 // keep the printed IR after every pass (translation::stages)
  bool dump_locations = false;              // ... with source locations
  nvrtc_function nvrtc;                     // null: jit::compile
};

// What a kernel is before any GPU is involved: its post-pass IR and, for an arch, the CUDA C++ and the request
// NVRTC is given for the cubin that launches load. compile() is translate() + NVRTC + module load, so a report
// made from a translation shows exactly what runs.
struct translation {
  ir::function fn;                                          // post-pass IR: what the interpreter and codegen read
  std::vector<std::pair<std::string, std::string>> stages;  // (stage, printed IR) when target::keep_stages
  int arch = 0;                                             // 0: the interpreter (no source, no request)
  codegen::kernel_source source;  // CUDA text, block threads, dynamic shared bytes, tensor maps, persistent, cluster
  jit::compile_request request;   // the cubin's NVRTC request (arch, arch_specific, program name, options)
};

// Every array parameter of `fn` declared contiguous and 16-byte aligned: the layouts a report of IR alone assumes
// (target::arrays).
std::vector<codegen::array_spec> aligned_layouts(const ir::function& fn);

// Runs the pass pipeline on `fn` (pre-pass IR) and, for arch > 0 (major*10+minor), generate() on its result.
// Throws what the passes and codegen throw.
translation translate(const ir::function& fn, const target& t, int arch);

// Codegen for `arch` (> 0) of IR that already went through the passes (a compiled kernel's `fn`), with `t`'s
// layouts and options, and the NVRTC request for it: what translate() does after the passes.
translation generate(ir::function post_pass, const target& t, int arch);

}  // namespace tegula::kernel
