// Launch arguments: Python objects -> kernel parameter bytes, and device pointers of foreign arrays.
#include "tegula/bindings/arguments.hpp"

#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>

#include "tegula/runtime/buffer.hpp"
#include "tegula/support/dlpack.hpp"
#include "tegula/support/error.hpp"

namespace tegula::bind {
namespace {

PyTypeObject* buffer_type = nullptr;

enum class protocol { unknown, torch, cuda_array_interface, dlpack, bytes_like, none };

// Per Python type, which protocol yields its device pointer (looked up once per type).
std::unordered_map<PyTypeObject*, protocol>& protocols() {
  static std::unordered_map<PyTypeObject*, protocol> m;
  return m;
}

std::string python_type_name(nb::handle h) { return nb::type_name(h.type()).c_str(); }

[[noreturn]] void bad_argument(rt::kernel& k, std::size_t i, nb::handle obj, const std::string& why) {
  fail(error_kind::type_error, "kernel '", k.name(), "' argument ", i, " (", python_type_name(obj), "): ", why);
}

protocol classify(nb::handle obj) {
  PyTypeObject* t = Py_TYPE(obj.ptr());
  auto& m = protocols();
  auto it = m.find(t);
  if (it != m.end()) return it->second;
  protocol p = protocol::none;
  std::string module = nb::borrow<nb::str>(nb::handle(reinterpret_cast<PyObject*>(t)).attr("__module__")).c_str();
  // Buffer-protocol objects (numpy arrays and scalars, bytes, ctypes) are host memory: they are
  // checked before DLPack, which numpy also speaks.
  if (module.rfind("torch", 0) == 0 && nb::hasattr(obj, "data_ptr")) p = protocol::torch;
  else if (nb::hasattr(obj, "__cuda_array_interface__")) p = protocol::cuda_array_interface;
  else if (PyObject_CheckBuffer(obj.ptr())) p = protocol::bytes_like;
  else if (nb::hasattr(obj, "__dlpack__")) p = protocol::dlpack;
  m.emplace(t, p);
  return p;
}

std::uintptr_t dlpack_pointer(nb::handle obj, CUstream consumer) {
  // DLPack's CUDA stream convention: 1 = legacy default stream; never 0.
  if (nb::hasattr(obj, "__dlpack_device__")) {
    int type = nb::cast<int>(obj.attr("__dlpack_device__")()[0]);
    if (type != dlpack::kDLCUDA && type != dlpack::kDLCUDAManaged)
      fail(error_kind::type_error, "the array is not in GPU memory (DLPack device type ", type,
           "); copy it to the GPU first");
  }
  std::uintptr_t raw = reinterpret_cast<std::uintptr_t>(consumer);
  nb::object capsule = obj.attr("__dlpack__")(nb::arg("stream") = raw == 0 ? 1 : raw);
  PyObject* c = capsule.ptr();
  const dlpack::DLTensor* t = nullptr;
  if (PyCapsule_IsValid(c, "dltensor_versioned"))
    t = &static_cast<dlpack::DLManagedTensorVersioned*>(PyCapsule_GetPointer(c, "dltensor_versioned"))->dl_tensor;
  else if (PyCapsule_IsValid(c, "dltensor"))
    t = &static_cast<dlpack::DLManagedTensor*>(PyCapsule_GetPointer(c, "dltensor"))->dl_tensor;
  else
    fail(error_kind::type_error, "__dlpack__ did not return a DLPack capsule");
  if (t->device.device_type != dlpack::kDLCUDA && t->device.device_type != dlpack::kDLCUDAManaged)
    fail(error_kind::type_error, "the array is not in GPU memory (DLPack device type ", t->device.device_type,
         "); copy it to the GPU first");
  // The capsule is not consumed: its destructor frees the producer's view, not the memory,
  // which the caller's object still owns.
  return reinterpret_cast<std::uintptr_t>(t->data) + t->byte_offset;
}

// foreign_device_pointer, with its errors prefixed by the kernel and argument they concern.
std::optional<std::uintptr_t> foreign_pointer_of_argument(rt::kernel& k, std::size_t i, nb::handle o, CUstream s) {
  try {
    return foreign_device_pointer(o, s);
  } catch (const error& e) {
    bad_argument(k, i, o, e.what());
  }
}

}  // namespace

void set_buffer_type(PyTypeObject* type) { buffer_type = type; }

std::optional<std::uintptr_t> foreign_device_pointer(nb::handle obj, CUstream consumer) {
  switch (classify(obj)) {
    case protocol::torch: {
      if (!nb::cast<bool>(obj.attr("is_cuda")))
        fail(error_kind::type_error, "the torch tensor is on the CPU; move it to the GPU first (.cuda())");
      return nb::cast<std::uintptr_t>(obj.attr("data_ptr")());
    }
    case protocol::cuda_array_interface: {
      nb::object cai = obj.attr("__cuda_array_interface__");
      nb::object data = cai["data"];
      return nb::cast<std::uintptr_t>(data[0]);
    }
    case protocol::dlpack:
      return dlpack_pointer(obj, consumer);
    default:
      return std::nullopt;
  }
}

void pack_arguments(rt::kernel& k, PyObject* const* args, std::size_t nargs, rt::param_buffer& out,
                    CUstream stream) {
  const auto& params = k.params();
  if (nargs != params.size())
    fail(error_kind::type_error, "kernel '", k.name(), "' takes ", params.size(), " argument",
         params.size() == 1 ? "" : "s", " but ", nargs, (nargs == 1 ? " was" : " were"), " given");
  for (std::size_t i = 0; i < nargs; ++i) {
    PyObject* o = args[i];
    const rt::param_info& p = params[i];
    PyTypeObject* t = Py_TYPE(o);
    if (t == buffer_type) {
      auto* b = nb::inst_ptr<rt::buffer>(o);
      if (b->closed()) bad_argument(k, i, o, "the buffer is closed");
      if (p.size != sizeof(CUdeviceptr))
        bad_argument(k, i, o, str("a buffer is a pointer (8 bytes) but the parameter has ", p.size, " bytes"));
      CUdeviceptr ptr = b->ptr();
      out.put(p.offset, &ptr, sizeof ptr);
    } else if (t == &PyLong_Type) {
      int overflow = 0;
      long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
      unsigned long long u = static_cast<unsigned long long>(v);
      if (overflow > 0) {
        u = PyLong_AsUnsignedLongLong(o);
        if (PyErr_Occurred()) {
          PyErr_Clear();
          bad_argument(k, i, o, "does not fit in 64 bits");
        }
      } else if (overflow < 0) {
        bad_argument(k, i, o, "does not fit in 64 bits");
      }
      if (p.size < 8) {
        long long lo = -(1ll << (8 * p.size - 1)), hi = (1ll << (8 * p.size)) - 1;
        if (overflow || v < lo || v > hi)
          bad_argument(k, i, o, str(nb::repr(o).c_str(), " does not fit the ", p.size, "-byte integer parameter"));
      } else if (p.size != 8) {
        bad_argument(k, i, o, str("an int cannot fill a ", p.size, "-byte parameter (a struct?); pass bytes"));
      }
      out.put(p.offset, &u, p.size);  // little-endian: the low bytes
    } else if (t == &PyFloat_Type) {
      double d = PyFloat_AS_DOUBLE(o);
      if (p.size == 8) {
        out.put(p.offset, &d, 8);
      } else if (p.size == 4) {
        float f = float(d);
        out.put(p.offset, &f, 4);
      } else {
        bad_argument(k, i, o, str("a float cannot fill a ", p.size, "-byte parameter; pass a numpy scalar"));
      }
    } else if (t == &PyBool_Type) {
      if (p.size != 1) bad_argument(k, i, o, str("a bool fills a 1-byte parameter, not ", p.size, " bytes"));
      unsigned char b = o == Py_True;
      out.put(p.offset, &b, 1);
    } else if (auto ptr = foreign_pointer_of_argument(k, i, o, stream)) {
      if (p.size != 8)
        bad_argument(k, i, o, str("a GPU array is a pointer (8 bytes) but the parameter has ", p.size, " bytes"));
      out.put(p.offset, &*ptr, 8);
    } else if (PyObject_CheckBuffer(o)) {
      Py_buffer view;
      if (PyObject_GetBuffer(o, &view, PyBUF_C_CONTIGUOUS) != 0) {
        PyErr_Clear();
        bad_argument(k, i, o, "its buffer is not contiguous");
      }
      // Scalars (ndim 0) and flat byte strings (bytes, a uint8 view) are parameter values; anything
      // else with the buffer protocol is an array in host memory.
      std::size_t len = std::size_t(view.len);
      bool value_like = view.ndim == 0 || (view.ndim == 1 && view.itemsize == 1);
      if (value_like && len == p.size) out.put(p.offset, view.buf, len);
      PyBuffer_Release(&view);
      if (!value_like)
        bad_argument(k, i, o, "a host array cannot be passed to a kernel: copy it to the GPU first "
                              "(tegula.core.Buffer.from_host, or a torch/cupy/tegula GPU array)");
      if (len != p.size)
        bad_argument(k, i, o, str("it holds ", len, " bytes but the parameter has ", p.size));
    } else {
      bad_argument(k, i, o, "cannot be passed to a kernel (expected a GPU array or buffer, an int, a float, "
                            "or a numpy scalar)");
    }
  }
}

}  // namespace tegula::bind
