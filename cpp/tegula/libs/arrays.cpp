// The arrays of a library call (arrays.hpp): inputs materialised, outputs' readers flushed and the write counted.
#include "tegula/libs/arrays.hpp"

#include "tegula/array/materialize.hpp"
#include "tegula/support/error.hpp"

namespace tegula::libs {

using array::node;
using array::node_ptr;

const node& input(const node_ptr& x) {
  array::materialize(x);
  return *x;
}

const node& output(const node_ptr& x) {
  array::materialize(x);
  array::flush_readers(*x->data, nullptr, array::byte_extent(x->lay, ir::size_bytes(x->t)));
  return *x;
}

node_ptr empty_like_device(const node& x, const array::dims& shape, ir::dtype t) {
  std::int64_t bytes = array::checked_nbytes(shape, ir::size_bytes(t));
  return array::make_leaf(array::allocate_like(x, static_cast<std::size_t>(bytes)), array::contiguous(shape), t);
}

rt::device& cuda_device(const node& x, const char* call) {
  if (x.device != array::device_kind::cuda || x.gpu == nullptr)
    fail(error_kind::invalid_argument, call, " runs on a CUDA device; this array lives on the CPU");
  return *x.gpu;
}

void expect_dtype(const node& x, ir::dtype t, const char* call, const char* what) {
  if (x.t != t) fail(error_kind::type_error, call, ": ", what, " must be ", ir::name(t), ", not ", ir::name(x.t));
}

}  // namespace tegula::libs
