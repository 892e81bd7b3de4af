// The package's prebuilt compile entries (see prebuilt.hpp).
#include "tegula/jit/prebuilt.hpp"

#include <sys/stat.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "tegula/support/error.hpp"
#include "tegula/support/package_dir.hpp"

namespace tegula::jit {
namespace {

bool hex_key(const std::string& key) {
  if (key.size() != 64) return false;
  for (char c : key)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

// A folder others may write into could hold code they chose: its entries are not used.
bool trusted(const std::string& dir) {
  struct stat st {};
  return ::stat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && !(st.st_mode & S_IWOTH);
}

std::optional<std::string> payload_in(const std::string& dir, const std::string& key) {
  std::ifstream f(dir + "/" + key + ".bin", std::ios::binary);
  if (!f || !trusted(dir)) return std::nullopt;
  std::ostringstream o;
  o << f.rdbuf();
  std::optional<decoded_entry> e = decode_entry(o.str());
  if (!e) return std::nullopt;
  return std::move(e->payload);
}

}  // namespace

std::string prebuilt_dir() { return package_dir() + "/tegula_prebuilt"; }

std::string prebuilt_tile_dir() { return package_dir() + "/tegula_prebuilt_tile"; }

std::optional<std::string> prebuilt_payload(const std::string& key) {
  if (!hex_key(key)) return std::nullopt;
  if (std::optional<std::string> p = payload_in(prebuilt_dir(), key)) return p;
  return payload_in(prebuilt_tile_dir(), key);
}

void write_prebuilt(const std::string& dir, const std::string& key, std::string_view payload, const entry_meta& meta) {
  if (!hex_key(key)) fail(error_kind::invalid_argument, "a prebuilt entry's key is 64 hex characters, not '", key, "'");
  const std::string path = dir + "/" + key + ".bin", tmp = path + ".tmp";
  {
    std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
    const std::string head = encode_head(meta, payload);
    f.write(head.data(), std::streamsize(head.size()));
    f.write(payload.data(), std::streamsize(payload.size()));
    if (!f) fail(error_kind::cache, "cannot write the prebuilt entry ", tmp);
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) fail(error_kind::cache, "cannot rename ", tmp, " to ", path);
}

}  // namespace tegula::jit
