// Bindings for array/: the ndarray type (operators, views, reductions, host transfer) that
// tegula.numpy builds its NumPy namespace on. Python scalars are "weak" (NEP 50); numpy scalars
// and 0-d arrays are strong. Unsupported operand types return NotImplemented, as NumPy does.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <cstring>
#include <limits>
#include <optional>
#include <unordered_map>
#include <string>

#include "tegula/array/copy.hpp"
#include "tegula/array/deferred_update.hpp"
#include "tegula/array/expr.hpp"
#include "tegula/array/kernels.hpp"
#include "tegula/array/materialize.hpp"
#include "tegula/array/pending_view.hpp"
#include "tegula/array/ufunc_names.hpp"
#include "tegula/array/value_key.hpp"
#include "tegula/bindings/bind_support.hpp"
#include "tegula/bindings/interruptible.hpp"
#include "tegula/bindings/py_array.hpp"
#include "tegula/ir/infer.hpp"
#include "tegula/ir/printer.hpp"
#include "tegula/runtime/buffer.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/runtime/stream.hpp"
#include "tegula/support/error.hpp"

namespace tegula::bind {
namespace {

using array::dtype;
using array::node_ptr;
using ir::op_kind;

bool eager_mode = false;


nb::tuple to_tuple(const array::dims& d) {
  nb::list l;
  for (auto v : d) l.append(v);
  return nb::tuple(l);
}

// One extent (or axis, stride) given from Python, as NumPy's PyArray_PyIntAsIntp takes it: anything with
// __index__; an int beyond int64 is NumPy's ValueError, not a C++ cast failure.
std::int64_t to_dim(nb::handle x) {
  nb::object i = nb::steal(PyNumber_Index(x.ptr()));
  if (!i.is_valid()) throw nb::python_error();
  int overflow = 0;
  long long v = PyLong_AsLongLongAndOverflow(i.ptr(), &overflow);
  if (overflow) fail(error_kind::invalid_argument, "Maximum allowed dimension exceeded");
  return v;
}

array::dims to_dims(nb::handle h) {
  array::dims d;
  if (PyLong_Check(h.ptr())) {
    d.push_back(to_dim(h));
    return d;
  }
  for (nb::handle x : h) d.push_back(to_dim(x));
  return d;
}

// The Python function behind ndarray(...) (tegula.numpy's, set at its import).
nb::object& ndarray_constructor() {
  static nb::object* f = new nb::object();  // never destroyed: Python may be gone at exit
  return *f;
}

py_array wrap(node_ptr n) {
  if (eager_mode && n->pending()) array::materialize(n);
  return py_array{std::move(n)};
}

// A NumPy scalar or 0-d array (anything with dtype, shape () and item()): a strong scalar of its
// dtype, or nullptr when it is not one (or of a dtype tegula lacks).
// The dtype of a NumPy scalar type (numpy.float64, ...), remembered per type: str(dtype) goes through NumPy's
// Python code (3 us a call), which made `x * alpha` with a NumPy scalar 16x slower than with a Python float.
// 0-d ndarrays (one type, any dtype) are not remembered. Under the GIL.
std::unordered_map<PyTypeObject*, std::optional<dtype>>& known_scalar_types() {
  static auto* known = new std::unordered_map<PyTypeObject*, std::optional<dtype>>();  // never destroyed
  return *known;
}

std::optional<dtype> scalar_dtype(nb::handle o) {
  auto& known = known_scalar_types();
  PyTypeObject* type = Py_TYPE(o.ptr());
  const bool remember = std::strncmp(type->tp_name, "numpy.", 6) == 0 && std::strcmp(type->tp_name, "numpy.ndarray");
  nb::object name = nb::steal(PyObject_Str(o.attr("dtype").ptr()));
  if (!name.is_valid()) throw nb::python_error();
  auto t = ir::dtype_from_name(nb::cast<std::string>(name));
  if (remember) {
    Py_INCREF(reinterpret_cast<PyObject*>(type));  // the key stays valid: the type is never freed
    known.emplace(type, t);
  }
  return t;
}

node_ptr strong_scalar(nb::handle o, const node_ptr& like) {
  std::optional<dtype> t;
  auto seen = known_scalar_types().find(Py_TYPE(o.ptr()));  // a NumPy scalar type met before: 0-d, its dtype
  if (seen != known_scalar_types().end()) {
    t = seen->second;
  } else {
    if (!nb::hasattr(o, "dtype") || !nb::hasattr(o, "shape") || !nb::hasattr(o, "item")) return nullptr;
    nb::object shape = o.attr("shape");
    if (!PyTuple_Check(shape.ptr()) || PyTuple_GET_SIZE(shape.ptr()) != 0) return nullptr;
    t = scalar_dtype(o);
  }
  if (!t) return nullptr;
  nb::object item = o.attr("item")();
  if (ir::is_complex(*t)) {
    Py_complex c = PyComplex_AsCComplex(item.ptr());
    if (PyErr_Occurred()) throw nb::python_error();
    return array::make_scalar_complex(c.real, c.imag, *t, like);
  }
  if (ir::is_float(*t)) return array::make_scalar(PyFloat_AsDouble(item.ptr()), *t, like);
  if (ir::is_bool(*t)) return array::make_scalar_int(PyObject_IsTrue(item.ptr()) == 1, *t, like);
  std::int64_t v = ir::is_unsigned_int(*t) ? static_cast<std::int64_t>(PyLong_AsUnsignedLongLong(item.ptr()))
                                           : PyLong_AsLongLong(item.ptr());
  if (PyErr_Occurred()) throw nb::python_error();
  return array::make_scalar_int(v, *t, like);
}

// Scalar nodes for operators with a Python scalar: one made earlier on this thread with the same
// value, dtype and device is reused, so `x + 1.0` in a loop allocates no scalar node. Scalar nodes
// never change value (materialising one makes it a 0-d leaf of that value, which `kind` turns away).
node_ptr cached_scalar(double v, std::int64_t i, bool is_float, dtype t, const node_ptr& like) {
  thread_local node_ptr last[2];  // one float, one int
  node_ptr& slot = last[is_float ? 0 : 1];
  if (slot && slot->kind == array::node_kind::scalar && slot->t == t && slot->device == like->device &&
      slot->gpu == like->gpu && std::memcmp(&slot->fvalue, &v, sizeof v) == 0 && (is_float || slot->ivalue == i))
    return slot;
  slot = is_float ? array::make_scalar(v, t, like) : array::make_scalar_int(i, t, like);
  return slot;
}

// A Python int beyond int64 (`sign` +1 or -1) next to `like`, as NumPy 2 takes it: a float (or complex) array
// takes its value as a float (inf past the dtype's range); a uint64 array holds it up to 2^64 - 1; a comparison
// with an integer array it is out of range of is decided by its sign alone (compared as +-inf, exactly); any
// other use is NumPy's OverflowError.
node_ptr huge_int_operand(nb::handle o, int sign, const node_ptr& like, op_kind op) {
  using ok = array::operand_kind;
  const dtype t = array::result_type({ok::of(like->t), ok{ok::kind::py_int}});
  if (ir::is_float(t) || ir::is_complex(t) || op == op_kind::div) {
    const double d = PyLong_AsDouble(o.ptr());
    if (d == -1.0 && PyErr_Occurred()) throw nb::python_error();
    return array::make_scalar(d, ir::is_float(t) || ir::is_complex(t) ? t : dtype::f64, like);
  }
  if (t == dtype::u64 && sign > 0) {
    const unsigned long long u = PyLong_AsUnsignedLongLong(o.ptr());
    if (!(u == static_cast<unsigned long long>(-1) && PyErr_Occurred()))
      return array::make_scalar_int(static_cast<std::int64_t>(u), dtype::u64, like);  // the bits of u
    PyErr_Clear();
  }
  if (array::is_comparison(op)) return array::make_scalar(sign * std::numeric_limits<double>::infinity(), dtype::f64, like);
  fail(error_kind::overflow, "Python integer ", nb::cast<std::string>(nb::str(o)), " out of bounds for ", ir::name(t));
}

// `o` as a node next to `like` for op `op` (NumPy 2: a Python int divides as float64, and compares
// exactly even when it does not fit the array's dtype), or nullptr (NotImplemented).
// `reuse`: the node only feeds an operation (never handed to Python), so a cached one will do.
node_ptr operand(nb::handle o, const node_ptr& like, op_kind op = op_kind::add, bool reuse = false) {
  PyObject* p = o.ptr();
  if (nb::isinstance<py_array>(o)) return nb::cast<py_array&>(o).n;
  using ok = array::operand_kind;
  if (PyBool_Check(p)) {  // bool cannot be subclassed: np.bool_ is not a PyBool
    dtype t = array::result_type({ok::of(like->t), ok{ok::kind::py_bool}});
    return array::make_scalar_int(p == Py_True ? 1 : 0, t, like);
  }
  if (PyLong_CheckExact(p)) {
    int overflow = 0;
    long long v = PyLong_AsLongLongAndOverflow(p, &overflow);
    if (overflow) return huge_int_operand(o, overflow, like, op);
    dtype t = array::result_type({ok::of(like->t), ok{ok::kind::py_int}});
    if (ir::is_float(t) && reuse) return cached_scalar(static_cast<double>(v), 0, true, t, like);
    if (ir::is_float(t) || ir::is_complex(t)) return array::make_scalar(static_cast<double>(v), t, like);
    if (op == op_kind::div) return array::make_scalar(static_cast<double>(v), dtype::f64, like);
    if (array::is_comparison(op) && !array::int_scalar_fits(v, t))
      return array::make_scalar_int(v, dtype::i64, like);  // compared in a dtype that holds both
    array::check_int_scalar_fits(v, t);
    return reuse ? cached_scalar(static_cast<double>(v), v, false, t, like) : array::make_scalar_int(v, t, like);
  }
  if (PyFloat_CheckExact(p)) {
    dtype t = ir::is_float(like->t) ? like->t : array::result_type({ok::of(like->t), ok{ok::kind::py_float}});
    double v = PyFloat_AS_DOUBLE(p);
    return reuse && ir::is_float(t) ? cached_scalar(v, 0, true, t, like)
                                    : array::make_scalar(v, t, like);
  }
  if (PyComplex_CheckExact(p)) {
    dtype t = array::result_type({ok::of(like->t), ok{ok::kind::py_complex}});
    return array::make_scalar_complex(PyComplex_RealAsDouble(p), PyComplex_ImagAsDouble(p), t, like);
  }
  return strong_scalar(o, like);
}

// z ** n for complex z and a small Python integer n, by repeated squaring (NumPy multiplies for
// |n| <= 100, which is exact where exp(n log z) is not: (1+1j)**2 is 2j).
node_ptr complex_int_power(const node_ptr& z, long long n) {
  node_ptr result, square = z;
  for (long long e = n < 0 ? -n : n; e; e >>= 1) {
    if (e & 1) result = result ? array::make_binary(op_kind::mul, result, square) : square;
    if (e > 1) square = array::make_binary(op_kind::mul, square, square);
  }
  if (!result)  // z ** 0 = 1 everywhere, in z's shape and dtype
    return array::make_where(array::make_scalar_int(1, dtype::b1, z), array::make_scalar(1, z->t, z), z);
  if (n == 1)  // a new array, not z itself (adding -0 keeps every value, -0.0, inf and nan included)
    return array::make_binary(op_kind::add, z, array::make_scalar_complex(-0.0, -0.0, z->t, z));
  if (n > 0) return result;
  // 1 / z**|n|; 0 ** n is nan+nanj for n < 0 (npy_cpow), not 1 / 0.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  node_ptr inverse = array::make_binary(op_kind::div, array::make_scalar(1, z->t, z), result);
  return array::make_where(array::make_binary(op_kind::eq, z, array::make_scalar(0, z->t, z)),
                           array::make_scalar_complex(nan, nan, z->t, z), inverse);
}

nb::object binary(op_kind op, const py_array& self, nb::handle other, bool reflected) {
  if (op == op_kind::pow && !reflected && ir::is_complex(self.n->t) && PyLong_CheckExact(other.ptr())) {
    int overflow = 0;
    long long n = PyLong_AsLongLongAndOverflow(other.ptr(), &overflow);
    if (!overflow && n >= -100 && n <= 100) return nb::cast(wrap(complex_int_power(self.n, n)));
  }
  node_ptr b = operand(other, self.n, op, true);
  if (!b) return nb::borrow(Py_NotImplemented);
  return nb::cast(wrap(reflected ? array::make_binary(op, b, self.n) : array::make_binary(op, self.n, b)));
}

// In-place: self <op>= other, NumPy's same_kind casting of the result into self's dtype.
nb::object inplace(op_kind op, py_array& self, nb::handle other) {
  node_ptr b = operand(other, self.n, op);
  if (!b) return nb::borrow(Py_NotImplemented);
  const bool defer = array::may_defer_update(self.n, b);  // before value holds self.n
  node_ptr value = array::make_binary(op, self.n, b);
  if (!array::can_cast(value->t, self.n->t, array::casting::same_kind))
    fail(error_kind::type_error, "Cannot cast ufunc '", array::ufunc_name(op), "' output from dtype('", ir::name(value->t),
         "') to dtype('", ir::name(self.n->t), "') with casting rule 'same_kind'");
  if (defer && value->shape == self.n->shape) {  // x += A @ y: the write waits (array/deferred_update.hpp)
    self.n = array::defer_update(self.n, array::make_cast(value, self.n->t));
    return nb::none();
  }
  array::materialize(self.n);
  array::assign(self.n->data, self.n->lay, self.n->t, value, true);
  return nb::none();
}

// The binary operators as type slots (nb_add, ...): CPython calls them directly, without looking
// `__add__` up in the type and dispatching through nanobind. `a` or `b` is the ndarray (b: reflected).
template <op_kind Op>
PyObject* number_slot(PyObject* a, PyObject* b) {
  try {
    if (nb::isinstance<py_array>(nb::handle(a))) return binary(Op, *nb::inst_ptr<py_array>(a), b, false).release().ptr();
    return binary(Op, *nb::inst_ptr<py_array>(b), a, true).release().ptr();
  } catch (...) {
    set_python_error_from_current_exception();
    return nullptr;
  }
}
PyObject* power_slot(PyObject* a, PyObject* b, PyObject* mod) {
  if (mod != Py_None) Py_RETURN_NOTIMPLEMENTED;
  return number_slot<op_kind::pow>(a, b);
}

PyType_Slot number_slots[] = {
    {Py_nb_add, reinterpret_cast<void*>(number_slot<op_kind::add>)},
    {Py_nb_subtract, reinterpret_cast<void*>(number_slot<op_kind::sub>)},
    {Py_nb_multiply, reinterpret_cast<void*>(number_slot<op_kind::mul>)},
    {Py_nb_true_divide, reinterpret_cast<void*>(number_slot<op_kind::div>)},
    {Py_nb_floor_divide, reinterpret_cast<void*>(number_slot<op_kind::floordiv>)},
    {Py_nb_remainder, reinterpret_cast<void*>(number_slot<op_kind::mod>)},
    {Py_nb_power, reinterpret_cast<void*>(power_slot)},
    {Py_nb_and, reinterpret_cast<void*>(number_slot<op_kind::bit_and>)},
    {Py_nb_or, reinterpret_cast<void*>(number_slot<op_kind::bit_or>)},
    {Py_nb_xor, reinterpret_cast<void*>(number_slot<op_kind::bit_xor>)},
    {Py_nb_lshift, reinterpret_cast<void*>(number_slot<op_kind::shl>)},
    {Py_nb_rshift, reinterpret_cast<void*>(number_slot<op_kind::shr>)},
    {0, nullptr}};

const array::node& leaf(const py_array& a) {
  array::materialize(a.n);
  return *a.n;
}

std::vector<array::index_item> index_items(nb::handle key) {
  std::vector<array::index_item> items;
  auto one = [&](nb::handle k) {
    array::index_item it;
    PyObject* p = k.ptr();
    if (p == Py_None) {
      it.k = array::index_item::kind::newaxis;
    } else if (p == Py_Ellipsis) {
      it.k = array::index_item::kind::ellipsis;
    } else if (PySlice_Check(p)) {
      it.k = array::index_item::kind::slice;
      auto get = [&](const char* name) -> std::optional<std::int64_t> {
        nb::object v = k.attr(name);
        if (v.is_none()) return std::nullopt;
        return nb::cast<std::int64_t>(v.attr("__index__")());
      };
      it.start = get("start"), it.stop = get("stop"), it.step = get("step");
    } else if (PyLong_Check(p) || (PyIndex_Check(p) && !PyBool_Check(p) &&
                                    (!nb::hasattr(k, "shape") || nb::len(nb::object(k.attr("shape"))) == 0))) {
      it.value = nb::cast<std::int64_t>(k.attr("__index__")());
    } else {
      return false;
    }
    items.push_back(it);
    return true;
  };
  if (PyTuple_Check(key.ptr())) {
    for (nb::handle k : key)
      if (!one(k)) return {};
    if (items.empty()) items.push_back({array::index_item::kind::ellipsis});
  } else if (!one(key)) {
    return {};
  }
  return items;
}

py_array view(const py_array& a, array::layout l) {
  const array::node& n = leaf(a);
  return py_array{array::make_leaf(n.data, std::move(l), n.t)};
}

py_array from_host(std::uintptr_t ptr, const array::dims& shape, const std::string& dtype_name, nb::handle device) {
  dtype t = dtype_named(dtype_name);
  const auto bytes = static_cast<std::size_t>(array::checked_nbytes(shape, ir::size_bytes(t)));
  std::shared_ptr<array::storage> s;
  if (device.is_none() || nb::cast<int>(device) < 0) {
    s = array::storage::allocate_cpu(bytes);
    if (bytes) std::memcpy(s->host(), reinterpret_cast<const void*>(ptr), bytes);
  } else {
    rt::device& dev = rt::device::get(nb::cast<int>(device));
    s = array::storage::allocate_cuda(bytes, dev);
    if (bytes) {
      nb::gil_scoped_release g;
      s->buffer()->copy_from_host(reinterpret_cast<const void*>(ptr), bytes, 0, array::array_stream(dev));
    }
  }
  return py_array{array::make_leaf(s, array::contiguous(shape), t)};
}

py_array empty(const array::dims& shape, const std::string& dtype_name, int device) {
  dtype t = dtype_named(dtype_name);
  const auto bytes = static_cast<std::size_t>(array::checked_nbytes(shape, ir::size_bytes(t)));
  auto s = device < 0 ? array::storage::allocate_cpu(bytes) : array::storage::allocate_cuda(bytes, rt::device::get(device));
  return py_array{array::make_leaf(s, array::contiguous(shape), t)};
}

// NumPy's array-interface typestr of dtype t ('<f4', '|b1', '<c16'); bfloat16 has none.
std::string typestr(ir::dtype t) {
  const char kind = ir::is_bool(t) ? 'b' : ir::is_signed_int(t) ? 'i' : ir::is_unsigned_int(t) ? 'u'
                  : ir::is_complex(t) ? 'c' : 'f';
  if (t == ir::dtype::bf16 || ir::is_float8(t))
    fail(error_kind::type_error, "the array interface has no typestr for ", ir::name(t));
  const std::size_t item = ir::size_bytes(t);
  return std::string(item == 1 ? "|" : "<") + kind + std::to_string(item);
}

// The (CUDA) array interface of a's memory for a consumer that may write it: pending readers of those bytes take
// their values first (the write is counted).
nb::dict array_interface(const py_array& a, bool cuda) {
  const array::node& n = leaf(a);
  if (cuda != (n.device == array::device_kind::cuda))
    throw nb::attribute_error(cuda ? "a CPU (interpreter) array has no __cuda_array_interface__"
                                   : "a GPU array has no host array interface: copy it with .get()");
  array::flush_readers(*n.data, nullptr, array::byte_extent(n.lay, ir::size_bytes(n.t)));
  const std::int64_t item = ir::size_bytes(n.t);
  nb::list strides;
  for (auto s : n.lay.strides) strides.append(s * item);
  nb::dict d;
  d["shape"] = to_tuple(n.shape);
  d["typestr"] = typestr(n.t);
  n.data->address_shown = true;  // a consumer may read or write it without the engine
  d["data"] = nb::make_tuple(array::element_address(n), false);
  d["strides"] = nb::tuple(strides);
  d["version"] = 3;
  if (cuda) d["stream"] = 1;
  return d;
}

// Whether a and b may touch the same bytes (their extents overlap, as NumPy's may_share_memory).
bool shares_memory(const py_array& a, const py_array& b) {
  const array::node& x = leaf(a);
  const array::node& y = leaf(b);
  if (x.device != y.device || x.gpu != y.gpu || x.size() == 0 || y.size() == 0) return false;
  auto span = [](const array::node& n) {
    array::byte_range r = array::byte_extent(n.lay, ir::size_bytes(n.t));
    return std::make_pair(n.data->address() + r.lo, n.data->address() + r.hi);
  };
  auto [lo_a, hi_a] = span(x);
  auto [lo_b, hi_b] = span(y);
  return lo_a < hi_b && lo_b < hi_a;
}

// A contiguous leaf with the same values (itself when already contiguous).
node_ptr contiguous_leaf(const py_array& a) { return array::contiguous_leaf(a.n); }

void to_host(const py_array& a, std::uintptr_t dst) {
  node_ptr c = contiguous_leaf(a);
  std::size_t bytes = static_cast<std::size_t>(c->size()) * ir::size_bytes(c->t);
  if (!bytes) return;
  std::size_t offset = static_cast<std::size_t>(c->lay.offset) * ir::size_bytes(c->t);
  if (c->device == array::device_kind::cpu) {
    std::memcpy(reinterpret_cast<void*>(dst), static_cast<const char*>(c->data->host()) + offset, bytes);
    return;
  }
  nb::gil_scoped_release g;
  c->data->buffer()->copy_to_host(reinterpret_cast<void*>(dst), bytes, offset, array::array_stream(*c->gpu));
}

const char* op_text(op_kind k) { return ir::info(k).text; }

op_kind op_named(const std::string& name) {
  auto k = ir::op_from_text(name);
  if (!k) fail(error_kind::invalid_argument, "unknown array op '", name, "'");
  return *k;
}

}  // namespace

array::node_ptr borrowed_leaf(std::uintptr_t ptr, array::layout l, ir::dtype t, int device, nb::object owner) {
  if (l.strides.size() != l.shape.size()) fail(error_kind::invalid_argument, "strides must have one entry per axis");
  array::checked_nbytes(l.shape, ir::size_bytes(t));
  auto [lo, hi] = l.extent();
  std::size_t bytes = static_cast<std::size_t>(hi - lo) * ir::size_bytes(t);
  auto keep = std::shared_ptr<void>(owner.release().ptr(), [](void* o) {
    nb::gil_scoped_acquire g;
    Py_DECREF(static_cast<PyObject*>(o));
  });
  std::uintptr_t base = ptr + static_cast<std::uintptr_t>(lo * ir::size_bytes(t));
  l.offset = -lo;
  auto s = device < 0 ? array::storage::borrow_cpu(reinterpret_cast<void*>(base), bytes, keep)
                      : array::storage::borrow_cuda(base, bytes, rt::device::get(device), keep);
  return array::make_leaf(s, l, t);
}

void bind_array(nb::module_& m) {
  auto cls = nb::class_<py_array>(m, "ndarray", nb::type_slots(number_slots),
                                  "A tegula array: materialised (device memory + layout) or pending (a lazy expression).");
  cls.def("__init__", [](py_array* self, nb::args args, nb::kwargs kwargs) {
        // NumPy's ndarray(shape, dtype=float, buffer=None, offset=0, strides=None, order=None): tegula.numpy
        // registers the constructor (its dtype and default-device rules), so this class only delegates to it.
        if (!ndarray_constructor().is_valid())
          fail(error_kind::not_implemented, "ndarray(): import tegula.numpy to construct arrays");
        nb::object made = ndarray_constructor()(*args, **kwargs);
        new (self) py_array{nb::cast<py_array&>(made).n};
      })
      .def_prop_rw("shape", [](const py_array& a) { return to_tuple(a.n->shape); },
                   [](py_array& a, nb::handle shape) {
        // NumPy's in-place reshape: this array becomes a view of the same memory in the new shape, or
        // AttributeError where that needs a copy (its size must match: NumPy's ValueError otherwise).
        const array::node& l = leaf(a);
        array::dims s = array::resolve_reshape(l.size(), to_dims(shape));
        std::optional<array::layout> v = array::reshape_view(l.lay, s);
        if (!v) throw nb::attribute_error("Incompatible shape for in-place modification. Use `.reshape()` to make a "
                                          "copy with the desired shape.");
        a.n = array::make_leaf(l.data, *v, l.t);
      })
      .def_prop_ro("ndim", [](const py_array& a) { return a.n->shape.size(); })
      .def_prop_ro("size", [](const py_array& a) { return a.n->size(); })
      .def_prop_ro("_dtype_name", [](const py_array& a) { return std::string(ir::name(a.n->t)); })
      .def_prop_ro("itemsize", [](const py_array& a) { return ir::size_bytes(a.n->t); })
      .def_prop_ro("_device_id", [](const py_array& a) {
        return a.n->device == array::device_kind::cpu ? -1 : a.n->gpu->ordinal();
      })
      .def_prop_ro("_pending", [](const py_array& a) { return a.n->pending(); })
      .def("_materialize", [](const py_array& a) { array::materialize(a.n); })
      .def_prop_ro("_strides", [](const py_array& a) { return to_tuple(leaf(a).lay.strides); })
      .def_prop_ro("_c_contiguous", [](const py_array& a) { return leaf(a).lay.c_contiguous(); })
      .def_prop_ro("_offset", [](const py_array& a) { return leaf(a).lay.offset; })
      .def_prop_ro("_data_ptr", [](const py_array& a) {
        const array::node& n = leaf(a);
        n.data->address_shown = true;
        return array::element_address(n);
      })
      .def("_prepare_write", [](const py_array& a) { array::flush_readers(*leaf(a).data); },
           "Materialises the pending expressions that read this array's memory: call before anything outside "
           "the engine (a tile kernel, a DLPack or CUDA-array-interface consumer) may write it.")
      .def_prop_ro("_base_id", [](const py_array& a) { return reinterpret_cast<std::uintptr_t>(leaf(a).data.get()); })
      .def_prop_ro("_value_key", [](const py_array& a) -> nb::object {
        auto k = array::make_value_key(a.n);
        if (!k) return nb::none();
        nb::list leaves;
        for (const auto& l : k->leaves) leaves.append(nb::cast(py_array{l}));
        return nb::make_tuple(nb::bytes(k->key.data(), k->key.size()), leaves);
      }, "(key, leaves) naming this array's value (array/value_key.hpp): equal keys hold equal values while each "
         "leaf's _writes is unchanged; None for reductions, scans and very large graphs.")
      .def_prop_ro("_writes", [](const py_array& a) { return leaf(a).data->writes; },
                   "How many times the memory was about to be written (storage.hpp): unchanged contents while equal.")
      .def_prop_ro("_sole_owner", [](const py_array& a) { return array::sole_owner(a.n); }, "Whether this Python array alone holds its node and memory (a materialised array no view, pending "
         "expression or other array shares): handing it to a new owner aliases nothing.")
      .def_prop_ro("_serial", [](const py_array& a) { return leaf(a).data->serial; },
                   "The memory's serial (storage.hpp): unique for the process, never reused (unlike _base_id).")
      .def("_to_host", &to_host, nb::arg("dst"))
      .def("_array_interface", &array_interface, nb::arg("cuda"),
           "The (CUDA) array interface dict of this array's memory for a consumer that may write it (pending readers "
           "of those bytes take their values first).")
      .def("_shares_memory", &shares_memory, nb::arg("other"),
           "Whether the two arrays' byte extents overlap (NumPy's may_share_memory).")
      .def("_export_dlpack", [](const py_array& a, nb::handle stream, nb::handle max_version) {
        return export_dlpack(a, stream, max_version);
      }, nb::arg("stream").none(), nb::arg("max_version").none(),
           "DLPack export of this array's memory (zero-copy, N-d, strided), ordered before the consumer's "
           "`stream`; ndarray.__dlpack__ resolves copy= and dl_device= first.")
      .def("_contiguous", [](const py_array& a) { return py_array{contiguous_leaf(a)}; })
      .def("_binary", [](const py_array& a, const std::string& op, nb::handle other, bool reflected) {
        return binary(op_named(op), a, other, reflected);
      }, nb::arg("op"), nb::arg("other"), nb::arg("reflected") = false)
      .def("_inplace", [](py_array& a, const std::string& op, nb::handle other) { return inplace(op_named(op), a, other); })
      .def("_unary", [](const py_array& a, const std::string& op) { return wrap(array::make_unary(op_named(op), a.n)); })
      .def("astype", [](const py_array& a, const std::string& t) { return wrap(array::make_cast(a.n, dtype_named(t))); },
           nb::arg("dtype"))
      .def("_reduce", [](const py_array& a, const std::string& op, nb::handle axis, bool keepdims) {
        std::vector<std::int64_t> axes;
        bool all = axis.is_none();
        if (!all) axes = to_dims(axis);
        return wrap(array::make_reduce(op_named(op), a.n, axes, all, keepdims));
      }, nb::arg("op"), nb::arg("axis").none(), nb::arg("keepdims") = false)
      .def("_scan", [](const py_array& a, const std::string& op, std::int64_t axis) {
        return wrap(array::make_scan(op_named(op), a.n, axis));
      }, nb::arg("op"), nb::arg("axis"))
      .def("_part", [](const py_array& a, int which) { return wrap(array::make_part(a.n, which)); },
           "The real (0) or imaginary (1) part of a complex array: a writable view when it is in memory.")
      .def("_complex", [](const py_array& re, const py_array& im) { return wrap(array::make_complex(re.n, im.n)); },
           "re + im * 1j (NumPy's dtype: the complex type holding both parts).")
      .def("_where", [](const py_array& c, const py_array& x, const py_array& y) {
        return wrap(array::make_where(c.n, x.n, y.n));
      })
      .def("_scalar_like", [](const py_array& a, nb::handle v) {
        node_ptr s = operand(v, a.n);
        if (!s) fail(error_kind::type_error, "not a scalar: ", nb::cast<std::string>(nb::repr(v)));
        return py_array{s};
      })
      .def("_getitem_basic", [](const py_array& a, nb::handle key) -> nb::object {
        auto items = index_items(key);
        if (items.empty()) return nb::none();
        if (auto v = array::make_pending_view(a.n, items)) return nb::cast(py_array{v});  // computed where read
        return nb::cast(view(a, array::subscript(leaf(a).lay, items)));
      })
      .def("_setitem_basic", [](const py_array& a, nb::handle key, const py_array& value) -> bool {
        auto items = index_items(key);
        if (items.empty()) return false;
        const auto& n = leaf(a);
        array::assign(n.data, array::subscript(n.lay, items), n.t, value.n);
        return true;
      })
      .def("_assign", [](const py_array& a, const py_array& value, bool temporary) {
        const auto& n = leaf(a);
        array::assign(n.data, n.lay, n.t, value.n, temporary);
      }, nb::arg("value"), nb::arg("temporary") = false,
         "a[...] = value. temporary=True: nothing else holds value (it may be evaluated straight into a's memory "
         "even where it reads a, element by element).")
      .def("_transpose", [](const py_array& a, std::vector<int> perm) { return view(a, array::transpose(leaf(a).lay, perm)); })
      .def("_broadcast_to", [](const py_array& a, nb::handle shape) {
        return view(a, array::broadcast_to(leaf(a).lay, to_dims(shape)));
      })
      .def("_squeeze", [](const py_array& a, std::vector<int> axes) { return view(a, array::squeeze(leaf(a).lay, axes)); })
      .def("_expand_dims", [](const py_array& a, std::vector<int> axes) { return view(a, array::expand_dims(leaf(a).lay, axes)); })
      .def("_reshape", [](const py_array& a, nb::handle shape) {
        array::dims s = array::resolve_reshape(a.n->size(), to_dims(shape));
        if (auto v = array::make_pending_reshape(a.n, s)) return py_array{v};  // computed where read
        if (auto v = array::reshape_view(leaf(a).lay, s)) return view(a, *v);
        node_ptr c = contiguous_leaf(a);
        return py_array{array::make_leaf(c->data, *array::reshape_view(c->lay, s), c->t)};
      })
      .def("_raw_view", [](const py_array& a, nb::handle shape, nb::handle strides, std::int64_t offset) {
        return view(a, array::layout{to_dims(shape), to_dims(strides), offset});
      })
      .def("_view_as", [](const py_array& a, const std::string& dtype_name) {
        const array::node& n = leaf(a);
        const dtype t = dtype_named(dtype_name);
        array::layout l = array::reinterpret(n.lay, int(ir::size_bytes(n.t)), int(ir::size_bytes(t)));
        return py_array{array::make_leaf(n.data, std::move(l), t)};
      }, "The same memory read as another dtype (ndarray.view(dtype)); the last axis scales with the item size.");

  // Operators in C++: no Python frame per operation. The binary ones are type slots (number_slots);
  // only their in-place forms are methods.
  struct binop {
    const char* name;
    op_kind op;
  };
  static const binop binops[] = {
      {"add", op_kind::add},          {"sub", op_kind::sub},     {"mul", op_kind::mul},
      {"truediv", op_kind::div},      {"floordiv", op_kind::floordiv}, {"mod", op_kind::mod},
      {"pow", op_kind::pow},          {"and", op_kind::bit_and}, {"or", op_kind::bit_or},
      {"xor", op_kind::bit_xor},      {"lshift", op_kind::shl},  {"rshift", op_kind::shr}};
  for (const auto& b : binops) {
    std::string n = b.name;
    op_kind op = b.op;
    cls.def(("__i" + n + "__").c_str(), [op](nb::handle self, nb::handle o) -> nb::object {
      nb::object r = inplace(op, nb::cast<py_array&>(self), o);
      return r.is(nb::handle(Py_NotImplemented)) ? r : nb::borrow(self);  // `a += b` keeps a's object
    });
  }
  static const binop compares[] = {{"eq", op_kind::eq}, {"ne", op_kind::ne}, {"lt", op_kind::lt},
                                   {"le", op_kind::le}, {"gt", op_kind::gt}, {"ge", op_kind::ge}};
  for (const auto& b : compares) {
    op_kind op = b.op;
    cls.def(("__" + std::string(b.name) + "__").c_str(),
            [op](const py_array& a, nb::handle o) { return binary(op, a, o, false); });
  }
  cls.def("__neg__", [](const py_array& a) { return wrap(array::make_unary(op_kind::neg, a.n)); })
      .def("__abs__", [](const py_array& a) { return wrap(array::make_unary(op_kind::abs, a.n)); })
      .def("__invert__", [](const py_array& a) { return wrap(array::make_unary(op_kind::logical_not, a.n)); })
      .def("__pos__", [](const py_array& a) {
        if (ir::is_bool(a.n->t))
          fail(error_kind::type_error, "ufunc 'positive' did not contain a loop with signature matching types "
                                       "<class 'numpy.dtypes.BoolDType'> -> None");
        return wrap(array::make_binary(op_kind::mul, a.n, array::make_scalar_int(1, a.n->t, a.n)));  // keeps -0.0
      });
  cls.attr("__hash__") = nb::none();

  m.def("array_from_host", &from_host, nb::arg("ptr"), nb::arg("shape"), nb::arg("dtype"), nb::arg("device").none());
  m.def("array_empty", [](nb::handle shape, const std::string& t, int device) { return empty(to_dims(shape), t, device); },
        nb::arg("shape"), nb::arg("dtype"), nb::arg("device"));
  m.def("array_from_pointer", [](std::uintptr_t ptr, nb::handle shape, nb::handle strides, const std::string& t,
                                 int device, nb::object owner) {
    return py_array{borrowed_leaf(ptr, array::layout{to_dims(shape), to_dims(strides), 0}, dtype_named(t), device,
                                  std::move(owner))};
  }, nb::arg("ptr"), nb::arg("shape"), nb::arg("strides"), nb::arg("dtype"), nb::arg("device"), nb::arg("owner"),
     "A zero-copy array over someone else's memory (strides in elements); `owner` is kept alive.");
  m.def("array_iota", [](std::int64_t n, double start, double step, const std::string& t, int device) {
    rt::device* gpu = device < 0 ? nullptr : &rt::device::get(device);
    return py_array{array::make_iota(n, start, step, dtype_named(t), device < 0 ? array::device_kind::cpu
                                                                                : array::device_kind::cuda, gpu)};
  }, nb::arg("n"), nb::arg("start"), nb::arg("step"), nb::arg("dtype"), nb::arg("device"),
     "start + i * step for i < n, computed on the device (arange, linspace).");
  m.def("array_set_eager", [](bool on) { eager_mode = on; });
  m.def("_set_ndarray_constructor", [](nb::object f) { ndarray_constructor() = std::move(f); },
        "The function ndarray(shape, dtype, ...) calls (tegula.numpy registers it).");
  m.def("array_eager", []() { return eager_mode; });
  m.def("array_set_poison", [](bool on) { array::storage::set_poison(on); }, nb::arg("on"),
        "Tests: fill new CPU array allocations with 0xff bytes (NaN), so unwritten elements show.");
  m.def("array_stats", []() {
    const auto& s = array::stats();
    nb::dict d;
    d["builds"] = s.builds, d["hits"] = s.hits, d["launches"] = s.launches;
    d["plan_ns"] = s.plan_ns, d["lookup_ns"] = s.lookup_ns, d["build_ns"] = s.build_ns, d["launch_ns"] = s.launch_ns;
    d["vm_launches"] = s.vm_launches, d["background_starts"] = s.background_starts;
    return d;
  });
  m.def("array_last_kernel", []() -> nb::object {
    const array::array_kernel* k = array::last_kernel();
    if (!k) return nb::none();
    return nb::make_tuple(ir::print(k->fn), k->source.source, k->source.block_threads);
  }, "(post-pass IR text, CUDA source or '', block threads) of the last array kernel built or used.");
  m.def("array_last_translation", [](int arch) -> nb::object {
    const array::array_kernel* k = array::last_kernel();
    if (!k) return nb::none();
    return nb::cast(array::translate_for(*k, arch));
  }, nb::arg("arch"),
  "The KernelTranslation of the last array kernel for `arch`, as the engine generates it (no GPU needed), or None.");
  m.def("array_record_kernels", [](bool on) { array::set_recording(on); }, nb::arg("on"),
        "Starts (a fresh record) or stops recording every distinct array kernel built or run.");
  m.def("array_recorded_translations", [](int arch) {
    std::vector<kernel::translation> out;
    for (const array::array_kernel* k : array::recorded()) out.push_back(array::translate_for(*k, arch));
    return out;
  }, nb::arg("arch"),
  "The KernelTranslation for `arch` of every kernel recorded (array_record_kernels), in order of first use.");
  m.def("array_synchronize", [](int device) {
    interruptible_sync(array::array_stream(rt::device::get(device)));
  });
  (void)op_text;
}

}  // namespace tegula::bind
