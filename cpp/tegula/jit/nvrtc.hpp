// NVRTC, loaded with dlopen at first use: CUDA C++ text -> CUBIN (exact arch) or PTX.
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "tegula/jit/cache_entry.hpp"

namespace tegula::jit {

enum class target { cubin, ptx };

struct compile_request {
  std::string source;
  std::string name = "tegula_program.cu";  // program name, shown in the compile log
  std::vector<std::string> options;        // NVRTC options, except the -arch flag (`arch` sets it)
  std::vector<std::pair<std::string, std::string>> headers;  // (include name, contents)
  std::vector<std::string> name_expressions;                 // e.g. "axpy<float>"
  int arch = 90;               // compute capability as major*10+minor: 90 -> sm_90 / compute_90
  bool arch_specific = false;  // true -> sm_90a (needed for wgmma and setmaxnreg)
  target kind = target::cubin;
  // Not in the key: what the disk cache records about the entry (`tegula cache ls`). Each caller says who it is.
  component made_by = component::other;
  std::string kernel_name;  // the readable name listed; "" -> `name`
};

struct compile_result {
  target kind = target::cubin;
  std::string code;  // CUBIN bytes or PTX text
  std::string log;   // the compiler's log (warnings), possibly empty
  std::vector<std::pair<std::string, std::string>> lowered_names;  // name expression -> mangled
};

// NVRTC's version as major*1000 + minor*10 (12.8 -> 12080); loads NVRTC.
int nvrtc_version();
// Path of the loaded NVRTC library (for `tegula info`); loads NVRTC.
std::string nvrtc_path();
// Compiles with NVRTC, no caching. A compile failure throws error_kind::compile whose message
// holds the program name and the full compile log; a missing NVRTC throws driver_missing.
compile_result nvrtc_compile(const compile_request& request);

}  // namespace tegula::jit
