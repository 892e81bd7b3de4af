// tt.launch in C++: per tile kernel, its compiled specializations keyed by the argument signature (kernel/signature).
//
// tt.launch (tile_launch below) reads the arguments here (tile_arguments.hpp): GPU torch tensors, tegula arrays,
// __cuda_array_interface__ objects, numpy arrays for the interpreter, Python scalars, tt.Constant values and
// arguments Python shaped (KernelArg, tegula.tile._args). A signature seen before launches at once (no Python frame,
// no per-call Python objects); an unseen one asks Python once for the kernel's IR (the AST translation,
// Kernel._translate), compiles it with the kernel module and launches it, all from here. What is left (numpy
// scalars, host copies of GPU arrays for the interpreter, errors) goes to Python (tile/_kernel.py:_launch_slow),
// which shapes the arguments and comes back here. The kernel module packs (one ABI packer); the signature is
// written only by kernel/signature.
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <cstdio>
#include <string>
#include <unordered_map>
#include <vector>

#include "tegula/bindings/bind_support.hpp"
#include "tegula/bindings/interruptible.hpp"
#include "tegula/bindings/kernel_args.hpp"
#include "tegula/bindings/tile_arguments.hpp"
#include "tegula/bindings/runtime_common.hpp"
#include "tegula/kernel/launch.hpp"
#include "tegula/kernel/signature.hpp"
#include "tegula/support/config.hpp"
#include "tegula/support/error.hpp"

namespace tegula::bind {
namespace {

// tegula.tile.PerformanceWarning, looked up once.
PyObject* performance_warning() {
  static PyObject* category = [] {
    PyObject* mod = PyImport_ImportModule("tegula.tile._kernel");
    PyObject* c = mod ? PyObject_GetAttrString(mod, "PerformanceWarning") : nullptr;
    Py_XDECREF(mod);
    if (!c) PyErr_Clear();
    return c ? c : PyExc_UserWarning;  // leaked: lives as long as the interpreter
  }();
  return category;
}

void warn(const std::string& message) {
  if (PyErr_WarnEx(performance_warning(), message.c_str(), 1) < 0) throw nb::python_error();
}

// One thread's scratch for reading a call's arguments, reused call after call (no allocation in the steady state).
// Per thread: reading an argument may run Python code (a __cuda_array_interface__ property, a constant's repr), and
// another thread may launch meanwhile. A call that runs Python after reading (a translation, a warning) copies
// first: that Python may launch tile kernels on this thread too.
struct call_scratch {
  std::string key, full;
  std::vector<kernel::argument> args;
};
call_scratch& scratch() {
  thread_local call_scratch s;
  return s;
}

struct variant {
  std::string key;
  std::shared_ptr<const kernel::compiled> k;
  std::uint64_t warned = 0;  // tensor-map arrays already reported as repacked
};

class tile_launcher {
 public:
  tile_launcher(std::vector<bool> is_constant, int num_stages, int cluster)
      : is_constant_(std::move(is_constant)), num_stages_(num_stages), cluster_(cluster) {}

  // Reads `args` into the scratch's key (without its target) and arguments; false when some argument is of a kind
  // only Python shapes (for the interpreter: arrays other than numpy's and KernelArgs, whose memory is not host's).
  bool describe(nb::handle args_obj, bool interpret, PyObject** first_tensor = nullptr) {
    call_scratch& sc = scratch();
    if (!PyTuple_Check(args_obj.ptr())) return false;
    PyObject* args = args_obj.ptr();
    std::size_t n = static_cast<std::size_t>(PyTuple_GET_SIZE(args));
    if (n != is_constant_.size()) return false;  // Python raises the arity error
    sc.key.clear();
    sc.args.clear();
    for (std::size_t i = 0; i < n; ++i) {
      PyObject* a = PyTuple_GET_ITEM(args, i);
      kernel::array_arg arr;
      kernel::scalar_arg scalar;
      if (is_constant_[i]) {
        constant_key(a, sc.key);
        continue;
      }
      if (nb::isinstance<shaped_arg>(a)) {
        sc.args.push_back(nb::inst_ptr<shaped_arg>(a)->arg);
      } else if (!interpret && torch_array(a, arr)) {
        if (first_tensor && !*first_tensor) *first_tensor = a;
        sc.args.push_back(arr);
      } else if (!interpret && tegula_array(a, arr)) {
        sc.args.push_back(arr);
      } else if (interpret ? numpy_array(a, arr) : cuda_interface_array(a, arr)) {
        sc.args.push_back(arr);
      } else if (python_scalar(a, scalar)) {
        sc.args.push_back(scalar);
      } else {
        return false;
      }
      if (const auto* x = std::get_if<kernel::array_arg>(&sc.args.back())) kernel::key_array(sc.key, *x);
      else kernel::key_scalar(sc.key, std::get<kernel::scalar_arg>(sc.args.back()).t);
    }
    return true;
  }

  // Launches and returns None; on an unseen signature with no `kernel` to translate, returns the key (bytes);
  // False when the arguments or the grid need Python's path.
  nb::object launch(nb::handle grid, nb::handle args, nb::handle stream, nb::handle kernel_obj) {
    call_scratch& sc = scratch();
    PyObject* tensor = nullptr;
    if (!describe(args, false, &tensor)) return nb::bool_(false);
    kernel::grid3 g;
    if (!read_grid(grid.ptr(), g)) return nb::bool_(false);  // Python raises the clear error
    std::shared_ptr<rt::stream> hold;
    nb::object torch_stream;
    nb::handle s = stream;
    if (stream.is_none() && tensor) {
      torch_stream = torch_current_stream(tensor);
      if (PyLong_Check(torch_stream.ptr()) && PyLong_AsUnsignedLongLong(torch_stream.ptr()) != 0) s = torch_stream;
    }
    const rt::stream& on = to_stream(s, hold);
    if (variant* v = find(on.dev().arch())) {  // the steady state: no Python, no allocation
      const kernel::launch_report r = kernel::launch(*v->k, sc.args, g, &on);
      if (r.repacked & ~v->warned) warn_repacked(std::string(sc.full), r.repacked, std::vector<kernel::argument>(sc.args));
      return nb::none();
    }
    if (kernel_obj.is_none()) return nb::bytes(sc.key.data(), sc.key.size());
    // Python (the translation) runs below and may launch on this thread (reusing the scratch): keep copies.
    const std::string key = sc.full;
    const std::vector<kernel::argument> in = sc.args;
    std::shared_ptr<const kernel::compiled> k = compile_variant(kernel_obj, args, key, in, &on.dev());
    const kernel::launch_report r = kernel::launch(*k, in, g, &on);
    if (r.repacked) warn_repacked(key, r.repacked, in);
    return nb::none();
  }

  // The compiled specialization for `args` (on `stream`'s device, or the interpreter's), compiling it on first
  // use; None when the arguments need Python's shaping.
  nb::object compile(nb::handle kernel_obj, nb::handle args, bool interpret, nb::handle stream) {
    call_scratch& sc = scratch();
    if (!describe(args, interpret)) return nb::none();
    rt::device* dev = nullptr;
    std::shared_ptr<rt::stream> hold;
    if (!interpret) dev = &to_stream(stream, hold).dev();
    std::shared_ptr<const kernel::compiled> k;
    if (variant* v = find(dev ? dev->arch() : 0)) k = v->k;
    else k = compile_variant(kernel_obj, args, sc.full, sc.args, dev);
    return nb::cast(std::const_pointer_cast<kernel::compiled>(k));
  }

  // The kernel's translation for `args` and `arch` (kernel::translate with this kernel's target, every stage kept),
  // with no GPU and nothing kept here: what tegula.explain reports. None when the arguments need Python's shaping.
  nb::object translate(nb::handle kernel_obj, nb::handle args, int arch) {
    call_scratch& sc = scratch();
    if (!describe(args, true)) return nb::none();
    const std::vector<kernel::argument> in = sc.args;  // copies: Python runs below
    nb::object fn = translate_ir(kernel_obj, args, in);
    return nb::cast(kernel::translate(nb::cast<const ir::function&>(fn), target_for(in, nullptr), arch));
  }

  // Runs on the CPU interpreter (the GIL released, Ctrl-C raising KeyboardInterrupt); false when the arguments
  // need Python's shaping.
  bool interpret(nb::handle kernel_obj, nb::handle grid, nb::handle args) {
    call_scratch& sc = scratch();
    if (!describe(args, true)) return false;
    kernel::grid3 g;
    if (!read_grid(grid.ptr(), g)) return false;
    const std::string key = full_key(0);
    const std::vector<kernel::argument> in = sc.args;  // copies: Python runs below (see launch)
    std::shared_ptr<const kernel::compiled> k;
    if (variant* v = find(0)) k = v->k;
    else k = compile_variant(kernel_obj, args, key, in, nullptr);
    signal_watch watch;
    try {
      nb::gil_scoped_release release;
      kernel::launch(*k, in, g, nullptr, [&] { return watch.check(); });
    } catch (const error& e) {
      if (e.kind() == error_kind::interrupted && watch.raised()) watch.rethrow();  // the handler's own exception
      throw;
    }
    return true;
  }

  nb::object describe_for_tests(nb::handle args) {
    call_scratch& sc = scratch();
    if (!describe(args, false)) return nb::none();
    nb::list values;
    kernel::for_each_param(sc.args, [&](const void* p, std::size_t n) {
      values.append(nb::bytes(static_cast<const char*>(p), n));
    });
    return nb::make_tuple(nb::bytes(sc.key.data(), sc.key.size()), values);
  }

  std::size_t size() const { return variants_.size(); }
  void clear() { variants_.clear(); }

 private:
  // The scratch's key for `arch` (0: the interpreter), in its `full`.
  const std::string& full_key(int arch) {
    call_scratch& sc = scratch();
    sc.full.clear();
    kernel::key_target(sc.full, arch);
    sc.full += sc.key;
    return sc.full;
  }

  // The variant of the scratch's key on `arch`: a kernel has few, a linear scan is fastest.
  variant* find(int arch) {
    call_scratch& sc = scratch();
    full_key(arch);
    for (auto& candidate : variants_)
      if (candidate.key == sc.full) return &candidate;
    return nullptr;
  }

  // The kernel module's target for `in` on `dev` (null: the interpreter), with this kernel's options.
  kernel::target target_for(const std::vector<kernel::argument>& in, rt::device* dev) const {
    kernel::target t;
    t.device = dev;
    t.arrays = kernel::declared_layouts(in);
    t.stages = num_stages_;
    t.cluster = cluster_;
    t.keep_stages = true;
    t.nvrtc = compile_interruptibly;
    t.made_by = jit::component::tile;
    return t;
  }

  // The kernel's pre-pass IR for `args` (`in`: their kernel arguments): Python's front end, Kernel._translate.
  // `in` is read before any Python runs (it may be the scratch).
  nb::object translate_ir(nb::handle kernel_obj, nb::handle args, const std::vector<kernel::argument>& in) const {
    nb::list specs;
    std::size_t next = 0;
    for (std::size_t i = 0; i < is_constant_.size(); ++i) {
      if (is_constant_[i]) {
        specs.append(nb::make_tuple("const", nb::handle(PyTuple_GET_ITEM(args.ptr(), i))));
        continue;
      }
      const kernel::argument& a = in.at(next++);
      if (const auto* x = std::get_if<kernel::array_arg>(&a))
        specs.append(nb::make_tuple("array", std::string(ir::name(x->t)), x->rank));
      else
        specs.append(nb::make_tuple("scalar", std::string(ir::name(std::get<kernel::scalar_arg>(a).t))));
    }
    return kernel_obj.attr("_translate")(specs);
  }

  // Translates (Python's front end, once per signature), compiles and keeps the specialization of `key` for `in`
  // (copies or the scratch, read before any Python runs).
  std::shared_ptr<const kernel::compiled> compile_variant(nb::handle kernel_obj, nb::handle args, std::string key,
                                                          const std::vector<kernel::argument>& in, rt::device* dev) {
    const kernel::target t = target_for(in, dev);
    nb::object fn = translate_ir(kernel_obj, args, in);  // from here on the scratch may change (Python ran)
    std::shared_ptr<const kernel::compiled> k = kernel::compile(nb::cast<const ir::function&>(fn), t);
    if (!k->source.note.empty())
      warn(str("tile kernel '", k->fn.name, "': mma runs on CUDA cores, not tensor cores: ", k->source.note));
    for (auto& v : variants_)
      if (v.key == key) return v.k;  // compiled meanwhile (another thread, while NVRTC ran without the GIL)
    variants_.push_back({std::move(key), k, 0});
    return k;
  }

  // Says once per array of the variant of `key` that its rows were repacked for the copy engine.
  // `key` and `in` are the caller's own copies: warnings may run Python, which may reuse the scratch.
  void warn_repacked(const std::string& key, std::uint64_t repacked, const std::vector<kernel::argument>& in) {
    variant* v = nullptr;
    for (auto& candidate : variants_)
      if (candidate.key == key) v = &candidate;
    if (!v) return;
    std::vector<const kernel::array_arg*> arrays;
    for (const auto& a : in)
      if (const auto* x = std::get_if<kernel::array_arg>(&a)) arrays.push_back(x);
    const std::string name = v->k->fn.name;
    for (std::size_t i = 0; i < 64 && i < arrays.size(); ++i) {
      const std::uint64_t bit = std::uint64_t(1) << i;
      if (!(repacked & bit) || (v->warned & bit)) continue;
      v->warned |= bit;
      const kernel::array_arg& a = *arrays[i];
      // snprintf, not an ostream in hex: that crashed in the extension's own libstdc++ (std::hex on an
      // unsigned long inside a locale facet, seen on an H100 with torch loaded).
      char address[32];
      std::snprintf(address, sizeof address, "%llx", static_cast<unsigned long long>(a.address));
      // warn() may run Python (a warnings filter): `v` is not used after it.
      warn(str("tile kernel '", name, "': array argument ", i, " has rows the copy engine cannot address (",
               a.strides[0] * ir::size_bytes(a.t), "-byte stride, address 0x", address,
               "): it is copied into 16-byte aligned rows before each launch (one extra pass over it)"));
      return warn_repacked(key, repacked, in);  // the rest, looking the variant up again
    }
  }

  // An int or a tuple of 1-3 positive ints; false otherwise (Python's grid_tuple explains).
  static bool read_grid(PyObject* g, kernel::grid3& out) {
    long long v[3] = {1, 1, 1};
    std::size_t n = 1;
    if (PyLong_CheckExact(g)) {
      v[0] = PyLong_AsLongLong(g);
    } else if (PyTuple_Check(g) && PyTuple_GET_SIZE(g) >= 1 && PyTuple_GET_SIZE(g) <= 3) {
      n = static_cast<std::size_t>(PyTuple_GET_SIZE(g));
      if (!read_ints(g, v, n)) return false;
    } else {
      return false;
    }
    if (PyErr_Occurred()) {
      PyErr_Clear();
      return false;
    }
    for (int i = 0; i < 3; ++i) {
      if (v[i] < 1 || v[i] > 2147483647ll) return false;
      out[std::size_t(i)] = v[i];
    }
    return true;
  }

  std::vector<bool> is_constant_;
  int num_stages_ = 0, cluster_ = 1;
  std::vector<variant> variants_;  // a kernel has few specializations: a linear scan is fastest

};

}  // namespace

nb::object& launch_fallback() {
  static auto* f = new nb::object();  // leaked: set once by tegula.tile, lives with the interpreter
  return *f;
}

// tt.launch: launches from C++ when it can read the arguments; anything else goes to Python's
// tile._kernel._launch_slow(kernel, grid, args, stream, interpret).
nb::object tile_launch(nb::handle kernel, nb::handle grid, nb::handle args, nb::handle stream, nb::handle interpret) {
  static PyObject* launcher_name = PyUnicode_InternFromString("_launcher");
  bool interp = interpret.is_none() ? get_config().interpret : PyObject_IsTrue(interpret.ptr()) == 1;
  nb::object l = get_attr(kernel.ptr(), launcher_name);
  if (l.is_valid() && nb::isinstance<tile_launcher>(l)) {
    tile_launcher& launcher = *nb::inst_ptr<tile_launcher>(l);
    if (interp ? launcher.interpret(kernel, grid, args) : launcher.launch(grid, args, stream, kernel).is_none())
      return nb::none();
  }
  if (!launch_fallback().is_valid()) fail(error_kind::internal, "tegula.tile did not register its launch fallback");
  return launch_fallback()(kernel, grid, args, stream, interpret);
}

void bind_tile_launcher(nb::module_& m) {
  nb::class_<tile_launcher>(m, "TileLauncher", "The compiled specializations of one tile kernel and their launch.")
      .def(nb::init<std::vector<bool>, int, int>(), nb::arg("is_constant"), nb::arg("num_stages") = 0,
           nb::arg("cluster") = 1)
      .def("launch", &tile_launcher::launch, nb::arg("grid"), nb::arg("args"), nb::arg("stream").none(),
           nb::arg("kernel").none() = nb::none(),
           "None when launched; the signature key (bytes) when unseen and no kernel is given to translate; False "
           "when the arguments need Python's shaping.")
      .def("compile", &tile_launcher::compile, nb::arg("kernel"), nb::arg("args"), nb::arg("interpret"),
           nb::arg("stream").none() = nb::none(), "The CompiledKernel for `args` (compiled on first use), or None.")
      .def("translate", &tile_launcher::translate, nb::arg("kernel"), nb::arg("args"), nb::arg("arch"),
           "The KernelTranslation for `args` (host or shaped arguments) and `arch`, with no GPU; None when the "
           "arguments need Python's shaping.")
      .def("interpret", &tile_launcher::interpret, nb::arg("kernel"), nb::arg("grid"), nb::arg("args"))
      .def("describe", &tile_launcher::describe_for_tests, nb::arg("args"),
           "(key bytes, [packed parameter bytes]) or None: for tests.")
      .def("__len__", &tile_launcher::size)
      .def("clear", &tile_launcher::clear, "Drops every compiled specialization.");
  m.def("tile_launch", &tile_launch, nb::arg("kernel"), nb::arg("grid"), nb::arg("args"), nb::arg("stream").none() = nb::none(),
        nb::arg("interpret").none() = nb::none(),
        "tt.launch(kernel, grid, args, stream=None, interpret=None): runs `kernel` once per block of `grid`.");
  m.def("set_tile_launch_fallback", [](nb::object f) { launch_fallback() = std::move(f); });
}

}  // namespace tegula::bind
