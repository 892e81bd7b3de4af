// The tile launch fast path: per-kernel variants keyed by an argument signature computed in C++.
//
// Python's tt.launch asks the launcher first. A signature it has seen launches straight from here
// (no Python frames, no specialization tuples); an unseen one returns its key, Python specializes
// and compiles (tile/_kernel.py), and registers the variant under that key. The key records
// everything Python's specialization depends on (tile/_args.py: describe), so one key never maps
// to two specializations: per array its dtype, rank, last-dim contiguity and 16-byte alignment;
// per scalar its dtype (Python int -> int32 when it fits, else int64; float -> float32; bool);
// per tt.Constant its value (int, float, bool) or type name + repr. The key is binary bytes. Arguments of any other kind (numpy arrays, numpy scalars, ...) are not
// handled here: the launcher says so and Python takes the whole call.
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "tegula/array/expr.hpp"
#include "tegula/array/materialize.hpp"
#include "tegula/bindings/bind_support.hpp"
#include "tegula/bindings/py_array.hpp"
#include "tegula/runtime/profiler.hpp"
#include "tegula/bindings/runtime_common.hpp"
#include "tegula/runtime/launch.hpp"
#include "tegula/runtime/module.hpp"
#include "tegula/support/config.hpp"
#include "tegula/support/error.hpp"

namespace tegula::bind {
namespace {

// One kernel parameter value in the codegen ABI (codegen/cuda.hpp): 8-byte ints or a typed scalar.
struct param_value {
  unsigned char bytes[8];
  std::size_t size;
};

param_value int64_param(long long v) {
  param_value p{{}, 8};
  std::memcpy(p.bytes, &v, 8);
  return p;
}

struct variant {
  std::string key;
  std::shared_ptr<rt::kernel> kernel;
  unsigned block = 0;
  unsigned shared = 0;
};

// Attribute names interned once: PyObject_GetAttr with an interned str skips building a name per call.
struct names {
  PyObject* is_cuda = PyUnicode_InternFromString("is_cuda");
  PyObject* dtype = PyUnicode_InternFromString("dtype");
  PyObject* data_ptr = PyUnicode_InternFromString("data_ptr");
  PyObject* shape = PyUnicode_InternFromString("shape");
  PyObject* stride = PyUnicode_InternFromString("stride");
};

// torch's current stream on the tensor's device (torch._C._cuda_getCurrentRawStream), as a Python int handle;
// None when torch cannot say. Launches given torch tensors and no stream go there, so they are ordered after the
// torch work that produced their inputs (torch.cuda.stream(...) blocks included) and before what reads outputs.
nb::object torch_current_stream(PyObject* tensor) {
  static PyObject* fn = [] {
    PyObject* c = PyImport_ImportModule("torch._C");
    PyObject* f = c ? PyObject_GetAttrString(c, "_cuda_getCurrentRawStream") : nullptr;
    Py_XDECREF(c);
    if (!f) PyErr_Clear();
    return f;  // leaked: lives as long as the interpreter
  }();
  if (!fn) return nb::none();
  static PyObject* get_device = PyUnicode_InternFromString("get_device");
  nb::object dev = nb::steal(PyObject_CallMethodNoArgs(tensor, get_device));
  if (!dev.is_valid()) {
    PyErr_Clear();
    return nb::none();
  }
  PyObject* r = PyObject_CallOneArg(fn, dev.ptr());
  if (!r) {
    PyErr_Clear();
    return nb::none();
  }
  return nb::steal(r);
}
const names& attr_names() {
  static const names* n = new names();  // leaked: lives as long as the interpreter
  return *n;
}

// Key bytes of the tile dtypes (ir::dtype order) and their sizes.
constexpr const char* tile_dtype_names[] = {"bool", "int8", "int16", "int32", "int64", "uint8", "uint16",
                                            "uint32", "uint64", "float16", "bfloat16", "float32", "float64"};
constexpr int tile_dtype_sizes[] = {1, 1, 2, 4, 8, 1, 2, 4, 8, 2, 2, 4, 8};

// torch dtype objects (torch.float32, ...) -> index into tile_dtype_names, learned once per object;
// -1 for dtypes tiles do not have.
int torch_dtype_code(PyObject* dtype) {
  static auto* codes = new std::unordered_map<PyObject*, int>();
  auto it = codes->find(dtype);
  if (it != codes->end()) return it->second;
  std::string s = nb::cast<std::string>(nb::str(nb::handle(dtype)));
  if (s.rfind("torch.", 0) == 0) s = s.substr(6);
  int code = -1;
  for (int i = 0; i < 13; ++i)
    if (s == tile_dtype_names[i]) code = i;
  Py_INCREF(dtype);  // dtype objects are module-level singletons; keep the key alive
  codes->emplace(dtype, code);
  return code;
}

bool is_torch_tensor(PyObject* a) {
  static PyTypeObject* tensor_type = nullptr;
  PyTypeObject* t = Py_TYPE(a);
  if (t == tensor_type) return true;
  if (tensor_type) return false;
  if (std::strcmp(t->tp_name, "Tensor") != 0) return false;  // torch.Tensor's tp_name ("torch" in __module__)
  nb::object module = nb::handle(reinterpret_cast<PyObject*>(t)).attr("__module__");
  if (nb::cast<std::string>(module).rfind("torch", 0) != 0) return false;
  tensor_type = t;
  return true;
}

// A new reference from `o.name` / `o.name()`, or nullptr with the Python error cleared.
nb::object get(PyObject* o, PyObject* name) {
  PyObject* r = PyObject_GetAttr(o, name);
  if (!r) PyErr_Clear();
  return nb::steal(r);
}
nb::object call(PyObject* o, PyObject* name) {
  PyObject* r = PyObject_CallMethodNoArgs(o, name);
  if (!r) PyErr_Clear();
  return nb::steal(r);
}

// Reads a tuple of Python ints; false when it is not one.
bool read_ints(PyObject* t, long long* out, std::size_t n) {
  if (!PyTuple_Check(t) || static_cast<std::size_t>(PyTuple_GET_SIZE(t)) != n) return false;
  for (std::size_t i = 0; i < n; ++i) {
    out[i] = PyLong_AsLongLong(PyTuple_GET_ITEM(t, i));
    if (out[i] == -1 && PyErr_Occurred()) {
      PyErr_Clear();
      return false;
    }
  }
  return true;
}

// One array argument, whatever it came from: its key bytes (dtype code, rank, last-axis contiguity, 16-byte
// alignment), its parameters (pointer, extents, strides in elements) and the bytes it spans.
template <class Int>
void append_array(int code, std::uint64_t ptr, std::size_t ndim, const Int* sh, const Int* st, std::string& key,
                  std::vector<param_value>& params, std::uint64_t& bytes) {
  const int item = tile_dtype_sizes[code];
  const bool contiguous = ndim == 0 || sh[ndim - 1] == 1 || st[ndim - 1] == 1;
  bool aligned = ptr % 16 == 0;
  for (std::size_t i = 0; i + 1 < ndim; ++i) aligned = aligned && (st[i] * item) % 16 == 0;
  key += 'A';
  key += static_cast<char>(code);
  key += static_cast<char>(ndim);
  key += static_cast<char>((contiguous ? 1 : 0) | (aligned ? 2 : 0));
  params.push_back(int64_param(static_cast<long long>(ptr)));
  for (std::size_t i = 0; i < ndim; ++i) params.push_back(int64_param(static_cast<long long>(sh[i])));
  for (std::size_t i = 0; i < ndim; ++i) params.push_back(int64_param(static_cast<long long>(st[i])));
  std::uint64_t elems = 1;
  for (std::size_t i = 0; i < ndim; ++i)
    if (st[i] != 0) elems *= static_cast<std::uint64_t>(sh[i]);
  bytes += elems * static_cast<std::uint64_t>(item);
}

// Appends an array argument's key and parameters; false when `a` is not a GPU torch tensor.
bool add_torch_array(PyObject* a, std::string& key, std::vector<param_value>& params, std::uint64_t& bytes) {
  if (!is_torch_tensor(a)) return false;
  const names& n = attr_names();
  nb::object cuda = get(a, n.is_cuda);
  if (!cuda || cuda.ptr() != Py_True) return false;  // Python raises the clear error
  nb::object dtype = get(a, n.dtype);
  int code = dtype ? torch_dtype_code(dtype.ptr()) : -1;
  if (code < 0) return false;
  nb::object ptr_obj = call(a, n.data_ptr), shape = get(a, n.shape), strides = call(a, n.stride);
  if (!ptr_obj || !shape || !strides) return false;
  auto ptr = PyLong_AsUnsignedLongLong(ptr_obj.ptr());
  if (PyErr_Occurred()) {
    PyErr_Clear();
    return false;
  }
  constexpr std::size_t max_rank = 16;
  if (!PyTuple_Check(shape.ptr())) return false;
  std::size_t ndim = static_cast<std::size_t>(PyTuple_GET_SIZE(shape.ptr()));
  if (ndim > max_rank) return false;
  long long sh[max_rank], st[max_rank];
  if (!read_ints(shape.ptr(), sh, ndim) || !read_ints(strides.ptr(), st, ndim)) return false;
  append_array(code, ptr, ndim, sh, st, key, params, bytes);
  return true;
}

// Appends a tegula GPU array's key and parameters, as Python's path does through its CUDA array interface:
// pending expressions are materialised and pending readers of its memory flushed (the kernel may write it).
// False when `a` is not a tegula array, lies on the CPU or has a dtype tiles lack (Python raises the error).
bool add_tegula_array(PyObject* a, std::string& key, std::vector<param_value>& params, std::uint64_t& bytes) {
  if (!nb::isinstance<py_array>(a)) return false;
  const py_array& pa = nb::cast<const py_array&>(nb::handle(a));
  if (pa.n->device == array::device_kind::cpu) return false;
  // tile_dtype_names lists the ir::dtype enum's first 13 values in order (no names compared per launch).
  static_assert(int(ir::dtype::b1) == 0 && int(ir::dtype::f64) == 12 && int(ir::dtype::c64) == 13);
  const int code = int(pa.n->t);
  if (code > int(ir::dtype::f64)) return false;  // complex and float8: Python raises the error
  array::materialize(pa.n);
  const array::node& n = *pa.n;
  array::flush_readers(*n.data);
  const std::size_t ndim = n.shape.size();
  if (ndim > 16) return false;
  const std::uintptr_t ptr = n.data->address() + static_cast<std::uintptr_t>(n.lay.offset * tile_dtype_sizes[code]);
  append_array(code, ptr, ndim, n.shape.data(), n.lay.strides.data(), key, params, bytes);
  return true;
}

// A Python int/float/bool scalar (exact types only); false for anything else.
bool add_scalar(PyObject* a, std::string& key, std::vector<param_value>& params) {
  PyTypeObject* t = Py_TYPE(a);
  if (t == &PyBool_Type) {
    key += 'b';
    param_value p{{static_cast<unsigned char>(a == Py_True)}, 1};
    params.push_back(p);
    return true;
  }
  if (t == &PyLong_Type) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(a, &overflow);
    if (overflow) return false;
    if (v >= -(1ll << 31) && v < (1ll << 31)) {
      key += 'i';
      param_value p{{}, 4};
      auto v32 = static_cast<std::int32_t>(v);
      std::memcpy(p.bytes, &v32, 4);
      params.push_back(p);
    } else {
      key += 'l';
      params.push_back(int64_param(v));
    }
    return true;
  }
  if (t == &PyFloat_Type) {
    key += 'f';
    param_value p{{}, 4};
    float f = static_cast<float>(PyFloat_AS_DOUBLE(a));
    std::memcpy(p.bytes, &f, 4);
    params.push_back(p);
    return true;
  }
  return false;
}

// A tt.Constant's key: exact ints, floats and bools by value, anything else by type name and repr.
void add_constant(PyObject* a, std::string& key) {
  PyTypeObject* t = Py_TYPE(a);
  auto raw = [&](char tag, const void* bytes, std::size_t n) {
    key += tag;
    key.append(static_cast<const char*>(bytes), n);
  };
  if (t == &PyBool_Type) {
    key += a == Py_True ? "CT" : "CF";
    return;
  }
  if (t == &PyLong_Type) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(a, &overflow);
    if (!overflow) return raw('I', &v, sizeof v);
  }
  if (t == &PyFloat_Type) {
    double v = PyFloat_AS_DOUBLE(a);
    return raw('D', &v, sizeof v);
  }
  std::string r = str("C", t->tp_name, "=", nb::cast<std::string>(nb::repr(nb::handle(a))));
  std::uint32_t len = static_cast<std::uint32_t>(r.size());
  raw('R', &len, sizeof len);
  key += r;
}

class tile_launcher {
 public:
  explicit tile_launcher(std::vector<bool> is_constant) : is_constant_(std::move(is_constant)) {}

  // The signature key (binary bytes) and packed parameters of `args`, or false when some argument
  // is of a kind only Python handles.
  bool describe(nb::handle args_obj, std::string& key, std::vector<param_value>& params, std::uint64_t& bytes,
                PyObject** first_tensor = nullptr) const {
    if (!PyTuple_Check(args_obj.ptr())) return false;
    PyObject* args = args_obj.ptr();
    std::size_t n = static_cast<std::size_t>(PyTuple_GET_SIZE(args));
    if (n != is_constant_.size()) return false;  // Python raises the arity error
    key.clear();
    params.clear();
    bytes = 0;
    for (std::size_t i = 0; i < n; ++i) {
      PyObject* a = PyTuple_GET_ITEM(args, i);
      if (is_constant_[i]) {
        add_constant(a, key);
      } else if (add_torch_array(a, key, params, bytes)) {
        if (first_tensor && !*first_tensor) *first_tensor = a;
      } else if (!add_tegula_array(a, key, params, bytes) && !add_scalar(a, key, params)) {
        return false;
      }
    }
    return true;
  }

  // Launches and returns None when a variant matches; else returns the key (bytes) for Python to
  // compile and add(), or False when the arguments (or the grid) need Python's path altogether.
  nb::object launch(nb::handle grid, nb::handle args, nb::handle stream) {
    std::uint64_t bytes = 0;
    PyObject* tensor = nullptr;
    if (!describe(args, key_, params_, bytes, &tensor)) return nb::bool_(false);
    const variant* v = nullptr;
    for (const auto& candidate : variants_)
      if (candidate.key == key_) v = &candidate;
    if (!v) return nb::bytes(key_.data(), key_.size());
    rt::launch_config c;
    if (!read_grid(grid.ptr(), c.grid)) return nb::bool_(false);  // Python raises the clear error
    c.block = {v->block, 1, 1};
    c.shared_mem = v->shared;
    const auto& layout = v->kernel->params();
    if (layout.size() != params_.size())
      fail(error_kind::internal, "tile kernel '", v->kernel->name(), "' has ", layout.size(), " parameters, packed ",
           params_.size());
    rt::param_buffer buf(v->kernel->params_bytes());
    for (std::size_t i = 0; i < params_.size(); ++i) {
      if (layout[i].size != params_[i].size)
        fail(error_kind::internal, "tile kernel '", v->kernel->name(), "' parameter ", i, " has ", layout[i].size,
             " bytes, packed ", params_[i].size);
      buf.put(layout[i].offset, params_[i].bytes, params_[i].size);
    }
    std::shared_ptr<rt::stream> hold;
    nb::object torch_stream;
    nb::handle s = stream;
    if (stream.is_none() && tensor) {
      torch_stream = torch_current_stream(tensor);
      if (PyLong_Check(torch_stream.ptr()) && PyLong_AsUnsignedLongLong(torch_stream.ptr()) != 0) s = torch_stream;
    }
    if (rt::prof::active()) rt::prof::note_bytes(bytes);
    rt::launch(to_stream(s, hold), c, *v->kernel, buf);
    return nb::none();
  }

  void add(nb::bytes key, std::shared_ptr<rt::kernel> k, unsigned block, unsigned shared) {
    std::string k_str(key.c_str(), key.size());
    for (const auto& v : variants_)
      if (v.key == k_str) return;
    variants_.push_back({std::move(k_str), std::move(k), block, shared});
  }

  nb::object describe_for_tests(nb::handle args) const {
    std::string key;
    std::vector<param_value> params;
    std::uint64_t bytes = 0;
    if (!describe(args, key, params, bytes)) return nb::none();
    nb::list values;
    for (const auto& p : params) values.append(nb::bytes(reinterpret_cast<const char*>(p.bytes), p.size));
    return nb::make_tuple(nb::bytes(key.data(), key.size()), values);
  }

 private:
  // An int or a tuple of 1-3 positive ints; false otherwise (Python's grid_tuple explains).
  static bool read_grid(PyObject* g, std::array<unsigned, 3>& out) {
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
      out[i] = static_cast<unsigned>(v[i]);
    }
    return true;
  }

  std::vector<bool> is_constant_;
  std::vector<variant> variants_;  // a kernel has few specializations: a linear scan is fastest
  std::string key_;                // scratch, reused per call (the GIL serialises calls)
  std::vector<param_value> params_;
};

}  // namespace

nb::object& launch_fallback() {
  static auto* f = new nb::object();  // leaked: set once by tegula.tile, lives with the interpreter
  return *f;
}

// tt.launch: the fast path without a Python frame; anything it declines goes to Python's
// tile._kernel._launch_slow(kernel, grid, args, stream, interpret, fast_key).
nb::object tile_launch(nb::handle kernel, nb::handle grid, nb::handle args, nb::handle stream, nb::handle interpret) {
  static PyObject* launcher_name = PyUnicode_InternFromString("_launcher");
  bool interp = interpret.is_none() ? get_config().interpret : PyObject_IsTrue(interpret.ptr()) == 1;
  nb::object fast_key = nb::bool_(false);
  if (!interp) {
    nb::object l = get(kernel.ptr(), launcher_name);
    if (l.is_valid() && nb::isinstance<tile_launcher>(l)) {
      fast_key = nb::inst_ptr<tile_launcher>(l)->launch(grid, args, stream);
      if (fast_key.is_none()) return fast_key;
    }
  }
  if (!launch_fallback().is_valid()) fail(error_kind::internal, "tegula.tile did not register its launch fallback");
  return launch_fallback()(kernel, grid, args, stream, interpret, fast_key);
}

void bind_tile_launcher(nb::module_& m) {
  nb::class_<tile_launcher>(m, "TileLauncher", "Launch fast path of one tile kernel (used by tt.launch).")
      .def(nb::init<std::vector<bool>>(), nb::arg("is_constant"))
      .def("launch", &tile_launcher::launch, nb::arg("grid"), nb::arg("args"), nb::arg("stream").none())
      .def("add", &tile_launcher::add, nb::arg("key"), nb::arg("kernel"), nb::arg("block"), nb::arg("shared"))
      .def("describe", &tile_launcher::describe_for_tests, nb::arg("args"),
           "(key bytes, [packed parameter bytes]) or None: for tests.");
  m.def("tile_launch", &tile_launch, nb::arg("kernel"), nb::arg("grid"), nb::arg("args"), nb::arg("stream").none() = nb::none(),
        nb::arg("interpret").none() = nb::none(),
        "tt.launch(kernel, grid, args, stream=None, interpret=None): runs `kernel` once per block of `grid`.");
  m.def("set_tile_launch_fallback", [](nb::object f) { launch_fallback() = std::move(f); });
}

}  // namespace tegula::bind
