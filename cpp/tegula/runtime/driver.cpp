// The CUDA driver API, loaded with dlopen at first use: never linked (DESIGN.md rule 4).
#include "tegula/runtime/driver.hpp"

#include <mutex>

#include "tegula/support/dynlib.hpp"
#include "tegula/support/error.hpp"

namespace tegula::rt {
namespace {

using get_proc_t = CUresult (*)(const char*, void**, int, cuuint64_t, CUdriverProcAddressQueryResult*);

driver_api load() {
  dynlib lib;
  try {
    lib = dynlib::open("libcuda", {"libcuda.so.1", "libcuda.so"},
                       {"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/local/nvidia/lib64"});
  } catch (const error& e) {
    fail(error_kind::driver_missing, "no CUDA driver: the NVIDIA driver library (libcuda.so.1) is not installed, "
         "so GPU calls cannot run on this machine. Details: ", e.what());
  }
  auto get_proc = reinterpret_cast<get_proc_t>(lib.symbol("cuGetProcAddress_v2"));
  if (!get_proc)
    fail(error_kind::driver_missing, "the CUDA driver at ", lib.path(),
         " is too old: it has no cuGetProcAddress_v2 (tegula needs a CUDA 12 or newer driver)");
  driver_api api;
  api.path = lib.path();
  auto resolve = [&](const char* name, void** slot, int version) {
    CUdriverProcAddressQueryResult status{};
    CUresult r = get_proc(name, slot, version, CU_GET_PROC_ADDRESS_LEGACY_STREAM, &status);
    if (r != CUDA_SUCCESS || !*slot)
      fail(error_kind::driver_missing, "the CUDA driver at ", lib.path(), " lacks ", name,
           " for CUDA ", CUDA_VERSION / 1000, ".", (CUDA_VERSION % 1000) / 10,
           ": update the NVIDIA driver");
  };
#define TEGULA_CU(name) resolve(#name, reinterpret_cast<void**>(&api.name), CUDA_VERSION);
#define TEGULA_CU_AT(name, version) resolve(#name, reinterpret_cast<void**>(&api.name), version);
#include "tegula/runtime/driver_functions.def"
#undef TEGULA_CU
#undef TEGULA_CU_AT
  CUresult r = api.cuInit(0);
  if (r == CUDA_ERROR_NO_DEVICE)
    fail(error_kind::driver_missing, "the CUDA driver found no CUDA device (cuInit: CUDA_ERROR_NO_DEVICE)");
  if (r != CUDA_SUCCESS) {
    const char* name = nullptr;
    api.cuGetErrorName(r, &name);
    fail(error_kind::driver_missing, "cuInit failed: ", name ? name : "unknown error", " (", int(r),
         "); is the NVIDIA driver working? try nvidia-smi");
  }
  api.cuDriverGetVersion(&api.version);
  return api;
}

struct loaded {
  std::once_flag once;
  driver_api api;
  std::string failure;  // set when loading failed: every later call fails the same way
  error_kind kind = error_kind::driver_missing;
};

loaded& state() {
  static loaded s;
  return s;
}

thread_local const std::string* last_kernel = nullptr;

}  // namespace

const driver_api& drv() {
  loaded& s = state();
  std::call_once(s.once, [&] {
    try {
      s.api = load();
    } catch (const error& e) {
      s.failure = e.what();
      s.kind = e.kind();
    }
  });
  if (!s.failure.empty()) throw error(s.kind, s.failure);
  return s.api;
}

bool driver_available(std::string* why) {
  try {
    drv();
    return true;
  } catch (const error& e) {
    if (why) *why = e.what();
    return false;
  }
}

bool is_sticky(CUresult r) {
  switch (r) {
    case CUDA_ERROR_ILLEGAL_ADDRESS:
    case CUDA_ERROR_ASSERT:
    case CUDA_ERROR_HARDWARE_STACK_ERROR:
    case CUDA_ERROR_ILLEGAL_INSTRUCTION:
    case CUDA_ERROR_MISALIGNED_ADDRESS:
    case CUDA_ERROR_INVALID_ADDRESS_SPACE:
    case CUDA_ERROR_INVALID_PC:
    case CUDA_ERROR_LAUNCH_FAILED:
    case CUDA_ERROR_ECC_UNCORRECTABLE:
      return true;
    default:
      return false;
  }
}

void note_launch(const std::string* kernel_name) { last_kernel = kernel_name; }

void throw_cuda_error(CUresult r, const char* call) {
  const driver_api& api = state().api;  // loaded: a CUresult exists only after a driver call
  const char* name = nullptr;
  const char* text = nullptr;
  if (api.cuGetErrorName) api.cuGetErrorName(r, &name);
  if (api.cuGetErrorString) api.cuGetErrorString(r, &text);
  std::string msg = str(call, " failed: ", name ? name : "CUDA error", " (", int(r), ")",
                        text ? str(": ", text) : std::string());
  if (r == CUDA_ERROR_OUT_OF_MEMORY) throw error(error_kind::out_of_memory, msg, int(r));
  if (is_sticky(r)) {
    if (last_kernel) msg += str(". The last kernel launched from this thread was '", *last_kernel, "'");
    msg += ". This error is sticky: the CUDA context is lost and later CUDA calls in this process "
           "fail; restart the process";
  }
  throw error(error_kind::cuda, msg, int(r));
}

}  // namespace tegula::rt
