// A translated kernel's image through the jit caches (see image.hpp).
#include "tegula/kernel/image.hpp"

#include <filesystem>

#include "tegula/jit/prebuilt.hpp"
#include "tegula/jit/result_codec.hpp"
#include "tegula/runtime/profiler.hpp"
#include "tegula/support/error.hpp"

namespace tegula::kernel {

jit::compile_request image_request(const translation& tr, image_kind kind) {
  if (tr.arch <= 0)
    fail(error_kind::invalid_argument, "kernel '", tr.fn.name, "' was translated for the CPU interpreter: it has "
         "no GPU image (translate it for an arch)");
  jit::compile_request r = tr.request;
  switch (kind) {
    case image_kind::cubin: break;
    case image_kind::ptx: r.kind = jit::target::ptx; break;
    case image_kind::cubin_with_resources: r.options.push_back("--ptxas-options=-v"); break;
  }
  return r;
}

std::shared_ptr<const jit::compiled> compile_image(const translation& tr, image_kind kind, const nvrtc_function& nvrtc) {
  const jit::compile_request r = image_request(tr, kind);
  std::shared_ptr<const jit::compiled> done = nvrtc ? nvrtc(r) : jit::compile(r);
  // Profiles name a compile by its kernel, as they name its launches.
  rt::prof::record_compile(tr.source.name, done->seconds, jit::outcome_name(done->outcome));
  return done;
}

std::string prebuild_image(const translation& tr, const std::string& dir) {
  const jit::compile_request r = image_request(tr, image_kind::cubin);
  std::string key = jit::cache_key(r);
  if (std::filesystem::exists(dir + "/" + key + ".bin")) return key;
  jit::write_prebuilt(dir, key, jit::encode_result(jit::nvrtc_compile(r)), jit::entry_meta_of(r));
  return key;
}

}  // namespace tegula::kernel
