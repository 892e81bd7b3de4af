// Running a planned array kernel on the array VM (codegen/vm_*.hpp): one precompiled kernel pair that evaluates a
// plan's per-element body (emit.hpp: emit_body), so an expression runs at once on its first use while its fused
// kernel compiles in the background (issue #26: no NumPy program waits on the compiler).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "tegula/array/plan.hpp"
#include "tegula/codegen/vm_program.hpp"

namespace tegula::rt {
class device;
}

namespace tegula::array::vm {

// When the VM runs an expression whose fused kernel is not compiled yet:
//   first  (the default) until the fused kernel is ready, which compiles in the background meanwhile;
//   never  never: the first run waits for the compile (TEGULA_BACKGROUND_COMPILE=0; benchmarks, reproducibility);
//   always every time, fused kernel or not (TEGULA_ARRAY_VM=always; tests of the VM itself).
enum class mode { first, never, always };
mode current_mode();
void set_mode(mode m);
const char* mode_name(mode m);

// The VM's program for plan p (emit_body, the pass pipeline, compile_program), or nullopt with `why`.
std::optional<codegen::vm::program> build_program(const plan& p, std::string* why = nullptr);
// build_program, once per kernel key: null (with `why`) when the plan has no VM form.
const codegen::vm::program* program_for(const std::string& key, const plan& p, std::string* why = nullptr);

// The part of plan p's graph a first run materialises on its own when the whole is too large for one VM program
// (codegen::vm::size_refusal): the root's pending input with the largest graph; null when no input is pending.
// The first run then runs that part (on the VM, cut again if it too is too large) and plans the rest again.
node_ptr part_to_cut(const plan& p);

// Whether the VM's image is loaded for gpu (looked for once per device: the image built into the package for its
// architecture, else compiled from source through the disk cache on a background thread); `why` says what is
// missing while it is not.
bool available(rt::device& gpu, std::string* why = nullptr);

// Runs plan p (its leaf, output and sibling addresses set) with program prog on gpu's array stream.
void run(const plan& p, const codegen::vm::program& prog, rt::device& gpu);

// A strided copy as the VM runs it (copy.cpp's first run while its kernel compiles): dst = src converted to dst_t
// over `shape`, strides in elements from the two addresses.
struct copy_job {
  std::uintptr_t src = 0, dst = 0;
  std::vector<std::int64_t> shape, src_strides, dst_strides;
  ir::dtype src_t = ir::dtype::f32, dst_t = ir::dtype::f32;
};
// The most launches a copy over more than three axes takes on the VM (one per index of the axes before its last
// three).
constexpr std::int64_t max_copy_launches = 64;
// The launches the VM takes for `job` (one per index of the axes before its last three), or 0 when it has no VM form:
// a complex dtype (copy.cpp copies its parts), a conversion with no opcode, more than max_copy_launches launches.
std::int64_t copy_launches(const copy_job& job);
// Runs `job` on gpu's array stream (the image loaded: available()); false, having done nothing, when it has no VM
// form (copy_launches 0).
bool run_copy(const copy_job& job, rt::device& gpu);

// The reductions inside plan p's expression (softmax's max and sum), which a first run materialises first, each on
// the VM, before planning p again; none for a scan plan (its inner reductions run in its own kernel).
std::vector<node_ptr> inner_reductions(const plan& p);

// What ran last on this thread (for tegula.explain): true when the last array evaluation ran on the VM, with the
// reason the fused kernel did not (compiling in the background, or mode always).
struct last_run {
  bool on_vm = false;
  std::string note;
};
last_run& last();

// Where the packaged VM images are looked for (support/package_dir: the extension's folder), and the file name of
// the image for compute capability `arch` ("" when none is built for it).
std::string image_dir();
std::string image_name(int arch);

}  // namespace tegula::array::vm
