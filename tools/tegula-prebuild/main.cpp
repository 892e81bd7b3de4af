// tegula-prebuild DIR: what tegula compiles at build time, so a first call need not wait for NVRTC (issue #26):
//  - the array VM's images (codegen/vm_source.hpp): cubins for sm_80 and sm_90 and PTX for newer GPUs, under the
//    names array/vm.cpp looks for (they carry their sources' hash; images of other sources there are removed);
//  - the library kernels of tegula.numpy's default paths (libs/prebuilt_library.hpp) for sm_90, as entries of
//    DIR/tegula_prebuilt that jit::lookup reads (prebuilt.hpp), compiled on every hardware thread.
// Writes DIR/tegula_vm.stamp. Without NVRTC it writes only the stamp (tegula then compiles on first use) and says so.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "tegula/codegen/vm_images.hpp"
#include "tegula/codegen/vm_source.hpp"
#include "tegula/jit/compiler.hpp"
#include "tegula/jit/nvrtc.hpp"
#include "tegula/jit/prebuilt.hpp"
#include "tegula/jit/result_codec.hpp"
#include "tegula/libs/prebuilt_library.hpp"
#include "tegula/support/error.hpp"

namespace fs = std::filesystem;
using namespace tegula;

namespace {

double since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

void vm_images(const fs::path& dir, std::string& made) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {  // images of another VM source
    const std::string name = entry.path().filename().string();
    if (name.rfind("tegula_vm-", 0) == 0 && !codegen::vm::is_current_image_name(name)) fs::remove(entry.path(), ec);
  }
  for (const codegen::vm::image_spec& spec : codegen::vm::packaged_images()) {
    if (fs::exists(dir / spec.file)) {  // its name carries its source's hash: the same source built it
      made += spec.file + "\n";
      continue;
    }
    const auto t0 = std::chrono::steady_clock::now();
    jit::compile_request r;
    r.source = codegen::vm::source(spec.arch);
    r.name = "tegula_vm.cu";
    r.arch = spec.arch;
    r.kind = spec.ptx ? jit::target::ptx : jit::target::cubin;
    const jit::compile_result out = jit::nvrtc_compile(r);
    const fs::path file = dir / spec.file, tmp = dir / (spec.file + ".tmp");
    std::ofstream(tmp, std::ios::binary).write(out.code.data(), std::streamsize(out.code.size()));
    fs::rename(tmp, file);
    std::printf("tegula-prebuild: %s (%zu bytes, %.1f s)\n", spec.file.c_str(), out.code.size(), since(t0));
    made += spec.file + "\n";
  }
}

void library(const fs::path& dir, int arch, std::string& made) {
  const fs::path lib = dir / "tegula_prebuilt";
  std::error_code ec;
  fs::create_directories(lib, ec);
  const std::vector<jit::compile_request> requests = libs::prebuilt_library_requests(arch);
  std::vector<std::string> keys(requests.size());
  for (std::size_t i = 0; i < requests.size(); ++i) keys[i] = jit::cache_key(requests[i]);
  for (const auto& entry : fs::directory_iterator(lib, ec)) {  // entries no request of this build asks for
    const std::string name = entry.path().filename().string();
    if (std::find(keys.begin(), keys.end(), name.substr(0, name.size() > 4 ? name.size() - 4 : 0)) == keys.end())
      fs::remove(entry.path(), ec);
  }
  const auto t0 = std::chrono::steady_clock::now();
  std::atomic<std::size_t> next{0};
  std::atomic<int> built{0}, kept{0};
  std::mutex m;
  std::string failure;
  auto work = [&] {
    for (std::size_t i; (i = next++) < requests.size();) {
      if (fs::exists(lib / (keys[i] + ".bin"))) {
        ++kept;
        continue;
      }
      try {
        const jit::compile_result out = jit::nvrtc_compile(requests[i]);
        jit::write_prebuilt(lib.string(), keys[i], jit::encode_result(out), jit::entry_meta_of(requests[i]));
        ++built;
      } catch (const std::exception& e) {
        std::lock_guard<std::mutex> lock(m);
        failure = e.what();
      }
    }
  };
  const int n = std::max(1, static_cast<int>(std::thread::hardware_concurrency()));
  std::vector<std::thread> threads;
  for (int i = 0; i < n; ++i) threads.emplace_back(work);
  for (auto& t : threads) t.join();
  if (!failure.empty()) throw std::runtime_error("a prebuilt library kernel did not compile: " + failure);
  std::printf("tegula-prebuild: %zu library kernels for sm_%d in %s (%d compiled, %d kept, %.1f s on %d threads)\n",
              requests.size(), arch, lib.string().c_str(), built.load(), kept.load(), since(t0), n);
  made += std::to_string(requests.size()) + " library kernels for sm_" + std::to_string(arch) + "\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: tegula-prebuild DIR\n";
    return 2;
  }
  const fs::path dir = argv[1];
  std::error_code ec;
  fs::create_directories(dir, ec);
  auto stamp = [&](const std::string& text) { std::ofstream(dir / "tegula_vm.stamp") << text << "\n"; };
  try {
    (void)jit::nvrtc_version();
  } catch (const error& e) {
    std::cerr << "tegula-prebuild: no NVRTC on this machine (" << e.what()
              << "): the array VM and library kernels will be compiled on first use\n";
    stamp("no NVRTC at build time");
    return 0;
  }
  std::string made;
  try {
    vm_images(dir, made);
    library(dir, 90, made);
  } catch (const std::exception& e) {
    std::cerr << "tegula-prebuild: " << e.what() << "\n";
    return 1;
  }
  stamp(made);
  return 0;
}
