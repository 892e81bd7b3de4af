// The folder tegula's files are installed in: the one holding the loaded extension (or executable) this code is
// linked into. The packaged VM images and prebuilt library kernels are looked for there.
#pragma once
#include <string>

namespace tegula {

// The folder of the binary holding tegula's core ("." when it cannot be told); tests may set another.
std::string package_dir();
void set_package_dir(const std::string& dir);

}  // namespace tegula
