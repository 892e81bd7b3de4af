// CCCL headers, NVRTC compiles of CUB code and argument packing (see cub_jit.hpp).
#include "tegula/libs/cub_jit.hpp"

#include <sys/stat.h>

#include <cstring>

#include "tegula/jit/compiler.hpp"
#include "tegula/runtime/object_code.hpp"
#include "tegula/runtime/profiler.hpp"
#include "tegula/support/config.hpp"

namespace tegula::libs {
namespace {

bool is_dir(const std::string& p) {
  struct stat st {};
  return ::stat(p.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

}  // namespace

std::string cccl_include_dir() {
  std::vector<std::string> tried;
  auto consider = [&](const std::string& dir) {
    tried.push_back(dir);
    return is_dir(dir + "/cub") && is_dir(dir + "/cuda/std");
  };
  for (const auto& home : get_config().cuda_homes) {
    for (const char* sub : {"/include/cccl", "/targets/x86_64-linux/include/cccl", "/targets/sbsa-linux/include/cccl"})
      if (consider(home + sub)) return home + sub;
  }
  for (const auto& lib : library_dirs()) {  // NVIDIA's pip wheels: <root>/lib next to <root>/include
    for (const char* sub : {"/../include/cccl", "/../include"})
      if (consider(lib + sub)) return lib + sub;
  }
  std::string list;
  for (const auto& t : tried) list += "\n  " + t;
  fail(error_kind::driver_missing, "CUB (the CCCL headers shipped with the CUDA toolkit) was not found; set CUDA_HOME "
       "to a CUDA 12.8+ toolkit. Searched:", list);
}

jit::compile_request library_request(const std::string& source, const std::vector<std::string>& names, int arch,
                                     const std::string& label, bool with_cccl) {
  jit::compile_request r;
  r.source = source;
  r.name = "tegula_lib.cu";
  r.options = {"--std=c++17"};
  if (with_cccl) {
    r.options.push_back("-I" + cccl_include_dir());
    for (const auto& home : get_config().cuda_homes)
      if (is_dir(home + "/include")) r.options.push_back("-I" + home + "/include");
  }
  r.name_expressions = names;
  r.arch = arch;
  r.made_by = jit::component::cub;
  r.kernel_name = label;
  return r;
}

jit::compile_request cub_request(const std::string& source, const std::vector<std::string>& names, int arch) {
  return library_request(source, names, arch, names.empty() ? std::string("cub scan") : "cub: " + names.front(), true);
}

namespace {

std::shared_ptr<rt::object_code> compile_request_now(const jit::compile_request& r) {
  auto compiled = jit::compile(r);
  rt::prof::record_compile(r.kernel_name, compiled->seconds, jit::outcome_name(compiled->outcome));
  return std::make_shared<rt::object_code>(compiled->result->code, rt::object_code::kind::cubin,
                                           compiled->result->lowered_names);
}

}  // namespace

std::shared_ptr<rt::object_code> compile_nvrtc(const std::string& source, const std::vector<std::string>& names,
                                               int arch, const std::string& label, bool with_cccl) {
  return compile_request_now(library_request(source, names, arch, label, with_cccl));
}

std::shared_ptr<rt::object_code> compile_cub(const std::string& source, const std::vector<std::string>& names, int arch) {
  return compile_request_now(cub_request(source, names, arch));
}

rt::launch_config cub_launch_config(unsigned grid, unsigned threads) {
  rt::launch_config c;
  c.grid = {grid, 1, 1};
  c.block = {threads, 1, 1};
  return c;
}

cub_params::cub_params(rt::kernel& k) : k_(k), buf_(k.params_bytes()) {
  std::memset(buf_.data(), 0, k.params_bytes());
}

void cub_params::put(const void* bytes, std::size_t n) {
  const auto& ps = k_.params();
  if (next_ >= ps.size() || ps[next_].size != n)
    fail(error_kind::internal, "CUB kernel ", k_.name(), ": parameter ", next_, " is not ", n, " bytes");
  buf_.put(ps[next_].offset, bytes, n);
  ++next_;
}

}  // namespace tegula::libs
