// torch tensors read in C++ (torch_tensor.hpp): the type check, the dtype, a zero-copy leaf.
#include "tegula/bindings/torch_tensor.hpp"

#include <nanobind/stl/vector.h>

#include <cstring>
#include <optional>
#include <string>
#include <unordered_map>

#include "tegula/bindings/py_array.hpp"
#include "tegula/bindings/tile_arguments.hpp"
#include "tegula/ir/dtype.hpp"
#include "tegula/support/error.hpp"

namespace tegula::bind {

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

int torch_dtype_code(PyObject* dtype) {
  static auto* codes = new std::unordered_map<PyObject*, int>();  // leaked: lives as long as the interpreter
  auto it = codes->find(dtype);
  if (it != codes->end()) return it->second;
  std::string s = nb::cast<std::string>(nb::str(nb::handle(dtype)));
  if (s.rfind("torch.", 0) == 0) s = s.substr(6);
  std::optional<ir::dtype> t = ir::dtype_from_name(s);
  const int code = t ? int(*t) : -1;
  Py_INCREF(dtype);  // dtype objects are module-level singletons; keep the key alive
  codes->emplace(dtype, code);
  return code;
}

array::node_ptr torch_leaf(PyObject* tensor) {
  nb::handle t(tensor);
  nb::object dtype = t.attr("dtype");
  const int code = torch_dtype_code(dtype.ptr());
  if (code < 0) fail(error_kind::type_error, "tegula does not support dtype ", nb::cast<std::string>(nb::str(dtype)));
  int device = -1;
  if (nb::cast<bool>(t.attr("is_cuda"))) {
    device = nb::cast<int>(t.attr("get_device")());
  } else if (!nb::cast<bool>(t.attr("is_cpu"))) {
    fail(error_kind::invalid_argument, "tegula reads CUDA and CPU torch tensors, not one on ",
         nb::cast<std::string>(nb::str(t.attr("device"))));
  }
  array::layout l;
  l.shape = nb::cast<array::dims>(t.attr("shape"));
  l.strides = nb::cast<array::dims>(t.attr("stride")());
  const auto ptr = nb::cast<std::uintptr_t>(t.attr("data_ptr")());
  return borrowed_leaf(ptr, std::move(l), ir::dtype(code), device, nb::borrow(t));
}

}  // namespace tegula::bind
