// The compiled entries a package carries, written at build time: read-only, one file per cache key in the entry
// format (cache_entry.hpp), in two folders of the package, one per writer (each removes the entries its build no
// longer asks for, so neither may see the other's):
//  - <package>/tegula_prebuilt: the library kernels (tools/tegula-prebuild, libs/prebuilt_library.hpp);
//  - <package>/tegula_prebuilt_tile: tegula.numpy's tile kernels (python -m tegula.numpy._prebuild: the
//    specializations a workload of its data-dependent operations launches).
// jit::lookup reads them after the user's disk cache, before it would run NVRTC. Keys hash the NVRTC version, so
// entries built by another NVRTC are simply never asked for.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "tegula/jit/cache_entry.hpp"

namespace tegula::jit {

// <package_dir()>/tegula_prebuilt (tests move it with set_package_dir).
std::string prebuilt_dir();

// <package_dir()>/tegula_prebuilt_tile.
std::string prebuilt_tile_dir();

// The payload of the undamaged entry under `key` in either folder, or nullopt (none, damaged, or the folder is
// writable by others).
std::optional<std::string> prebuilt_payload(const std::string& key);

// Writes an entry into `dir` (temp file + rename); what the build tool calls. Throws error_kind::cache on failure.
void write_prebuilt(const std::string& dir, const std::string& key, std::string_view payload, const entry_meta& meta);

}  // namespace tegula::jit
