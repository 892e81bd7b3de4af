// The array VM's packaged images (vm_source.hpp compiled at build time by tools/tegula-prebuild): which are built,
// their file names (carrying a hash of their sources, so an image of another source is never loaded) and which one
// serves a GPU of a given compute capability.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace tegula::codegen::vm {

struct image_spec {
  int arch = 90;     // compute capability the image is built for (major * 10 + minor)
  bool ptx = false;  // PTX (the driver compiles it for newer GPUs) rather than a cubin
  std::string file;  // tegula_vm-<source hash>-sm90.cubin, ...-compute80.ptx
};

// sm_80 and sm_90 cubins, and PTX for compute_80 (any newer GPU).
std::vector<image_spec> packaged_images();
// The image for a GPU of compute capability `arch`: an 8.x GPU runs the sm_80 cubin, 9.0 the sm_90 one, any other
// of 8.0 or newer the PTX; older GPUs: none.
std::optional<image_spec> image_for(int arch);
// Whether `file` names an image of this build's sources.
bool is_current_image_name(const std::string& file);

}  // namespace tegula::codegen::vm
