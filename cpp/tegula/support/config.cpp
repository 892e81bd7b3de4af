// Configuration: the one place environment variables are read (DESIGN.md rule 6).
#include "tegula/support/config.hpp"

#include <cstdlib>
#include <mutex>
#include <optional>

#include "tegula/support/byte_size.hpp"

namespace tegula {
namespace {

std::string env(const char* name) {
  const char* value = std::getenv(name);
  return value ? std::string(value) : std::string();
}

bool env_flag(const char* name) {
  std::string v = env(name);
  return !v.empty() && v != "0" && v != "false" && v != "no";
}

config read_config() {
  config c;
  c.cache_dir = env("TEGULA_CACHE_DIR");
  if (c.cache_dir.empty()) {
    std::string xdg = env("XDG_CACHE_HOME");
    std::string home = env("HOME");
    if (!xdg.empty()) c.cache_dir = xdg + "/tegula";
    else if (!home.empty()) c.cache_dir = home + "/.cache/tegula";
    else c.cache_dir = "/tmp/tegula-cache";
  }
  c.disk_cache = !env_flag("TEGULA_DISABLE_CACHE");
  std::string max_size = env("TEGULA_CACHE_MAX_SIZE");
  if (max_size == "none" || max_size == "unlimited") {
    c.cache_max_size = 0;
  } else if (!max_size.empty()) {
    std::optional<std::uint64_t> bytes = parse_byte_size(max_size);
    if (bytes) c.cache_max_size = *bytes;
    else c.cache_max_size_invalid = max_size;  // reported by the cache, which knows how to warn
  }
  c.interpret = env_flag("TEGULA_INTERPRET");
  const std::string bg = env("TEGULA_BACKGROUND_COMPILE");
  c.background_compile = bg.empty() || env_flag("TEGULA_BACKGROUND_COMPILE");
  c.array_vm = env("TEGULA_ARRAY_VM");
  c.tile_by_computed = env_flag("TEGULA_TILE_BY_COMPUTED");
  std::string level = env("TEGULA_LOG");
  c.log_level = level.empty() ? 1 : std::atoi(level.c_str());
  for (const char* name : {"CUDA_HOME", "CUDA_PATH"}) {
    std::string v = env(name);
    if (!v.empty()) c.cuda_homes.push_back(v);
  }
  c.cuda_homes.push_back("/usr/local/cuda");
  return c;
}

std::mutex& dirs_mutex() {
  static std::mutex m;
  return m;
}
std::vector<std::string>& dirs() {
  static std::vector<std::string> d;
  return d;
}

}  // namespace

const config& get_config() {
  static const config c = read_config();
  return c;
}

void add_library_dir(const std::string& dir) {
  std::lock_guard<std::mutex> lock(dirs_mutex());
  for (const auto& d : dirs())
    if (d == dir) return;
  dirs().push_back(dir);
}

std::vector<std::string> library_dirs() {
  std::lock_guard<std::mutex> lock(dirs_mutex());
  return dirs();
}

std::vector<std::string> cuda_library_dirs() {
  std::vector<std::string> dirs;
  for (const auto& home : get_config().cuda_homes) {
    dirs.push_back(home + "/lib64");
    dirs.push_back(home + "/lib");
  }
  return dirs;
}

}  // namespace tegula
