// Dynamic libraries: dlopen the first of several candidates, never link (DESIGN.md rule 4).
#pragma once
#include <string>
#include <vector>

namespace tegula {

class dynlib {
 public:
  // Tries each directory of library_dirs() and then the loader's default search for each soname.
  // Fails with error_kind::driver_missing naming `what` and every path tried.
  static dynlib open(const std::string& what, const std::vector<std::string>& sonames,
                     const std::vector<std::string>& extra_dirs = {});
  // The symbol, or nullptr when the library lacks it.
  void* symbol(const char* name) const;
  // Sets fn to the symbol `name`; fails with driver_missing ("<what> at <path> lacks <name>") when it is absent.
  template <class Fn>
  void require(Fn& fn, const char* name, const char* what) const {
    fn = reinterpret_cast<Fn>(required_symbol(name, what));
  }
  const std::string& path() const { return path_; }

 private:
  void* required_symbol(const char* name, const char* what) const;
  void* handle_ = nullptr;  // never dlclose'd: CUDA libraries must outlive static destructors
  std::string path_;
};

}  // namespace tegula
