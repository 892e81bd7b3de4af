// tegula-vm-image DIR: builds the array VM's images (codegen/vm_source.hpp) with NVRTC -- cubins for sm_80 and
// sm_90, PTX for newer GPUs -- into DIR under the names array/vm.cpp looks for (they carry their sources' hash),
// removes images of other sources there, and writes DIR/tegula_vm.stamp. Without NVRTC it writes only the stamp
// (tegula then compiles the VM on first use, through the disk cache) and says so.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>

#include "tegula/codegen/vm_images.hpp"
#include "tegula/codegen/vm_source.hpp"
#include "tegula/jit/nvrtc.hpp"
#include "tegula/support/error.hpp"

namespace fs = std::filesystem;

int main(int argc, char** argv) {
  using namespace tegula;
  if (argc != 2) {
    std::cerr << "usage: tegula-vm-image DIR\n";
    return 2;
  }
  const fs::path dir = argv[1];
  std::error_code ec;
  fs::create_directories(dir, ec);
  auto stamp = [&](const std::string& text) {
    std::ofstream(dir / "tegula_vm.stamp") << text << "\n";
  };
  try {
    (void)jit::nvrtc_version();
  } catch (const error& e) {
    std::cerr << "tegula-vm-image: no NVRTC on this machine (" << e.what()
              << "): the array VM will be compiled on first use\n";
    stamp("no NVRTC at build time");
    return 0;
  }
  for (const auto& entry : fs::directory_iterator(dir, ec)) {  // images of another opcode table
    const std::string name = entry.path().filename().string();
    if (name.rfind("tegula_vm-", 0) == 0 && !codegen::vm::is_current_image_name(name)) fs::remove(entry.path(), ec);
  }
  std::string made;
  for (const codegen::vm::image_spec& spec : codegen::vm::packaged_images()) {
    const auto t0 = std::chrono::steady_clock::now();
    jit::compile_request r;
    r.source = codegen::vm::source(spec.arch);
    r.name = "tegula_vm.cu";
    r.arch = spec.arch;
    r.kind = spec.ptx ? jit::target::ptx : jit::target::cubin;
    jit::compile_result out;
    try {
      out = jit::nvrtc_compile(r);
    } catch (const error& e) {
      std::cerr << "tegula-vm-image: " << e.what() << "\n";
      return 1;
    }
    const fs::path file = dir / spec.file;
    const fs::path tmp = dir / (spec.file + ".tmp");
    std::ofstream(tmp, std::ios::binary).write(out.code.data(), std::streamsize(out.code.size()));
    fs::rename(tmp, file);
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("tegula-vm-image: %s (%zu bytes, %.1f s)\n", spec.file.c_str(), out.code.size(), s);
    made += spec.file + "\n";
  }
  stamp(made);
  return 0;
}
