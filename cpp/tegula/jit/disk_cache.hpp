// The on-disk compile cache: content-addressed entries, checksummed, written atomically, pruned least recently used.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_set>
#include <vector>

#include "tegula/jit/cache_entry.hpp"

namespace tegula::jit {

struct cache_entry {
  std::string key;         // 64 lowercase hex characters
  std::uint64_t size = 0;  // bytes on disk, head included
  double last_used = 0;    // the file's mtime: its write, or a later hit (seconds since the Unix epoch)
  entry_meta meta;         // made_by unknown for format-1 entries (and for an entry too damaged to say)
};

struct prune_result {
  std::size_t removed = 0;     // entries removed
  std::uint64_t freed = 0;     // their bytes
  std::uint64_t remaining = 0; // bytes of the entries left
};

// Layout: <dir>/v1/<key[0:2]>/<key>.bin, each file one entry (cache_entry.hpp gives its format). Invariants: a
// reader never sees a partial entry (temp file + rename(2)); a damaged entry is a miss and is removed, so it gets
// rebuilt; nothing here throws for I/O trouble except install(): the cache degrades to "disabled" or "miss" with one
// warning. Thread-safe; several processes may share one directory.
//
// Least recently used: an entry's mtime is its last use. A write sets it; the first hit of an entry in a process
// sets it to now (one utimensat, later hits in the process skip it), so the order is right to within one process's
// lifetime. prune() removes the entries unused longest. With a limit (max_bytes > 0), a write that takes the cache
// past it prunes to 90% of it (never the entry just written): the total is counted by one directory scan at the
// process's first write and then kept up by adding what it writes; other processes' writes are seen at the next scan.
class disk_cache {
 public:
  // max_bytes: the limit kept after writes; 0 for none.
  explicit disk_cache(std::string directory, std::uint64_t max_bytes = 0);
  disk_cache(const disk_cache&) = delete;
  disk_cache& operator=(const disk_cache&) = delete;

  // The payload stored under key, or nullopt (missing, damaged, or cache disabled). A hit refreshes its last use.
  // A key that is not 64 hex characters throws error_kind::invalid_argument.
  std::optional<std::string> get(const std::string& key);
  // Stores payload under key with its description, replacing any entry. A write failure only warns (once).
  void put(const std::string& key, std::string_view payload, const entry_meta& meta);

  // Every entry (or those `only` made), by key. Reads each entry's head, not its payload.
  std::vector<cache_entry> list(std::optional<component> only = std::nullopt);
  std::uint64_t total_size();
  // Removes every entry (or those `only` made); returns how many were removed.
  std::size_t clear(std::optional<component> only = std::nullopt);
  // Removes least recently used entries until the entries left take at most max_bytes.
  prune_result prune(std::uint64_t max_bytes);

  // The whole file of an undamaged entry (a bundle carries these), or nullopt.
  std::optional<std::string> read_entry(const std::string& key);
  // Installs the file of an entry (read_entry's bytes) under key, written as put() writes. Returns false, touching
  // nothing, when `bytes` is not one whole undamaged entry; throws error_kind::cache when the cache is disabled or
  // the write fails.
  bool install(const std::string& key, std::string_view bytes);

  // False when the directory is unsafe (not ours, or group/world-writable) or unusable;
  // decided once, at first use.
  bool enabled();
  std::string disabled_reason();  // empty when enabled
  const std::string& directory() const { return dir_; }
  std::uint64_t max_bytes() const { return max_bytes_; }
  std::string entry_path(const std::string& key) const;

 private:
  bool ready();  // runs the one-time safety check
  void warn_write_failure(const std::string& what);
  // Writes head + payload to the entry's path through a temp file; "" or why it failed.
  std::string write_entry(const std::string& key, std::string_view head, std::string_view payload);
  void touch_once(const std::string& key, const std::string& path);
  void keep_limit(const std::string& written, std::uint64_t bytes);
  prune_result prune_to(std::uint64_t max_bytes, const std::string* keep);

  std::string dir_;
  std::string root_;  // dir_ + "/v1"
  std::uint64_t max_bytes_;
  std::once_flag checked_;
  bool enabled_ = false;  // written once under checked_, read-only afterwards
  std::string reason_;
  std::atomic<bool> warned_write_{false};
  std::mutex touched_mutex_;
  std::unordered_set<std::string> touched_;  // keys whose last use this process has refreshed
  std::mutex limit_mutex_;
  bool counted_ = false;        // under limit_mutex_: total_ has been scanned
  std::uint64_t total_ = 0;     // under limit_mutex_: the bytes this process believes the cache holds
};

// The process-wide cache over get_config().cache_dir, limited to get_config().cache_max_size (created on first call).
disk_cache& default_disk_cache();

}  // namespace tegula::jit
