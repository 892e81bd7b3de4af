// DLPack capsules: one managed tensor (versioned or legacy) wrapped in a PyCapsule that frees it
// unless a consumer took it. Shared by Buffer.__dlpack__ and ndarray.__dlpack__.
#pragma once
#include <nanobind/nanobind.h>

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "tegula/support/dlpack.hpp"

namespace tegula::bind {

// What keeps an exported tensor's memory alive, and its shape/strides arrays.
struct dlpack_owner {
  std::shared_ptr<void> keep;
  std::vector<std::int64_t> shape, strides;  // strides empty: compact row-major
};

namespace detail {
template <class Managed>
void delete_managed(Managed* m) {
  delete static_cast<dlpack_owner*>(m->manager_ctx);
  delete m;
}
template <class Managed>
void capsule_destructor(PyObject* capsule) {
  // A consumer may drop the capsule with its own exception pending (NumPy's from_dlpack refusing a CUDA tensor or
  // a bfloat16 dtype): that exception is kept, so the consumer raises it (clearing it made NumPy return NULL with
  // no exception: SystemError). Only errors of the capsule calls below are cleared.
  PyObject *type, *value, *traceback;
  PyErr_Fetch(&type, &value, &traceback);
  // Only an unconsumed capsule still owns its tensor (consumers rename it to used_dltensor*).
  const char* name = PyCapsule_GetName(capsule);
  if (name && std::string(name).rfind("used_", 0) != 0) {
    auto* m = static_cast<Managed*>(PyCapsule_GetPointer(capsule, name));
    if (m && m->deleter) m->deleter(m);
  }
  PyErr_Clear();
  PyErr_Restore(type, value, traceback);
}
template <class Managed>
nanobind::object make(void* data, dlpack::DLDevice device, dlpack::DLDataType dtype, dlpack_owner* owner,
                      const char* name) {
  auto* m = new Managed{};
  if constexpr (std::is_same_v<Managed, dlpack::DLManagedTensorVersioned>) {
    m->version = {1, 0};
    m->flags = 0;
  }
  dlpack::DLTensor& t = m->dl_tensor;
  t.data = data;
  t.device = device;
  t.ndim = static_cast<std::int32_t>(owner->shape.size());
  t.dtype = dtype;
  t.shape = owner->shape.data();
  t.strides = owner->strides.empty() ? nullptr : owner->strides.data();
  t.byte_offset = 0;
  m->manager_ctx = owner;
  m->deleter = &delete_managed<Managed>;
  PyObject* c = PyCapsule_New(m, name, &capsule_destructor<Managed>);
  if (!c) {
    delete_managed(m);
    throw nanobind::python_error();
  }
  return nanobind::steal(c);
}
}  // namespace detail

// A capsule for `data` (takes ownership of `owner`): "dltensor_versioned" when the consumer asked
// for DLPack >= 1 (max_version), else the legacy "dltensor".
inline nanobind::object dlpack_capsule(void* data, dlpack::DLDevice device, dlpack::DLDataType dtype,
                                       std::unique_ptr<dlpack_owner> owner, bool versioned) {
  dlpack_owner* o = owner.release();
  return versioned ? detail::make<dlpack::DLManagedTensorVersioned>(data, device, dtype, o, "dltensor_versioned")
                   : detail::make<dlpack::DLManagedTensor>(data, device, dtype, o, "dltensor");
}

}  // namespace tegula::bind
