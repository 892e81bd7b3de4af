// The compiler front door: NVRTC behind an in-memory and a content-addressed on-disk cache.
#pragma once
#include <memory>
#include <string>

#include "tegula/jit/cache_entry.hpp"
#include "tegula/jit/nvrtc.hpp"

namespace tegula::jit {

// package_hit: an entry the package carries (prebuilt.hpp), compiled when tegula was built.
enum class cache_outcome { memory_hit, disk_hit, package_hit, compiled };

struct compiled {
  std::string key;  // 64 hex characters: the content address
  std::shared_ptr<const compile_result> result;  // shared: a memory hit copies no code
  cache_outcome outcome = cache_outcome::compiled;
  double seconds = 0;  // time spent in this call (lookup, or lookup + NVRTC + write)
};

// "memory", "disk", "package" or "compiled".
const char* outcome_name(cache_outcome o);

// Key = sha256 over NVRTC version, source, program name (it appears in the log and line info), options, headers (names and contents), name
// expressions, arch, arch_specific and target (not made_by or kernel_name: they only describe the entry). The same
// request always gives the same key.
std::string cache_key(const compile_request& request);

// What an entry compiled from `request` says of itself (its maker, kernel name, "sm_90", "sm_90a" or "compute_90"):
// the disk cache's entries and the package's prebuilt ones alike.
entry_meta entry_meta_of(const compile_request& request);

// Looks up the memory cache, then the disk cache (if enabled and safe), else compiles and stores
// in both. Thread-safe. The shared result is immutable.
std::shared_ptr<const compiled> compile(const compile_request& request);

// The cached result for `request` (memory, then the disk cache, then the package's prebuilt entries; a hit is
// remembered in memory), or null when it has to be compiled. compile() is lookup() and, on a miss, NVRTC.
std::shared_ptr<const compiled> lookup(const compile_request& request);

// Drops the in-memory cache (tests use this to exercise the disk cache).
void clear_memory_cache();

}  // namespace tegula::jit
