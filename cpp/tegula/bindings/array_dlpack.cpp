// DLPack export of tegula arrays (N-d, strided, every tile dtype), on the array API's stream rule:
// array work is ordered on the device's legacy default stream, so a consumer on another stream is
// made to wait for it. CPU (interpreter) arrays export as kDLCPU tensors.
#include <nanobind/stl/pair.h>

#include <string>
#include <vector>

#include "tegula/array/materialize.hpp"
#include "tegula/bindings/bind_support.hpp"
#include "tegula/bindings/py_array.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/runtime/stream.hpp"
#include "tegula/support/dlpack.hpp"
#include "tegula/support/error.hpp"

namespace tegula::bind {
namespace {

struct export_ctx {
  array::node_ptr keep;  // the leaf (and so its storage) lives as long as the consumer's tensor
  std::vector<std::int64_t> shape, strides;
};

template <class Managed>
void delete_managed(Managed* m) {
  delete static_cast<export_ctx*>(m->manager_ctx);
  delete m;
}

template <class Managed>
void capsule_destructor(PyObject* capsule) {
  const char* name = PyCapsule_GetName(capsule);
  if (name && std::string(name).rfind("used_", 0) != 0) {
    auto* m = static_cast<Managed*>(PyCapsule_GetPointer(capsule, name));
    if (m && m->deleter) m->deleter(m);
  }
  PyErr_Clear();
}

dlpack::DLDataType dl_dtype(ir::dtype t) {
  auto bits = static_cast<std::uint8_t>(ir::size_bits(t) == 1 ? 8 : ir::size_bits(t));
  if (ir::is_bool(t)) return {dlpack::kDLBool, 8, 1};
  if (t == ir::dtype::bf16) return {dlpack::kDLBfloat, 16, 1};
  if (ir::is_float(t)) return {dlpack::kDLFloat, bits, 1};
  if (ir::is_signed_int(t)) return {dlpack::kDLInt, bits, 1};
  return {dlpack::kDLUInt, bits, 1};
}

template <class Managed>
nb::object capsule(const array::node_ptr& leaf, const char* name) {
  auto* ctx = new export_ctx{leaf, leaf->lay.shape, leaf->lay.strides};
  auto* m = new Managed{};
  if constexpr (std::is_same_v<Managed, dlpack::DLManagedTensorVersioned>) {
    m->version = {1, 0};
    m->flags = 0;
  }
  dlpack::DLTensor& t = m->dl_tensor;
  t.data = reinterpret_cast<void*>(leaf->data->address() +
                                   static_cast<std::uintptr_t>(leaf->lay.offset * ir::size_bytes(leaf->t)));
  t.device = leaf->device == array::device_kind::cpu ? dlpack::DLDevice{dlpack::kDLCPU, 0}
                                                     : dlpack::DLDevice{dlpack::kDLCUDA, leaf->gpu->ordinal()};
  t.ndim = static_cast<std::int32_t>(ctx->shape.size());
  t.dtype = dl_dtype(leaf->t);
  t.shape = ctx->shape.data();
  t.strides = ctx->strides.data();
  t.byte_offset = 0;
  m->manager_ctx = ctx;
  m->deleter = &delete_managed<Managed>;
  PyObject* c = PyCapsule_New(m, name, &capsule_destructor<Managed>);
  if (!c) {
    delete_managed(m);
    throw nb::python_error();
  }
  return nb::steal(c);
}

}  // namespace

nb::object export_dlpack(const py_array& a, nb::handle stream, nb::handle max_version, nb::handle copy) {
  if (!copy.is_none() && nb::cast<bool>(copy))
    fail(error_kind::not_implemented, "__dlpack__(copy=True): copy the array first (a.copy())");
  array::materialize(a.n);
  const array::node_ptr& leaf = a.n;
  if (leaf->device == array::device_kind::cuda && !stream.is_none()) {
    long long s = nb::cast<long long>(stream);
    if (s == 0) fail(error_kind::invalid_argument, "__dlpack__: stream=0 is ambiguous for CUDA; use 1 (legacy default) or 2 (per-thread)");
    if (s != -1 && s != 1) {
      auto consumer = rt::stream::wrap(s == 2 ? CU_STREAM_PER_THREAD : reinterpret_cast<CUstream>(s), *leaf->gpu);
      consumer->wait(*leaf->gpu->default_stream());
    }
  }
  bool versioned = !max_version.is_none() && nb::cast<int>(max_version[0]) >= 1;
  return versioned ? capsule<dlpack::DLManagedTensorVersioned>(leaf, "dltensor_versioned")
                   : capsule<dlpack::DLManagedTensor>(leaf, "dltensor");
}

}  // namespace tegula::bind
