// The tile launch fast path: per-kernel variants keyed by an argument signature computed in C++.
//
// Python's tt.launch asks the launcher first. A signature it has seen launches straight from here
// (no Python frames, no specialization tuples); an unseen one returns its key, Python specializes
// and compiles (tile/_kernel.py), and registers the variant under that key. The key records
// everything Python's specialization depends on (tile/_args.py: describe), so one key never maps
// to two specializations: per array its dtype, rank, last-dim contiguity and 16-byte alignment;
// per scalar its dtype (Python int -> int32 when it fits, else int64; float -> float32; bool);
// per tt.Constant its repr. Arguments of any other kind (numpy arrays, numpy scalars, ...) are not
// handled here: the launcher says so and Python takes the whole call.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "tegula/bindings/bind_support.hpp"
#include "tegula/bindings/runtime_common.hpp"
#include "tegula/runtime/launch.hpp"
#include "tegula/runtime/module.hpp"
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

// dtype objects of torch (torch.float32, ...) -> tile dtype name, learned once per object.
const std::string* torch_dtype_name(nb::handle dtype) {
  static auto* names = new std::unordered_map<PyObject*, std::string>();
  auto it = names->find(dtype.ptr());
  if (it != names->end()) return &it->second;
  std::string s = nb::cast<std::string>(nb::str(dtype));
  if (s.rfind("torch.", 0) == 0) s = s.substr(6);
  static const std::unordered_map<std::string, std::string> aliases = {
      {"bool", "bool"}, {"int8", "int8"}, {"int16", "int16"}, {"int32", "int32"}, {"int64", "int64"},
      {"uint8", "uint8"}, {"uint16", "uint16"}, {"uint32", "uint32"}, {"uint64", "uint64"},
      {"float16", "float16"}, {"bfloat16", "bfloat16"}, {"float32", "float32"}, {"float64", "float64"}};
  auto a = aliases.find(s);
  if (a == aliases.end()) return nullptr;
  nb::handle(dtype).inc_ref();  // dtype objects are module-level singletons; keep the key alive
  return &names->emplace(dtype.ptr(), a->second).first->second;
}

int itemsize(const std::string& dtype) {
  if (dtype == "bool" || dtype == "int8" || dtype == "uint8") return 1;
  if (dtype == "int16" || dtype == "uint16" || dtype == "float16" || dtype == "bfloat16") return 2;
  if (dtype == "int32" || dtype == "uint32" || dtype == "float32") return 4;
  return 8;
}

bool is_torch_tensor(nb::handle a) {
  static PyTypeObject* tensor_type = nullptr;
  PyTypeObject* t = Py_TYPE(a.ptr());
  if (t == tensor_type) return true;
  if (tensor_type) return false;
  const char* name = t->tp_name;  // "Tensor" for torch.Tensor (module in __module__)
  if (std::strcmp(name, "Tensor") != 0) return false;
  nb::object module = nb::handle(reinterpret_cast<PyObject*>(t)).attr("__module__");
  if (nb::cast<std::string>(module).rfind("torch", 0) != 0) return false;
  tensor_type = t;
  return true;
}

// Appends an array argument's key and parameters; false when `a` is not a GPU torch tensor.
bool add_torch_array(nb::handle a, std::string& key, std::vector<param_value>& params) {
  if (!is_torch_tensor(a)) return false;
  if (!nb::cast<bool>(a.attr("is_cuda"))) return false;  // Python raises the clear error
  const std::string* dtype = torch_dtype_name(a.attr("dtype"));
  if (!dtype) return false;
  auto ptr = nb::cast<std::uintptr_t>(a.attr("data_ptr")());
  nb::tuple shape = nb::borrow<nb::tuple>(a.attr("shape"));
  nb::tuple strides = nb::borrow<nb::tuple>(a.attr("stride")());
  std::size_t ndim = nb::len(shape);
  std::vector<long long> sh(ndim), st(ndim);
  for (std::size_t i = 0; i < ndim; ++i) {
    sh[i] = nb::cast<long long>(shape[i]);
    st[i] = nb::cast<long long>(strides[i]);
  }
  int item = itemsize(*dtype);
  bool contiguous = ndim == 0 || sh[ndim - 1] == 1 || st[ndim - 1] == 1;
  bool aligned = ptr % 16 == 0;
  for (std::size_t i = 0; i + 1 < ndim; ++i) aligned = aligned && (st[i] * item) % 16 == 0;
  key += str("A", *dtype, ":", ndim, contiguous ? "c" : "s", aligned ? "a" : "u", ";");
  params.push_back(int64_param(static_cast<long long>(ptr)));
  for (auto v : sh) params.push_back(int64_param(v));
  for (auto v : st) params.push_back(int64_param(v));
  return true;
}

// A Python int/float/bool scalar (exact types only); false for anything else.
bool add_scalar(nb::handle a, std::string& key, std::vector<param_value>& params) {
  PyTypeObject* t = Py_TYPE(a.ptr());
  if (t == &PyBool_Type) {
    key += "Sbool;";
    param_value p{{static_cast<unsigned char>(a.ptr() == Py_True)}, 1};
    params.push_back(p);
    return true;
  }
  if (t == &PyLong_Type) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(a.ptr(), &overflow);
    if (overflow) return false;
    if (v >= -(1ll << 31) && v < (1ll << 31)) {
      key += "Sint32;";
      param_value p{{}, 4};
      auto v32 = static_cast<std::int32_t>(v);
      std::memcpy(p.bytes, &v32, 4);
      params.push_back(p);
    } else {
      key += "Sint64;";
      params.push_back(int64_param(v));
    }
    return true;
  }
  if (t == &PyFloat_Type) {
    key += "Sfloat32;";
    param_value p{{}, 4};
    float f = static_cast<float>(PyFloat_AS_DOUBLE(a.ptr()));
    std::memcpy(p.bytes, &f, 4);
    params.push_back(p);
    return true;
  }
  return false;
}

class tile_launcher {
 public:
  explicit tile_launcher(std::vector<bool> is_constant) : is_constant_(std::move(is_constant)) {}

  // The signature key and packed parameters of `args`, or nullopt when some argument is of a
  // kind only Python handles.
  std::optional<std::string> describe(nb::tuple args, std::vector<param_value>& params) const {
    std::size_t n = nb::len(args);
    if (n != is_constant_.size()) return std::nullopt;  // Python raises the arity error
    std::string key;
    for (std::size_t i = 0; i < n; ++i) {
      nb::handle a = args[i];
      if (is_constant_[i]) {
        key += str("C", Py_TYPE(a.ptr())->tp_name, "=", nb::cast<std::string>(nb::repr(a)), ";");
      } else if (!add_torch_array(a, key, params) && !add_scalar(a, key, params)) {
        return std::nullopt;
      }
    }
    return key;
  }

  // Launches and returns None when a variant matches; else returns the key (a str) for Python to
  // compile and add(), or False when the arguments need Python's path altogether.
  nb::object launch(nb::handle grid, nb::tuple args, nb::handle stream) {
    std::vector<param_value> params;
    std::optional<std::string> key = describe(args, params);
    if (!key) return nb::bool_(false);
    const variant* v = nullptr;
    for (const auto& candidate : variants_)
      if (candidate.key == *key) v = &candidate;
    if (!v) return nb::str(key->c_str(), key->size());
    rt::launch_config c;
    if (PyLong_Check(grid.ptr())) {
      c.grid[0] = nb::cast<unsigned>(grid);
    } else {
      nb::tuple g = nb::borrow<nb::tuple>(grid);
      for (std::size_t i = 0; i < nb::len(g) && i < 3; ++i) c.grid[i] = nb::cast<unsigned>(g[i]);
    }
    c.block = {v->block, 1, 1};
    c.shared_mem = v->shared;
    const auto& layout = v->kernel->params();
    if (layout.size() != params.size())
      fail(error_kind::internal, "tile kernel '", v->kernel->name(), "' has ", layout.size(), " parameters, packed ",
           params.size());
    rt::param_buffer buf(v->kernel->params_bytes());
    for (std::size_t i = 0; i < params.size(); ++i) {
      if (layout[i].size != params[i].size)
        fail(error_kind::internal, "tile kernel '", v->kernel->name(), "' parameter ", i, " has ", layout[i].size,
             " bytes, packed ", params[i].size);
      buf.put(layout[i].offset, params[i].bytes, params[i].size);
    }
    std::shared_ptr<rt::stream> hold;
    rt::launch(to_stream(stream, hold), c, *v->kernel, buf);
    return nb::none();
  }

  void add(const std::string& key, std::shared_ptr<rt::kernel> k, unsigned block, unsigned shared) {
    for (const auto& v : variants_)
      if (v.key == key) return;
    variants_.push_back({key, std::move(k), block, shared});
  }

 private:
  std::vector<bool> is_constant_;
  std::vector<variant> variants_;  // a kernel has few specializations: a linear scan is fastest
};

}  // namespace

void bind_tile_launcher(nb::module_& m) {
  nb::class_<tile_launcher>(m, "TileLauncher", "Launch fast path of one tile kernel (used by tt.launch).")
      .def(nb::init<std::vector<bool>>(), nb::arg("is_constant"))
      .def("launch", &tile_launcher::launch, nb::arg("grid"), nb::arg("args"), nb::arg("stream").none())
      .def("add", &tile_launcher::add, nb::arg("key"), nb::arg("kernel"), nb::arg("block"), nb::arg("shared"))
      .def("describe", [](const tile_launcher& l, nb::tuple args) -> nb::object {
        std::vector<param_value> params;
        auto key = l.describe(args, params);
        if (!key) return nb::none();
        nb::list values;
        for (const auto& p : params) values.append(nb::bytes(reinterpret_cast<const char*>(p.bytes), p.size));
        return nb::make_tuple(*key, values);
      }, nb::arg("args"), "(key, [packed parameter bytes]) or None: for tests.");
}

}  // namespace tegula::bind
