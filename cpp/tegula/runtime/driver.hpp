// The CUDA driver API, loaded with dlopen at first use: never linked (DESIGN.md rule 4).
#pragma once
#include <cuda.h>

#include <string>

namespace tegula::rt {

// One pointer per entry point of driver_functions.def. Member names go through cuda.h's macros
// (cuMemcpyDtoDAsync -> cuMemcpyDtoDAsync_v2), and so do calls, so `drv().cuX(...)` always names
// the member of the right signature; the loader asks cuGetProcAddress for the unversioned name
// with CUDA_VERSION, which returns that same version.
struct driver_api {
#define TEGULA_CU(name) decltype(&::name) name = nullptr;
#define TEGULA_CU_AT(name, version) decltype(&::name) name = nullptr;
#include "tegula/runtime/driver_functions.def"
#undef TEGULA_CU
#undef TEGULA_CU_AT
  int version = 0;   // cuDriverGetVersion, e.g. 13000
  std::string path;  // the libcuda that was loaded
};

// Loads libcuda and calls cuInit(0) once. Throws error_kind::driver_missing when there is no
// driver or no device, with a message saying what was looked for.
const driver_api& drv();
// True when drv() would succeed; never throws (for `tegula info` and test skips).
bool driver_available(std::string* why = nullptr);

// Throws the tegula::error for a failed call: out_of_memory for CUDA_ERROR_OUT_OF_MEMORY, else
// error_kind::cuda with the error's name and text; sticky errors (illegal address, trap, ...) say
// the context is lost and name the last kernel this thread launched.
[[noreturn]] void throw_cuda_error(CUresult result, const char* call);
inline void check(CUresult result, const char* call) {
  if (result != CUDA_SUCCESS) throw_cuda_error(result, call);
}
// True for the errors after which every CUDA call in the process fails.
bool is_sticky(CUresult result);

// The kernel name that throw_cuda_error reports for sticky errors (set by launch; thread-local).
void note_launch(const std::string* kernel_name);

}  // namespace tegula::rt

#define TEGULA_CHECK(call) ::tegula::rt::check((call), #call)
