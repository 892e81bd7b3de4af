// A translated kernel's compiled image for its arch through the jit caches: no module load, no GPU needed.
#pragma once
#include <memory>

#include "tegula/jit/compiler.hpp"
#include "tegula/kernel/translate.hpp"

namespace tegula::kernel {

// cubin: what launches load (compile() asks for it). ptx: the PTX of the same request. cubin_with_resources: the
// cubin with ptxas's resource report (registers, spills, stack, shared and constant memory) in the log; a separate
// cache entry, as the option differs.
enum class image_kind { cubin, ptx, cubin_with_resources };

// The NVRTC request for `kind` of `tr` (its own request, the target or ptxas's -v changed).
jit::compile_request image_request(const translation& tr, image_kind kind);

// Compiles image_request(tr, kind) through `nvrtc` (null: jit::compile, with its memory and disk caches) and
// records the compile in the profile under the kernel's name. invalid_argument for an interpreter translation
// (arch 0); NVRTC's errors otherwise.
std::shared_ptr<const jit::compiled> compile_image(const translation& tr, image_kind kind,
                                                   const nvrtc_function& nvrtc = {});

// Compiles `tr`'s cubin with NVRTC (no cache) and writes it into the package folder `dir` (jit/prebuilt.hpp) under
// the key a launch looks up (its maker: the request's made_by); returns the key. An entry already there is kept (its
// key names its content). What the build's prebuild step calls; NVRTC's errors are thrown.
std::string prebuild_image(const translation& tr, const std::string& dir);

}  // namespace tegula::kernel
