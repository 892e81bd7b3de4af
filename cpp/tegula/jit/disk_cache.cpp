// The on-disk compile cache: content-addressed entries, checksummed, written atomically, pruned least recently used.
#include "tegula/jit/disk_cache.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <functional>
#include <utility>

#include "tegula/support/byte_size.hpp"
#include "tegula/support/config.hpp"
#include "tegula/support/error.hpp"

namespace tegula::jit {
namespace {

// A temp file this old belongs to a writer that died; younger ones may still be renamed.
constexpr std::time_t stale_temp_seconds = 600;

bool is_key(std::string_view s) {
  return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) {
           return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
         });
}

void require_key(const std::string& key) {
  if (!is_key(key))
    fail(error_kind::invalid_argument, "compile cache key must be 64 lowercase hex characters, got '",
         key, "'");
}

std::string errno_text() { return std::strerror(errno); }

void warn(const std::string& message) {
  if (get_config().log_level >= 1) std::fprintf(stderr, "tegula: warning: %s\n", message.c_str());
}

// mkdir -p with mode 0700 for every directory it creates (existing ones are left alone).
bool make_dirs(const std::string& path, std::string& why) {
  for (std::size_t pos = 1; pos <= path.size(); ++pos) {
    if (pos != path.size() && path[pos] != '/') continue;
    std::string prefix = path.substr(0, pos);
    if (::mkdir(prefix.c_str(), 0700) != 0 && errno != EEXIST) {
      why = str("cannot create ", prefix, ": ", errno_text());
      return false;
    }
  }
  return true;
}

// The directory must be ours and writable by no one else: another user able to write it could
// plant a CUBIN that we would load and run.
bool is_safe_dir(const std::string& path, std::string& why) {
  struct stat st;
  if (::stat(path.c_str(), &st) != 0) {
    why = str("cannot stat ", path, ": ", errno_text());
    return false;
  }
  if (!S_ISDIR(st.st_mode)) why = str(path, " is not a directory");
  else if (st.st_uid != ::getuid())
    why = str(path, " is owned by uid ", st.st_uid, ", not by the current user (uid ", ::getuid(), ")");
  else if (st.st_mode & (S_IWGRP | S_IWOTH)) {
    char mode[8];
    std::snprintf(mode, sizeof mode, "%o", unsigned(st.st_mode & 07777));
    why = str(path, " is group- or world-writable (mode ", mode, ")");
  } else if (::access(path.c_str(), R_OK | W_OK | X_OK) != 0)
    why = str(path, " is not readable and writable: ", errno_text());
  return why.empty();
}

bool read_all(int fd, char* p, std::size_t n) {
  while (n > 0) {
    ssize_t got = ::read(fd, p, n);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) return false;
    p += got;
    n -= std::size_t(got);
  }
  return true;
}

bool write_all(int fd, const char* p, std::size_t n) {
  while (n > 0) {
    ssize_t put = ::write(fd, p, n);
    if (put < 0 && errno == EINTR) continue;
    if (put <= 0) return false;
    p += put;
    n -= std::size_t(put);
  }
  return true;
}

// Calls fn(path, name, stat) for every plain file in every shard directory under root.
void for_each_file(const std::string& root,
                   const std::function<void(const std::string&, const std::string&,
                                            const struct stat&)>& fn) {
  DIR* top = ::opendir(root.c_str());
  if (!top) return;
  while (dirent* shard = ::readdir(top)) {
    std::string shard_name = shard->d_name;
    if (shard_name.size() != 2 || shard_name[0] == '.') continue;
    std::string shard_path = root + "/" + shard_name;
    DIR* sub = ::opendir(shard_path.c_str());
    if (!sub) continue;
    while (dirent* e = ::readdir(sub)) {
      std::string name = e->d_name;
      std::string path = shard_path + "/" + name;
      struct stat st;
      if (name == "." || name == ".." || ::lstat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode))
        continue;
      fn(path, name, st);
    }
    ::closedir(sub);
  }
  ::closedir(top);
}

bool is_entry_name(const std::string& name) {
  return name.size() == 68 && name.compare(64, 4, ".bin") == 0 && is_key(name.substr(0, 64));
}

// The file at path (its first `limit` bytes), or nullopt (missing, unreadable, not a plain file). `st` gets its stat.
std::optional<std::string> read_file(const std::string& path, struct stat& st, std::size_t limit = ~std::size_t(0)) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  std::optional<std::string> bytes;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
    std::string b(std::min(std::size_t(st.st_size), limit), '\0');
    if (read_all(fd, b.data(), b.size())) bytes = std::move(b);
  }
  ::close(fd);
  return bytes;
}

// Removes a damaged entry so it is rebuilt, unless a writer has just renamed a new entry over it.
void remove_if_unchanged(const std::string& path, const struct stat& seen) {
  struct stat now;
  if (::stat(path.c_str(), &now) == 0 && now.st_dev == seen.st_dev && now.st_ino == seen.st_ino)
    ::unlink(path.c_str());
}

// What the entry file at path says about itself (unknown when it cannot say: format 1, or damaged).
entry_meta meta_at(const std::string& path) {
  struct stat st;
  std::optional<std::string> head = read_file(path, st, max_head_size);
  return head ? peek_meta(*head).value_or(entry_meta{}) : entry_meta{};
}

double mtime_of(const struct stat& st) { return double(st.st_mtim.tv_sec) + double(st.st_mtim.tv_nsec) * 1e-9; }

}  // namespace

disk_cache::disk_cache(std::string directory, std::uint64_t max_bytes)
    : dir_(std::move(directory)), root_(dir_ + "/v1"), max_bytes_(max_bytes) {}

std::string disk_cache::entry_path(const std::string& key) const {
  return root_ + "/" + key.substr(0, 2) + "/" + key + ".bin";
}

bool disk_cache::ready() {
  std::call_once(checked_, [this] {
    std::string why;
    if (dir_.empty()) why = "no cache directory is configured";
    else if (make_dirs(dir_, why) && is_safe_dir(dir_, why) && make_dirs(root_, why))
      is_safe_dir(root_, why);
    enabled_ = why.empty();
    reason_ = why;
    if (!enabled_)
      warn(str("the compile cache at ", dir_, " is disabled: ", why,
               "; kernels will be compiled without caching"));
  });
  return enabled_;
}

bool disk_cache::enabled() { return ready(); }

std::string disk_cache::disabled_reason() {
  ready();
  return reason_;
}

void disk_cache::warn_write_failure(const std::string& what) {
  if (!warned_write_.exchange(true))
    warn(str("could not write to the compile cache at ", dir_, ": ", what,
             " (further write failures are not reported)"));
}

void disk_cache::touch_once(const std::string& key, const std::string& path) {
  {
    std::lock_guard<std::mutex> lock(touched_mutex_);
    if (!touched_.insert(key).second) return;
  }
  ::utimensat(AT_FDCWD, path.c_str(), nullptr, 0);  // best effort: a read-only cache still serves hits
}

std::optional<std::string> disk_cache::get(const std::string& key) {
  require_key(key);
  if (!ready()) return std::nullopt;
  std::string path = entry_path(key);
  struct stat st;
  std::optional<std::string> bytes = read_file(path, st);
  if (!bytes) return std::nullopt;  // missing (or unreadable): a plain miss
  std::optional<decoded_entry> entry = decode_entry(*bytes);
  if (!entry) {
    remove_if_unchanged(path, st);
    return std::nullopt;
  }
  touch_once(key, path);
  return std::move(entry->payload);
}

std::optional<std::string> disk_cache::read_entry(const std::string& key) {
  require_key(key);
  if (!ready()) return std::nullopt;
  struct stat st;
  std::optional<std::string> bytes = read_file(entry_path(key), st);
  if (!bytes || !decode_entry(*bytes)) return std::nullopt;
  return bytes;
}

std::string disk_cache::write_entry(const std::string& key, std::string_view head, std::string_view payload) {
  std::string shard = root_ + "/" + key.substr(0, 2);
  if (::mkdir(shard.c_str(), 0700) != 0 && errno != EEXIST) return str("cannot create ", shard, ": ", errno_text());
  // Same directory as the entry, so rename(2) is atomic: readers see old or new, never part.
  std::string temp = shard + "/.tmp-" + key.substr(0, 16) + "-XXXXXX";
  int fd = ::mkstemp(temp.data());
  if (fd < 0) return str("cannot create a file in ", shard, ": ", errno_text());
  bool ok = write_all(fd, head.data(), head.size()) && write_all(fd, payload.data(), payload.size());
  std::string why = ok ? std::string() : errno_text();
  if (::close(fd) != 0 && ok) {
    ok = false;
    why = errno_text();
  }
  if (ok && ::rename(temp.c_str(), entry_path(key).c_str()) != 0) {
    ok = false;
    why = errno_text();
  }
  if (ok) return {};
  ::unlink(temp.c_str());
  return str("writing ", entry_path(key), ": ", why);
}

void disk_cache::put(const std::string& key, std::string_view payload, const entry_meta& meta) {
  require_key(key);
  if (!ready()) return;
  std::string head = encode_head(meta, payload);
  std::string why = write_entry(key, head, payload);
  if (!why.empty()) return warn_write_failure(why);
  keep_limit(key, head.size() + payload.size());
}

bool disk_cache::install(const std::string& key, std::string_view bytes) {
  require_key(key);
  if (!decode_entry(bytes)) return false;
  if (!ready()) fail(error_kind::cache, "the compile cache at ", dir_, " is disabled: ", reason_);
  std::string why = write_entry(key, bytes, {});
  if (!why.empty()) fail(error_kind::cache, "could not write to the compile cache at ", dir_, ": ", why);
  keep_limit(key, bytes.size());
  return true;
}

void disk_cache::keep_limit(const std::string& written, std::uint64_t bytes) {
  if (max_bytes_ == 0) return;
  std::lock_guard<std::mutex> lock(limit_mutex_);
  if (!counted_) {
    total_ = total_size();  // includes the entry just written
    counted_ = true;
  } else {
    total_ += bytes;  // a replaced entry counts twice: that only brings the next scan sooner
  }
  if (total_ <= max_bytes_) return;
  // Down to 90%, so that the next writes do not each scan the directory again.
  total_ = prune_to(max_bytes_ - max_bytes_ / 10, &written).remaining;
}

std::vector<cache_entry> disk_cache::list(std::optional<component> only) {
  std::vector<cache_entry> entries;
  if (!ready()) return entries;
  for_each_file(root_, [&](const std::string& path, const std::string& name, const struct stat& st) {
    if (!is_entry_name(name)) return;
    cache_entry e{name.substr(0, 64), std::uint64_t(st.st_size), mtime_of(st), meta_at(path)};
    if (!only || e.meta.made_by == *only) entries.push_back(std::move(e));
  });
  std::sort(entries.begin(), entries.end(),
            [](const cache_entry& a, const cache_entry& b) { return a.key < b.key; });
  return entries;
}

std::uint64_t disk_cache::total_size() {
  std::uint64_t total = 0;
  if (!ready()) return total;
  for_each_file(root_, [&](const std::string&, const std::string& name, const struct stat& st) {
    if (is_entry_name(name)) total += std::uint64_t(st.st_size);
  });
  return total;
}

std::size_t disk_cache::clear(std::optional<component> only) {
  std::size_t removed = 0;
  if (!ready()) return removed;
  std::time_t now = std::time(nullptr);
  for_each_file(root_, [&](const std::string& path, const std::string& name,
                           const struct stat& st) {
    if (is_entry_name(name)) {
      if (only && meta_at(path).made_by != *only) return;
      if (::unlink(path.c_str()) == 0) ++removed;
    } else if (name.rfind(".tmp-", 0) == 0 && now - st.st_mtime > stale_temp_seconds) {
      ::unlink(path.c_str());  // left by a writer that died
    }
  });
  return removed;
}

prune_result disk_cache::prune(std::uint64_t max_bytes) {
  prune_result r = prune_to(max_bytes, nullptr);
  std::lock_guard<std::mutex> lock(limit_mutex_);
  if (counted_) total_ = r.remaining;
  return r;
}

prune_result disk_cache::prune_to(std::uint64_t max_bytes, const std::string* keep) {
  prune_result r;
  if (!ready()) return r;
  struct file {
    std::string path;
    std::string key;
    std::uint64_t size;
    struct timespec used;
  };
  std::vector<file> files;
  std::time_t now = std::time(nullptr);
  for_each_file(root_, [&](const std::string& path, const std::string& name, const struct stat& st) {
    if (is_entry_name(name)) {
      files.push_back({path, name.substr(0, 64), std::uint64_t(st.st_size), st.st_mtim});
      r.remaining += std::uint64_t(st.st_size);
    } else if (name.rfind(".tmp-", 0) == 0 && now - st.st_mtime > stale_temp_seconds) {
      ::unlink(path.c_str());
    }
  });
  // Oldest use first; equal times (a coarse clock) by key, so every process removes in the same order.
  std::sort(files.begin(), files.end(), [](const file& a, const file& b) {
    if (a.used.tv_sec != b.used.tv_sec) return a.used.tv_sec < b.used.tv_sec;
    if (a.used.tv_nsec != b.used.tv_nsec) return a.used.tv_nsec < b.used.tv_nsec;
    return a.key < b.key;
  });
  for (const file& f : files) {
    if (r.remaining <= max_bytes) break;
    if (keep && f.key == *keep) continue;
    if (::unlink(f.path.c_str()) != 0) continue;  // another process removed it first: it is gone either way
    ++r.removed;
    r.freed += f.size;
    r.remaining -= f.size;
  }
  return r;
}

disk_cache& default_disk_cache() {
  // Leaked on purpose: compiles may still run while static destructors do (e.g. at exit).
  static disk_cache* cache = [] {
    const config& c = get_config();
    if (!c.cache_max_size_invalid.empty())
      warn(str("TEGULA_CACHE_MAX_SIZE='", c.cache_max_size_invalid, "' is not a size (e.g. 500M, 2G; 0 for no limit); ",
               "using ", format_byte_size(c.cache_max_size)));
    return new disk_cache(c.cache_dir, c.cache_max_size);
  }();
  return *cache;
}

}  // namespace tegula::jit
