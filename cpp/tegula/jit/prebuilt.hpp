// The compiled entries a package carries (tools/tegula-prebuild writes them at build time): read-only, one file per
// cache key in the entry format (cache_entry.hpp), in <package>/tegula_prebuilt. jit::lookup reads them after the
// user's disk cache, before it would run NVRTC. Keys hash the NVRTC version, so entries built by another NVRTC are
// simply never asked for.
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "tegula/jit/cache_entry.hpp"

namespace tegula::jit {

// <package_dir()>/tegula_prebuilt (tests move it with set_package_dir).
std::string prebuilt_dir();

// The payload of the undamaged entry under `key`, or nullopt (none, damaged, or the folder is writable by others).
std::optional<std::string> prebuilt_payload(const std::string& key);

// Writes an entry into `dir` (temp file + rename); what the build tool calls. Throws error_kind::cache on failure.
void write_prebuilt(const std::string& dir, const std::string& key, std::string_view payload, const entry_meta& meta);

}  // namespace tegula::jit
