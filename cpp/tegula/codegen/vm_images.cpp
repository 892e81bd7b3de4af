// The array VM's packaged image names (see vm_images.hpp).
#include "tegula/codegen/vm_images.hpp"

#include <cstdint>
#include <cstdio>

#include "tegula/codegen/vm_source.hpp"

namespace tegula::codegen::vm {
namespace {

// The images' names carry a hash of the sources they are built from (which hold the opcode table's hash): an image
// of another source is never loaded.
std::string prefix() {
  static const std::string p = [] {
    std::uint64_t h = 1469598103934665603ull;  // FNV-1a
    for (const auto& s : {source(80), source(90)})
      for (unsigned char c : s) h = (h ^ c) * 1099511628211ull;
    char hash[17];
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(h));
    return std::string("tegula_vm-") + hash + "-";
  }();
  return p;
}

}  // namespace

std::vector<image_spec> packaged_images() {
  return {{80, false, prefix() + "sm80.cubin"}, {90, false, prefix() + "sm90.cubin"},
          {80, true, prefix() + "compute80.ptx"}};
}

std::optional<image_spec> image_for(int arch) {
  const auto all = packaged_images();
  if (arch >= 80 && arch < 90) return all[0];
  if (arch == 90) return all[1];
  if (arch > 90) return all[2];
  return std::nullopt;
}

bool is_current_image_name(const std::string& file) {
  for (const auto& s : packaged_images())
    if (s.file == file) return true;
  return false;
}

}  // namespace tegula::codegen::vm
