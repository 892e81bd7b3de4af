// NVRTC, loaded with dlopen at first use: CUDA C++ text -> CUBIN (exact arch) or PTX.
#include "tegula/jit/nvrtc.hpp"

#include <nvrtc.h>  // types and prototypes only: NVRTC is dlopen'd, never linked (DESIGN.md rule 4)
#include <signal.h>

#include <mutex>

#include "tegula/support/config.hpp"
#include "tegula/support/dynlib.hpp"
#include "tegula/support/error.hpp"

namespace tegula::jit {
namespace {

// The entry points tegula uses, typed from nvrtc.h so a signature change breaks the build.
struct nvrtc_api {
  dynlib lib;
  decltype(&::nvrtcVersion) version = nullptr;
  decltype(&::nvrtcCreateProgram) create_program = nullptr;
  decltype(&::nvrtcDestroyProgram) destroy_program = nullptr;
  decltype(&::nvrtcCompileProgram) compile_program = nullptr;
  decltype(&::nvrtcGetProgramLogSize) get_program_log_size = nullptr;
  decltype(&::nvrtcGetProgramLog) get_program_log = nullptr;
  decltype(&::nvrtcGetPTXSize) get_ptx_size = nullptr;
  decltype(&::nvrtcGetPTX) get_ptx = nullptr;
  decltype(&::nvrtcGetCUBINSize) get_cubin_size = nullptr;
  decltype(&::nvrtcGetCUBIN) get_cubin = nullptr;
  decltype(&::nvrtcAddNameExpression) add_name_expression = nullptr;
  decltype(&::nvrtcGetLoweredName) get_lowered_name = nullptr;
  decltype(&::nvrtcGetErrorString) get_error_string = nullptr;
};

template <class Fn>
void resolve(const dynlib& lib, Fn& fn, const char* name) {
  fn = reinterpret_cast<Fn>(lib.symbol(name));
  if (!fn)
    fail(error_kind::driver_missing, "NVRTC at ", lib.path(), " lacks the symbol ", name,
         " (too old an NVRTC?)");
}

nvrtc_api load_api() {
  const std::vector<std::string> dirs = cuda_library_dirs();
  nvrtc_api api;
  api.lib = dynlib::open("NVRTC (CUDA's run-time compiler)",
                         {"libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so"}, dirs);
  resolve(api.lib, api.version, "nvrtcVersion");
  resolve(api.lib, api.create_program, "nvrtcCreateProgram");
  resolve(api.lib, api.destroy_program, "nvrtcDestroyProgram");
  resolve(api.lib, api.compile_program, "nvrtcCompileProgram");
  resolve(api.lib, api.get_program_log_size, "nvrtcGetProgramLogSize");
  resolve(api.lib, api.get_program_log, "nvrtcGetProgramLog");
  resolve(api.lib, api.get_ptx_size, "nvrtcGetPTXSize");
  resolve(api.lib, api.get_ptx, "nvrtcGetPTX");
  resolve(api.lib, api.get_cubin_size, "nvrtcGetCUBINSize");
  resolve(api.lib, api.get_cubin, "nvrtcGetCUBIN");
  resolve(api.lib, api.add_name_expression, "nvrtcAddNameExpression");
  resolve(api.lib, api.get_lowered_name, "nvrtcGetLoweredName");
  resolve(api.lib, api.get_error_string, "nvrtcGetErrorString");
  return api;
}

// Loaded once per process (a function-local static is initialised thread-safely). A failed
// load throws and is retried on the next call, so installing NVRTC later in a session works.
const nvrtc_api& api() {
  static const nvrtc_api a = load_api();
  return a;
}

std::string result_name(nvrtcResult r) {
  const char* s = api().get_error_string(r);
  return s ? std::string(s) : str("nvrtcResult ", int(r));
}

// Destroys the program on every path out of nvrtc_compile, including exceptions.
class program_guard {
 public:
  explicit program_guard(nvrtcProgram p) : p_(p) {}
  program_guard(const program_guard&) = delete;
  program_guard& operator=(const program_guard&) = delete;
  ~program_guard() {
    if (p_) api().destroy_program(&p_);  // nothing useful to do with a failure here
  }
  nvrtcProgram get() const { return p_; }

 private:
  nvrtcProgram p_;
};

std::string program_log(nvrtcProgram prog) {
  std::size_t size = 0;
  if (api().get_program_log_size(prog, &size) != NVRTC_SUCCESS || size == 0) return {};
  std::string log(size, '\0');
  if (api().get_program_log(prog, log.data()) != NVRTC_SUCCESS) return {};
  while (!log.empty() && log.back() == '\0') log.pop_back();  // the size counts the NUL
  return log;
}

std::string arch_flag(const compile_request& r) {
  const char* prefix = r.kind == target::cubin ? "-arch=sm_" : "-arch=compute_";
  return str(prefix, r.arch, r.arch_specific ? "a" : "");
}

std::string joined(const std::vector<std::string>& options) {
  std::string s;
  for (const auto& o : options) s += (s.empty() ? "" : " ") + o;
  return s;
}

// Every NVRTC call but the compile itself: a failure names the call and the program.
void check(nvrtcResult r, const char* call, const compile_request& request) {
  if (r != NVRTC_SUCCESS)
    throw error(error_kind::compile,
                str(call, " failed for ", request.name, ": ", result_name(r)), int(r));
}

// NVRTC's first compile in a process installs a SIGINT handler of its own for as long as that
// compile runs (its C++ front end's), and the handler ends the whole process with exit status 4:
// a Ctrl-C then, or a SIGINT from any thread, kills Python instead of raising KeyboardInterrupt.
// The front end leaves SIGINT alone when it finds it ignored, so the process's first compile is
// a tiny one made with SIGINT ignored for its few milliseconds; the real compiles that follow
// find their handler set up already and leave Python's in place. A SIGINT that lands in those
// milliseconds is lost, which beats losing the process.
void first_compile_keeps_sigint(const nvrtc_api& nv) {
  static std::once_flag once;
  std::call_once(once, [&nv] {
    struct sigaction ignore {}, previous {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    if (sigaction(SIGINT, &ignore, &previous) != 0) return;  // nothing was changed
    nvrtcProgram prog = nullptr;
    if (nv.create_program(&prog, "", "tegula_first_compile", 0, nullptr, nullptr) == NVRTC_SUCCESS) {
      const char* syntax_only[] = {"-fdevice-syntax-only"};  // the front end alone is enough
      if (nv.compile_program(prog, 1, syntax_only) == NVRTC_ERROR_INVALID_OPTION)
        nv.compile_program(prog, 0, nullptr);  // an NVRTC without the option: a whole compile
      nv.destroy_program(&prog);
    }
    sigaction(SIGINT, &previous, nullptr);
  });
}

}  // namespace

int nvrtc_version() {
  int major = 0, minor = 0;
  nvrtcResult r = api().version(&major, &minor);
  if (r != NVRTC_SUCCESS)
    throw error(error_kind::driver_missing, str("nvrtcVersion failed: ", result_name(r)), int(r));
  return major * 1000 + minor * 10;
}

std::string nvrtc_path() { return api().lib.path(); }

compile_result nvrtc_compile(const compile_request& request) {
  const nvrtc_api& nv = api();
  first_compile_keeps_sigint(nv);

  std::vector<const char*> header_sources, header_names;
  for (const auto& [name, contents] : request.headers) {
    header_names.push_back(name.c_str());
    header_sources.push_back(contents.c_str());
  }
  nvrtcProgram raw = nullptr;
  check(nv.create_program(&raw, request.source.c_str(), request.name.c_str(),
                          int(request.headers.size()), header_sources.data(),
                          header_names.data()),
        "nvrtcCreateProgram", request);
  program_guard prog(raw);

  // Name expressions must be registered before compiling; their lowered names exist after.
  for (const auto& expr : request.name_expressions)
    check(nv.add_name_expression(prog.get(), expr.c_str()), "nvrtcAddNameExpression", request);

  std::vector<std::string> options;
  options.push_back(arch_flag(request));
  options.insert(options.end(), request.options.begin(), request.options.end());
  std::vector<const char*> option_ptrs;
  for (const auto& o : options) option_ptrs.push_back(o.c_str());

  nvrtcResult r = nv.compile_program(prog.get(), int(option_ptrs.size()), option_ptrs.data());
  compile_result result;
  result.kind = request.kind;
  result.log = program_log(prog.get());
  if (r != NVRTC_SUCCESS)
    throw error(error_kind::compile,
                str("compiling ", request.name, " failed (", result_name(r),
                    ")\noptions: ", joined(options), "\n", result.log),
                int(r));

  std::size_t size = 0;
  if (request.kind == target::cubin) {
    check(nv.get_cubin_size(prog.get(), &size), "nvrtcGetCUBINSize", request);
    result.code.resize(size);
    check(nv.get_cubin(prog.get(), result.code.data()), "nvrtcGetCUBIN", request);
  } else {
    check(nv.get_ptx_size(prog.get(), &size), "nvrtcGetPTXSize", request);
    result.code.resize(size);
    check(nv.get_ptx(prog.get(), result.code.data()), "nvrtcGetPTX", request);
    // The size counts PTX's terminating NUL; std::string keeps one past the end anyway.
    while (!result.code.empty() && result.code.back() == '\0') result.code.pop_back();
  }

  for (const auto& expr : request.name_expressions) {
    const char* lowered = nullptr;  // owned by the program: copy before it is destroyed
    check(nv.get_lowered_name(prog.get(), expr.c_str(), &lowered), "nvrtcGetLoweredName",
          request);
    result.lowered_names.emplace_back(expr, lowered ? lowered : "");
  }
  return result;
}

}  // namespace tegula::jit
