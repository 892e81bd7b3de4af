// The on-disk compile cache: content-addressed entries, checksummed, written atomically.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tegula::jit {

struct cache_entry {
  std::string key;         // 64 lowercase hex characters
  std::uint64_t size = 0;  // bytes on disk, header included
  double mtime = 0;        // last modification, seconds since the Unix epoch
};

// Layout: <dir>/v1/<key[0:2]>/<key>.bin. Entry: "TGLC", u32 format version, u64 payload size,
// sha256(payload), payload (integers little-endian). Invariants: a reader never sees a partial
// entry (temp file + rename(2)); a damaged entry is a miss and is removed, so it gets rebuilt;
// nothing here throws for I/O trouble: the cache degrades to "disabled" or "miss" with one
// warning. Thread-safe; several processes may share one directory.
class disk_cache {
 public:
  explicit disk_cache(std::string directory);
  disk_cache(const disk_cache&) = delete;
  disk_cache& operator=(const disk_cache&) = delete;

  // The payload stored under key, or nullopt (missing, damaged, or cache disabled).
  // A key that is not 64 hex characters throws error_kind::invalid_argument.
  std::optional<std::string> get(const std::string& key);
  // Stores payload under key, replacing any entry. A write failure only warns (once).
  void put(const std::string& key, std::string_view payload);

  std::vector<cache_entry> list();
  std::uint64_t total_size();
  // Removes every entry; returns how many were removed.
  std::size_t clear();

  // False when the directory is unsafe (not ours, or group/world-writable) or unusable;
  // decided once, at first use.
  bool enabled();
  std::string disabled_reason();  // empty when enabled
  const std::string& directory() const { return dir_; }
  std::string entry_path(const std::string& key) const;

 private:
  bool ready();  // runs the one-time safety check
  void warn_write_failure(const std::string& what);

  std::string dir_;
  std::string root_;  // dir_ + "/v1"
  std::once_flag checked_;
  bool enabled_ = false;  // written once under checked_, read-only afterwards
  std::string reason_;
  std::atomic<bool> warned_write_{false};
};

// The process-wide cache over get_config().cache_dir (created on first call).
disk_cache& default_disk_cache();

}  // namespace tegula::jit
