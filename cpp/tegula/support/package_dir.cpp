// The folder tegula's files are installed in (see package_dir.hpp).
#include "tegula/support/package_dir.hpp"

#include <dlfcn.h>

#include <mutex>

namespace tegula {
namespace {

std::mutex& dir_mutex() {
  static std::mutex m;
  return m;
}
std::string& dir_override() {
  static std::string d;
  return d;
}

}  // namespace

std::string package_dir() {
  {
    std::lock_guard<std::mutex> lock(dir_mutex());
    if (!dir_override().empty()) return dir_override();
  }
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&package_dir), &info) && info.dli_fname) {
    const std::string so = info.dli_fname;
    const auto slash = so.rfind('/');
    return slash == std::string::npos ? std::string(".") : so.substr(0, slash);
  }
  return ".";
}

void set_package_dir(const std::string& dir) {
  std::lock_guard<std::mutex> lock(dir_mutex());
  dir_override() = dir;
}

}  // namespace tegula
