// The on-disk compile cache: content-addressed entries, checksummed, written atomically.
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

#include "tegula/jit/byte_io.hpp"
#include "tegula/support/config.hpp"
#include "tegula/support/error.hpp"
#include "tegula/support/sha256.hpp"

namespace tegula::jit {
namespace {

constexpr char magic[4] = {'T', 'G', 'L', 'C'};
constexpr std::uint32_t format_version = 1;
constexpr std::size_t header_size = 4 + 4 + 8 + 32;
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

// The payload if `bytes` is a whole, undamaged entry.
std::optional<std::string> decode_entry(std::string_view bytes) {
  if (bytes.size() < header_size || std::memcmp(bytes.data(), magic, 4) != 0) return std::nullopt;
  byte_reader in(bytes.substr(4));
  std::uint32_t version = in.u32();
  std::uint64_t size = in.u64();
  std::string_view checksum = in.bytes(32);
  if (!in.ok() || version != format_version || size != in.remaining()) return std::nullopt;
  std::string payload(in.bytes(std::size_t(size)));
  sha256::digest_t d = sha256().update(payload).digest();
  if (std::memcmp(d.data(), checksum.data(), d.size()) != 0) return std::nullopt;
  return payload;
}

std::string encode_header(std::string_view payload) {
  std::string h(magic, 4);
  put_u32(h, format_version);
  put_u64(h, payload.size());
  sha256::digest_t d = sha256().update(payload).digest();
  h.append(reinterpret_cast<const char*>(d.data()), d.size());
  return h;
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

}  // namespace

disk_cache::disk_cache(std::string directory)
    : dir_(std::move(directory)), root_(dir_ + "/v1") {}

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

std::optional<std::string> disk_cache::get(const std::string& key) {
  require_key(key);
  if (!ready()) return std::nullopt;
  std::string path = entry_path(key);
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;  // missing (or unreadable): a plain miss
  struct stat st;
  std::optional<std::string> payload;
  bool readable = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode);
  if (readable) {
    std::string bytes(std::size_t(st.st_size), '\0');
    readable = read_all(fd, bytes.data(), bytes.size());
    if (readable) payload = decode_entry(bytes);
  }
  ::close(fd);
  if (!payload && readable) {
    // Damaged: remove it so it is rebuilt, unless a writer has just renamed a new entry over it.
    struct stat now;
    if (::stat(path.c_str(), &now) == 0 && now.st_dev == st.st_dev && now.st_ino == st.st_ino)
      ::unlink(path.c_str());
  }
  return payload;
}

void disk_cache::put(const std::string& key, std::string_view payload) {
  require_key(key);
  if (!ready()) return;
  std::string shard = root_ + "/" + key.substr(0, 2);
  if (::mkdir(shard.c_str(), 0700) != 0 && errno != EEXIST)
    return warn_write_failure(str("cannot create ", shard, ": ", errno_text()));
  // Same directory as the entry, so rename(2) is atomic: readers see old or new, never part.
  std::string temp = shard + "/.tmp-" + key.substr(0, 16) + "-XXXXXX";
  int fd = ::mkstemp(temp.data());
  if (fd < 0) return warn_write_failure(str("cannot create a file in ", shard, ": ", errno_text()));
  std::string header = encode_header(payload);
  bool ok = write_all(fd, header.data(), header.size()) &&
            write_all(fd, payload.data(), payload.size());
  std::string why = ok ? std::string() : errno_text();
  if (::close(fd) != 0 && ok) {
    ok = false;
    why = errno_text();
  }
  if (ok && ::rename(temp.c_str(), entry_path(key).c_str()) != 0) {
    ok = false;
    why = errno_text();
  }
  if (!ok) {
    ::unlink(temp.c_str());
    warn_write_failure(str("writing ", entry_path(key), ": ", why));
  }
}

std::vector<cache_entry> disk_cache::list() {
  std::vector<cache_entry> entries;
  if (!ready()) return entries;
  for_each_file(root_, [&](const std::string&, const std::string& name, const struct stat& st) {
    if (!is_entry_name(name)) return;
    double mtime = double(st.st_mtim.tv_sec) + double(st.st_mtim.tv_nsec) * 1e-9;
    entries.push_back({name.substr(0, 64), std::uint64_t(st.st_size), mtime});
  });
  std::sort(entries.begin(), entries.end(),
            [](const cache_entry& a, const cache_entry& b) { return a.key < b.key; });
  return entries;
}

std::uint64_t disk_cache::total_size() {
  std::uint64_t total = 0;
  for (const auto& e : list()) total += e.size;
  return total;
}

std::size_t disk_cache::clear() {
  std::size_t removed = 0;
  if (!ready()) return removed;
  std::time_t now = std::time(nullptr);
  for_each_file(root_, [&](const std::string& path, const std::string& name,
                           const struct stat& st) {
    if (is_entry_name(name)) {
      if (::unlink(path.c_str()) == 0) ++removed;
    } else if (name.rfind(".tmp-", 0) == 0 && now - st.st_mtime > stale_temp_seconds) {
      ::unlink(path.c_str());  // left by a writer that died
    }
  });
  return removed;
}

disk_cache& default_disk_cache() {
  // Leaked on purpose: compiles may still run while static destructors do (e.g. at exit).
  static disk_cache* cache = new disk_cache(get_config().cache_dir);
  return *cache;
}

}  // namespace tegula::jit
