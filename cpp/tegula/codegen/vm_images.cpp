// The array VM's packaged image names (see vm_images.hpp).
#include "tegula/codegen/vm_images.hpp"

#include <cstdio>

#include "tegula/codegen/vm_opcodes.hpp"

namespace tegula::codegen::vm {
namespace {

std::string prefix() {
  char hash[17];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(table_hash()));
  return std::string("tegula_vm-") + hash + "-";
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
