// Bindings for support/: the Python exception types and the translator from tegula::error, the configuration, sizes.
#include <nanobind/stl/string.h>

#include <optional>

#include "tegula/bindings/bind_support.hpp"
#include "tegula/support/byte_size.hpp"
#include "tegula/support/config.hpp"
#include "tegula/support/error.hpp"

namespace tegula::bind {
namespace {

PyObject* tegula_error = nullptr;
PyObject* cuda_error = nullptr;
PyObject* compile_error = nullptr;
PyObject* driver_error = nullptr;
PyObject* cache_error = nullptr;
PyObject* axis_error = nullptr;

PyObject* python_type(error_kind kind) {
  switch (kind) {
    case error_kind::invalid_argument: return PyExc_ValueError;
    case error_kind::type_error: return PyExc_TypeError;
    case error_kind::index_error: return PyExc_IndexError;
    case error_kind::overflow: return PyExc_OverflowError;
    case error_kind::axis_error: return axis_error;
    case error_kind::not_implemented: return PyExc_NotImplementedError;
    case error_kind::out_of_memory: return PyExc_MemoryError;
    case error_kind::cuda: return cuda_error;
    case error_kind::driver_missing: return driver_error;
    case error_kind::compile: return compile_error;
    case error_kind::cache: return cache_error;
    case error_kind::internal: return PyExc_RuntimeError;
    case error_kind::interrupted: return PyExc_KeyboardInterrupt;
  }
  return PyExc_RuntimeError;
}

PyObject* new_type(nb::module_& m, const char* name, PyObject* base, const char* doc) {
  std::string qualified = std::string("tegula.") + name;
  PyObject* t = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, base, nullptr);
  if (!t) throw nb::python_error();
  m.attr(name) = nb::handle(t);
  return t;
}

void set_error(const error& e) {
  PyObject* type = python_type(e.kind());
  nb::object value = nb::steal(PyObject_CallFunction(type, "s", e.what()));
  if (!value.is_valid()) return;  // the call set its own error
  if (e.code() && (type == cuda_error || type == compile_error || type == PyExc_MemoryError))
    PyObject_SetAttrString(value.ptr(), "code", nb::int_(e.code()).ptr());
  PyErr_SetObject(type, value.ptr());
}

}  // namespace

void set_python_error_from_current_exception() {
  try {
    throw;
  } catch (const error& e) {
    set_error(e);
  } catch (nb::python_error& e) {
    e.restore();
  } catch (const nb::builtin_exception& e) {
    PyErr_SetString(PyExc_TypeError, e.what());
  } catch (const std::exception& e) {
    PyErr_SetString(PyExc_RuntimeError, e.what());
  }
}

ir::dtype dtype_named(const std::string& name) {
  auto t = ir::dtype_from_name(name);
  if (!t) fail(error_kind::type_error, "tegula does not support dtype '", name, "'");
  return *t;
}

void bind_support(nb::module_& m) {
  tegula_error = new_type(m, "TegulaError", PyExc_RuntimeError, "Base class of tegula's own errors.");
  cuda_error = new_type(m, "CUDAError", tegula_error, "A CUDA driver call failed; .code is the CUresult.");
  compile_error = new_type(m, "CompileError", tegula_error, "A kernel failed to compile; the message has the log.");
  driver_error = new_type(m, "DriverNotFoundError", tegula_error,
                          "No usable CUDA driver, device or library (NVRTC) was found.");
  cache_error = new_type(m, "CacheError", tegula_error, "The compile cache could not be used.");
  {
    nb::object bases = nb::make_tuple(nb::handle(PyExc_ValueError), nb::handle(PyExc_IndexError));
    axis_error = PyErr_NewExceptionWithDoc("tegula.AxisError", "An axis argument is out of range (as numpy.exceptions.AxisError).",
                                           bases.ptr(), nullptr);
    if (!axis_error) throw nb::python_error();
    m.attr("AxisError") = nb::handle(axis_error);
  }
  // tegula.numpy, which imports NumPy anyway, swaps in a subclass of both this AxisError and NumPy's, so code
  // catching numpy.exceptions.AxisError catches tegula's too; the extension itself never imports NumPy.
  nb::handle module = m;
  m.def("_use_axis_error", [module](nb::handle cls) {
    if (!PyType_Check(cls.ptr()) || !PyObject_IsSubclass(cls.ptr(), axis_error))
      throw nb::type_error("_use_axis_error takes a subclass of tegula.AxisError");
    Py_INCREF(cls.ptr());  // kept for the life of the process, as the type it replaces
    axis_error = cls.ptr();
    nb::setattr(module, "AxisError", cls);
  });

  nb::register_exception_translator([](const std::exception_ptr& p, void*) {
    try {
      std::rethrow_exception(p);
    } catch (const error& e) {
      set_error(e);
    }
  });

  m.def("add_library_dir", &add_library_dir, nb::arg("path"),
        "Searches `path` for CUDA libraries (NVRTC, cuBLAS, ...) before the system paths.");
  m.def("parse_byte_size", [](const std::string& text) -> nb::object {
    std::optional<std::uint64_t> n = parse_byte_size(text);
    if (!n) return nb::none();
    return nb::int_(*n);
  }, nb::arg("text"), "Bytes of a size such as '500M' or '2G' (powers of 1024), or None.");
  m.def("format_byte_size", &format_byte_size, nb::arg("bytes"));
  m.def("config", [] {
    const config& c = get_config();
    nb::dict d;
    d["cache_dir"] = c.cache_dir;
    d["disk_cache"] = c.disk_cache;
    d["cache_max_size"] = c.cache_max_size;
    d["interpret"] = c.interpret;
    d["log_level"] = c.log_level;
    nb::list homes;
    for (const auto& h : c.cuda_homes) homes.append(h);
    d["cuda_homes"] = homes;
    return d;
  });
}

}  // namespace tegula::bind
