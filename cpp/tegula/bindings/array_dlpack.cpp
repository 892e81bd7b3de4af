// DLPack export of tegula arrays (N-d, strided, every tile dtype), on the array API's stream rule:
// array work is ordered on the device's legacy default stream, so a consumer on another stream is
// made to wait for it. CPU (interpreter) arrays export as kDLCPU tensors.
#include <nanobind/stl/pair.h>

#include <string>
#include <vector>

#include "tegula/array/materialize.hpp"
#include "tegula/bindings/bind_support.hpp"
#include "tegula/bindings/dlpack_capsule.hpp"
#include "tegula/bindings/py_array.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/runtime/stream.hpp"
#include "tegula/support/dlpack.hpp"
#include "tegula/support/error.hpp"

namespace tegula::bind {
namespace {

dlpack::DLDataType dl_dtype(ir::dtype t) {
  auto bits = static_cast<std::uint8_t>(ir::size_bits(t) == 1 ? 8 : ir::size_bits(t));
  if (ir::is_bool(t)) return {dlpack::kDLBool, 8, 1};
  if (t == ir::dtype::bf16) return {dlpack::kDLBfloat, 16, 1};
  if (ir::is_complex(t)) return {dlpack::kDLComplex, bits, 1};
  if (ir::is_float(t)) return {dlpack::kDLFloat, bits, 1};
  if (ir::is_signed_int(t)) return {dlpack::kDLInt, bits, 1};
  return {dlpack::kDLUInt, bits, 1};
}

}  // namespace

// copy= and dl_device= are resolved by ndarray.__dlpack__ (python/tegula/numpy/_ndarray.py): here the array itself
// is exported, zero-copy.
nb::object export_dlpack(const py_array& a, nb::handle stream, nb::handle max_version) {
  array::materialize(a.n);
  const array::node_ptr& leaf = a.n;
  array::flush_readers(*leaf->data);  // the consumer may write: pending readers take their values now
  if (leaf->device == array::device_kind::cuda && !stream.is_none()) {
    long long s = nb::cast<long long>(stream);
    if (s == 0) fail(error_kind::invalid_argument, "__dlpack__: stream=0 is ambiguous for CUDA; use 1 (legacy default) or 2 (per-thread)");
    if (s != -1 && s != 1) {
      auto consumer = rt::stream::wrap(s == 2 ? CU_STREAM_PER_THREAD : reinterpret_cast<CUstream>(s), *leaf->gpu);
      consumer->wait(*leaf->gpu->default_stream());
    }
  }
  bool versioned = !max_version.is_none() && nb::cast<int>(max_version[0]) >= 1;
  auto owner = std::make_unique<dlpack_owner>(dlpack_owner{leaf, leaf->lay.shape, leaf->lay.strides});
  leaf->data->address_shown = true;  // the consumer reads (and may write) it without the engine
  void* data = reinterpret_cast<void*>(array::element_address(*leaf));
  dlpack::DLDevice device = leaf->device == array::device_kind::cpu
                                ? dlpack::DLDevice{dlpack::kDLCPU, 0}
                                : dlpack::DLDevice{dlpack::kDLCUDA, leaf->gpu->ordinal()};
  return dlpack_capsule(data, device, dl_dtype(leaf->t), std::move(owner), versioned);
}

}  // namespace tegula::bind
