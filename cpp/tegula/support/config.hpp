// Configuration: the one place environment variables are read (DESIGN.md rule 6).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace tegula {

// The on-disk cache's default limit: generous (thousands of kernels are a few hundred MiB), yet bounded, so a
// long-lived container or CI cache directory does not grow without end.
inline constexpr std::uint64_t default_cache_max_size = std::uint64_t(4) << 30;  // 4 GiB

struct config {
  std::string cache_dir;           // TEGULA_CACHE_DIR, else $XDG_CACHE_HOME/tegula, else ~/.cache/tegula
  bool disk_cache = true;          // TEGULA_DISABLE_CACHE=1 turns the on-disk cache off
  // TEGULA_CACHE_MAX_SIZE ("500M", "2G"; "0", "none" or "unlimited": no limit): after a write takes the on-disk
  // cache past this many bytes, its least recently used entries are removed until it holds 90% of it.
  std::uint64_t cache_max_size = default_cache_max_size;
  std::string cache_max_size_invalid;  // the text of a TEGULA_CACHE_MAX_SIZE that is no size (the default is used)
  bool interpret = false;          // TEGULA_INTERPRET=1 runs tile kernels on the CPU interpreter
  int log_level = 0;               // TEGULA_LOG=0..3 (0 quiet, 1 warnings, 2 info, 3 debug)
  bool background_compile = true;  // TEGULA_BACKGROUND_COMPILE=0: a first run waits for its fused kernel's compile
  std::string array_vm;            // TEGULA_ARRAY_VM=always|never|first (array/vm.hpp); "" = first
  bool tile_by_computed = false;   // TEGULA_TILE_BY_COMPUTED=1: a map's tile sized by its computed nodes alone
                                   // (the rule before session 26; array/plan.cpp; an A/B diagnostic)
  std::vector<std::string> cuda_homes;  // CUDA_HOME, CUDA_PATH, then /usr/local/cuda
};

// Read once, on first use. The returned reference is stable for the process.
const config& get_config();

// Directories (e.g. from NVIDIA's pip wheels, found by the Python layer) searched for CUDA
// libraries before the system paths. Thread-compatible: call before the first library load.
void add_library_dir(const std::string& dir);
std::vector<std::string> library_dirs();

// The library folders of the CUDA toolkits in get_config().cuda_homes (lib64, then lib, for each), where the
// dlopen'd CUDA libraries are looked for after library_dirs().
std::vector<std::string> cuda_library_dirs();

}  // namespace tegula
