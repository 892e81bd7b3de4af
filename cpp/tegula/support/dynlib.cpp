// Dynamic libraries: dlopen the first of several candidates, never link (DESIGN.md rule 4).
#include "tegula/support/dynlib.hpp"

#include <dlfcn.h>

#include "tegula/support/config.hpp"
#include "tegula/support/error.hpp"

namespace tegula {

dynlib dynlib::open(const std::string& what, const std::vector<std::string>& sonames,
                    const std::vector<std::string>& extra_dirs) {
  std::vector<std::string> candidates;
  std::vector<std::string> dirs = library_dirs();
  dirs.insert(dirs.end(), extra_dirs.begin(), extra_dirs.end());
  for (const auto& dir : dirs)
    for (const auto& so : sonames) candidates.push_back(dir + "/" + so);
  for (const auto& so : sonames) candidates.push_back(so);  // the loader's own search

  std::string tried;
  for (const auto& path : candidates) {
    void* h = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (h) {
      dynlib lib;
      lib.handle_ = h;
      lib.path_ = path;
      return lib;
    }
    const char* why = ::dlerror();
    tried += "\n  " + path + (why ? std::string(": ") + why : std::string());
  }
  fail(error_kind::driver_missing, what, " could not be loaded; tried:", tried);
}

void* dynlib::symbol(const char* name) const { return handle_ ? ::dlsym(handle_, name) : nullptr; }

void* dynlib::required_symbol(const char* name, const char* what) const {
  void* p = symbol(name);
  if (!p) fail(error_kind::driver_missing, what, " at ", path_, " lacks ", name);
  return p;
}

}  // namespace tegula
