// Fast Fourier transforms through cuFFT (see cufft.hpp).
#include "tegula/libs/cufft.hpp"

#include <cufft.h>  // types and prototypes only: the library is dlopen'd (DESIGN.md rule 4)

#include <map>
#include <mutex>

#include "tegula/runtime/device.hpp"
#include "tegula/runtime/profiler.hpp"
#include "tegula/runtime/stream.hpp"
#include "tegula/support/config.hpp"
#include "tegula/support/dynlib.hpp"
#include "tegula/support/error.hpp"

namespace tegula::libs {
namespace {

#define TEGULA_FFT_FUNCTIONS(X)                                                                       \
  X(cufftCreate) X(cufftMakePlanMany64) X(cufftSetStream) X(cufftExecC2C) X(cufftExecZ2Z) X(cufftExecR2C) \
  X(cufftExecD2Z) X(cufftExecC2R) X(cufftExecZ2D) X(cufftDestroy) X(cufftGetVersion)

struct api_t {
  dynlib lib;
#define TEGULA_DECL(name) decltype(&::name) name = nullptr;
  TEGULA_FFT_FUNCTIONS(TEGULA_DECL)
#undef TEGULA_DECL
};

const api_t& api() {
  static const api_t a = [] {
    const std::vector<std::string> dirs = cuda_library_dirs();
    api_t x;
    x.lib = dynlib::open("cuFFT (CUDA's FFT library)", {"libcufft.so.12", "libcufft.so.11", "libcufft.so"}, dirs);
#define TEGULA_GET(name) x.lib.require(x.name, #name, "cuFFT");
    TEGULA_FFT_FUNCTIONS(TEGULA_GET)
#undef TEGULA_GET
    return x;
  }();
  return a;
}

void check(cufftResult r, const char* call) {
  if (r == CUFFT_SUCCESS) return;
  error_kind k = r == CUFFT_ALLOC_FAILED ? error_kind::out_of_memory
                 : (r == CUFFT_INVALID_SIZE || r == CUFFT_INVALID_VALUE || r == CUFFT_INVALID_TYPE) ? error_kind::invalid_argument
                                                                                                     : error_kind::cuda;
  fail(k, call, " failed with cufftResult ", int(r));
}

struct plan_entry {
  cufftHandle h = 0;
};

std::mutex& lock() {
  static std::mutex m;
  return m;
}

cufftType type_of(const fft_problem& p) {
  switch (p.kind) {
    case fft_kind::c2c: return p.double_precision ? CUFFT_Z2Z : CUFFT_C2C;
    case fft_kind::r2c: return p.double_precision ? CUFFT_D2Z : CUFFT_R2C;
    case fft_kind::c2r: return p.double_precision ? CUFFT_Z2D : CUFFT_C2R;
  }
  return CUFFT_C2C;
}

}  // namespace

void fft(rt::device& dev, const rt::stream& s, const fft_problem& p) {
  if (p.shape.empty() || p.shape.size() > 3) fail(error_kind::invalid_argument, "cuFFT transforms 1 to 3 axes at once");
  for (auto e : p.shape)
    if (e < 1) fail(error_kind::invalid_argument, "Invalid number of FFT data points (", e, ") specified.");
  if (p.batch < 1) return;
  rt::prof::host_scope timing(rt::prof::kind::library, "cufft", &s);
  std::lock_guard<std::mutex> g(lock());
  static std::map<std::string, plan_entry>* plans = new std::map<std::string, plan_entry>();  // leaked at exit
  std::string key = str(dev.ordinal(), ":", int(type_of(p)), ":", p.batch);
  for (auto e : p.shape) key += str(",", e);
  auto it = plans->find(key);
  if (it == plans->end()) {
    dev.make_current();
    if (plans->size() > 64) {
      for (auto& [k, e] : *plans) api().cufftDestroy(e.h);
      plans->clear();
    }
    plan_entry e;
    check(api().cufftCreate(&e.h), "cufftCreate");
    std::vector<long long> n(p.shape.begin(), p.shape.end());
    std::size_t work = 0;
    // Packed layouts: nullptr embeds; cuFFT derives the complex side's n/2+1 for r2c/c2r.
    cufftResult r = api().cufftMakePlanMany64(e.h, int(n.size()), n.data(), nullptr, 1, 0, nullptr, 1, 0, type_of(p),
                                              p.batch, &work);
    if (r != CUFFT_SUCCESS) {
      api().cufftDestroy(e.h);
      check(r, "cufftMakePlanMany64");
    }
    it = plans->emplace(key, e).first;
  }
  cufftHandle h = it->second.h;
  dev.make_current();
  check(api().cufftSetStream(h, s.handle()), "cufftSetStream");
  void* in = reinterpret_cast<void*>(p.in);
  void* out = reinterpret_cast<void*>(p.out);
  const int dir = p.inverse ? CUFFT_INVERSE : CUFFT_FORWARD;
  switch (type_of(p)) {
    case CUFFT_C2C: check(api().cufftExecC2C(h, static_cast<cufftComplex*>(in), static_cast<cufftComplex*>(out), dir), "cufftExecC2C"); break;
    case CUFFT_Z2Z: check(api().cufftExecZ2Z(h, static_cast<cufftDoubleComplex*>(in), static_cast<cufftDoubleComplex*>(out), dir), "cufftExecZ2Z"); break;
    case CUFFT_R2C: check(api().cufftExecR2C(h, static_cast<cufftReal*>(in), static_cast<cufftComplex*>(out)), "cufftExecR2C"); break;
    case CUFFT_D2Z: check(api().cufftExecD2Z(h, static_cast<cufftDoubleReal*>(in), static_cast<cufftDoubleComplex*>(out)), "cufftExecD2Z"); break;
    case CUFFT_C2R: check(api().cufftExecC2R(h, static_cast<cufftComplex*>(in), static_cast<cufftReal*>(out)), "cufftExecC2R"); break;
    case CUFFT_Z2D: check(api().cufftExecZ2D(h, static_cast<cufftDoubleComplex*>(in), static_cast<cufftDoubleReal*>(out)), "cufftExecZ2D"); break;
    default: fail(error_kind::internal, "cuFFT type");
  }
}

std::string cufft_info() {
  int v = 0;
  api().cufftGetVersion(&v);
  return str(api().lib.path(), " (version ", v, ")");
}

}  // namespace tegula::libs
