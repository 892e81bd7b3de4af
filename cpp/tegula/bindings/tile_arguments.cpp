// Python objects read as tile kernel arguments (see tile_arguments.hpp).
#include "tegula/bindings/tile_arguments.hpp"

#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "tegula/array/expr.hpp"
#include "tegula/array/materialize.hpp"
#include "tegula/bindings/bind_support.hpp"
#include "tegula/bindings/py_array.hpp"
#include "tegula/bindings/torch_tensor.hpp"
#include "tegula/kernel/signature.hpp"
#include "tegula/support/error.hpp"

namespace tegula::bind {

namespace {

// Attribute names interned once: PyObject_GetAttr with an interned str skips building a name per call.
struct names {
  PyObject* is_cuda = PyUnicode_InternFromString("is_cuda");
  PyObject* dtype = PyUnicode_InternFromString("dtype");
  PyObject* data_ptr = PyUnicode_InternFromString("data_ptr");
  PyObject* shape = PyUnicode_InternFromString("shape");
  PyObject* stride = PyUnicode_InternFromString("stride");
};

}  // namespace

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
namespace {

const names& attr_names() {
  static const names* n = new names();  // leaked: lives as long as the interpreter
  return *n;
}

}  // namespace

// A new reference from `o.name` / `o.name()`, or nullptr with the Python error cleared.
nb::object get_attr(PyObject* o, PyObject* name) {
  PyObject* r = PyObject_GetAttr(o, name);
  if (!r) PyErr_Clear();
  return nb::steal(r);
}
namespace {

nb::object call(PyObject* o, PyObject* name) {
  PyObject* r = PyObject_CallMethodNoArgs(o, name);
  if (!r) PyErr_Clear();
  return nb::steal(r);
}

}  // namespace

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

namespace {

// An array argument from a pointer, extents and strides of any integer type.
template <class Int>
kernel::array_arg array_of(ir::dtype t, std::uint64_t ptr, std::size_t ndim, const Int* sh, const Int* st) {
  kernel::array_arg a;
  a.address = ptr;
  a.t = t;
  a.rank = int(ndim);
  for (std::size_t i = 0; i < ndim; ++i) a.shape[i] = static_cast<std::int64_t>(sh[i]), a.strides[i] = static_cast<std::int64_t>(st[i]);
  const codegen::array_spec l = kernel::actual_layout(a);
  a.contiguous = l.last_dim_contiguous;
  a.aligned = l.aligned_16;
  return a;
}

// The tile dtype of an array interface typestr ("<f4", "|b1", "<u8", ...); false for a big-endian or unknown one
// (bfloat16 and float8 come as "<V2"/"|V1": Python names them).
bool typestr_dtype(PyObject* typestr, ir::dtype& out) {
  if (!PyUnicode_Check(typestr)) return false;
  Py_ssize_t n = 0;
  const char* s = PyUnicode_AsUTF8AndSize(typestr, &n);
  if (!s || n < 3 || s[0] == '>') {
    PyErr_Clear();
    return false;
  }
  const char kind = s[1];
  const int size = std::atoi(s + 2);
  static constexpr ir::dtype ints[] = {ir::dtype::i8, ir::dtype::i16, ir::dtype::i32, ir::dtype::i64};
  static constexpr ir::dtype uints[] = {ir::dtype::u8, ir::dtype::u16, ir::dtype::u32, ir::dtype::u64};
  const int log = size == 1 ? 0 : size == 2 ? 1 : size == 4 ? 2 : size == 8 ? 3 : -1;
  if (kind == 'b' && size == 1) out = ir::dtype::b1;
  else if (kind == 'i' && log >= 0) out = ints[log];
  else if (kind == 'u' && log >= 0) out = uints[log];
  else if (kind == 'f' && log >= 1) out = log == 1 ? ir::dtype::f16 : log == 2 ? ir::dtype::f32 : ir::dtype::f64;
  else return false;
  return true;
}

// An array from an array interface dict (__cuda_array_interface__ or __array_interface__): typestr, shape, data
// (address, read-only) and strides in bytes (None: C order). False for anything tiles do not read as it is (a mask,
// an unknown dtype, strides not multiples of the item size): Python's path explains.
bool interface_array(PyObject* d, kernel::array_arg& out) {
  if (!d || !PyDict_Check(d)) return false;
  PyObject* typestr = PyDict_GetItemString(d, "typestr");
  PyObject* shape = PyDict_GetItemString(d, "shape");
  PyObject* data = PyDict_GetItemString(d, "data");
  PyObject* strides = PyDict_GetItemString(d, "strides");
  PyObject* mask = PyDict_GetItemString(d, "mask");
  if (!typestr || !shape || !data || !PyTuple_Check(data) || PyTuple_GET_SIZE(data) < 1) return false;
  if (mask && mask != Py_None) return false;
  ir::dtype t;
  if (!typestr_dtype(typestr, t)) return false;
  if (!PyTuple_Check(shape)) return false;
  const std::size_t ndim = static_cast<std::size_t>(PyTuple_GET_SIZE(shape));
  if (ndim > std::size_t(kernel::max_rank)) return false;
  long long sh[kernel::max_rank], st[kernel::max_rank];
  if (!read_ints(shape, sh, ndim)) return false;
  const long long item = ir::size_bytes(t);
  if (strides && strides != Py_None) {
    if (!read_ints(strides, st, ndim)) return false;
    for (std::size_t i = 0; i < ndim; ++i) {
      if (st[i] % item) return false;
      st[i] /= item;
    }
  } else {
    long long step = 1;
    for (std::size_t i = ndim; i-- > 0;) st[i] = step, step *= sh[i];
  }
  const unsigned long long ptr = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(data, 0));
  if (PyErr_Occurred()) {
    PyErr_Clear();
    return false;
  }
  out = array_of(t, ptr, ndim, sh, st);
  return true;
}

}  // namespace

// A GPU torch tensor; false when `a` is not one (or has a dtype tiles lack: Python raises the error).
bool torch_array(PyObject* a, kernel::array_arg& out) {
  if (!is_torch_tensor(a)) return false;
  const names& n = attr_names();
  nb::object cuda = get_attr(a, n.is_cuda);
  if (!cuda || cuda.ptr() != Py_True) return false;  // Python raises the clear error
  nb::object dtype = get_attr(a, n.dtype);
  int code = dtype ? torch_dtype_code(dtype.ptr()) : -1;
  if (code < 0 || code == int(ir::dtype::c64) || code == int(ir::dtype::c128)) return false;  // tiles lack complex
  nb::object ptr_obj = call(a, n.data_ptr), shape = get_attr(a, n.shape), strides = call(a, n.stride);
  if (!ptr_obj || !shape || !strides) return false;
  auto ptr = PyLong_AsUnsignedLongLong(ptr_obj.ptr());
  if (PyErr_Occurred()) {
    PyErr_Clear();
    return false;
  }
  if (!PyTuple_Check(shape.ptr())) return false;
  std::size_t ndim = static_cast<std::size_t>(PyTuple_GET_SIZE(shape.ptr()));
  if (ndim > std::size_t(kernel::max_rank)) return false;
  long long sh[kernel::max_rank], st[kernel::max_rank];
  if (!read_ints(shape.ptr(), sh, ndim) || !read_ints(strides.ptr(), st, ndim)) return false;
  out = array_of(ir::dtype(code), ptr, ndim, sh, st);
  return true;
}

// A tegula GPU array, as Python's path reads it through its CUDA array interface: pending expressions are
// materialised and pending readers of its memory flushed (the kernel may write it). False when `a` is not a tegula
// array, lies on the CPU or has a dtype tiles lack (Python raises the error).
bool tegula_array(PyObject* a, kernel::array_arg& out) {
  if (!nb::isinstance<py_array>(a)) return false;
  const py_array& pa = nb::cast<const py_array&>(nb::handle(a));
  if (pa.n->device == array::device_kind::cpu) return false;
  const ir::dtype t = pa.n->t;
  if (t == ir::dtype::c64 || t == ir::dtype::c128) return false;  // Python raises the error
  array::materialize(pa.n);
  const array::node& n = *pa.n;
  array::flush_readers(*n.data);
  const std::size_t ndim = n.shape.size();
  if (ndim > std::size_t(kernel::max_rank)) return false;
  const std::uintptr_t ptr = n.data->address() + static_cast<std::uintptr_t>(n.lay.offset * ir::size_bytes(t));
  out = array_of(t, ptr, ndim, n.shape.data(), n.lay.strides.data());
  return true;
}

bool cuda_interface_array(PyObject* a, kernel::array_arg& out) {
  static PyObject* name = PyUnicode_InternFromString("__cuda_array_interface__");
  if (Py_TYPE(a) == &PyLong_Type || Py_TYPE(a) == &PyFloat_Type || Py_TYPE(a) == &PyBool_Type) return false;
  nb::object d = get_attr(a, name);
  return d.is_valid() && interface_array(d.ptr(), out);
}

bool numpy_array(PyObject* a, kernel::array_arg& out) {
  static PyObject* name = PyUnicode_InternFromString("__array_interface__");
  PyTypeObject* t = Py_TYPE(a);
  if (std::strcmp(t->tp_name, "numpy.ndarray") != 0) return false;  // exactly numpy's ndarray (no subclasses)
  nb::object d = get_attr(a, name);
  return d.is_valid() && interface_array(d.ptr(), out);
}

// A Python int/float/bool scalar (exact types only): int -> int32 when it fits, else int64; float -> float32.
bool python_scalar(PyObject* a, kernel::scalar_arg& out) {
  PyTypeObject* t = Py_TYPE(a);
  if (t == &PyBool_Type) {
    out = {ir::dtype::b1, a == Py_True ? 1.0 : 0.0, a == Py_True ? 1 : 0};
    return true;
  }
  if (t == &PyLong_Type) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(a, &overflow);
    if (overflow) return false;
    out = {v >= -(1ll << 31) && v < (1ll << 31) ? ir::dtype::i32 : ir::dtype::i64, double(v), v};
    return true;
  }
  if (t == &PyFloat_Type) {
    const double v = PyFloat_AS_DOUBLE(a);
    out = {ir::dtype::f32, v, static_cast<std::int64_t>(v)};
    return true;
  }
  return false;
}

// A tt.Constant's key bytes: exact ints, floats and bools by value, anything else by type name and repr.
void constant_key(PyObject* a, std::string& key) {
  PyTypeObject* t = Py_TYPE(a);
  auto raw = [&](char tag, const void* bytes, std::size_t n) {
    std::string v(1, tag);
    v.append(static_cast<const char*>(bytes), n);
    kernel::key_constant(key, v);
  };
  if (t == &PyBool_Type) return kernel::key_constant(key, a == Py_True ? "T" : "F");
  if (t == &PyLong_Type) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(a, &overflow);
    if (!overflow) return raw('I', &v, sizeof v);
  }
  if (t == &PyFloat_Type) {
    double v = PyFloat_AS_DOUBLE(a);
    return raw('D', &v, sizeof v);
  }
  kernel::key_constant(key, str("R", t->tp_name, "=", nb::cast<std::string>(nb::repr(nb::handle(a)))));
}


}  // namespace tegula::bind
