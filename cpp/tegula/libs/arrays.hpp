// The arrays of a library call: the one place that applies the engine's rule to them. A library (cuBLASLt,
// cuFFT, cuSOLVER, CUB) reads an input's memory, so a pending input is materialised first; it writes an output's
// memory behind the engine's back, so the pending expressions that read those bytes take their values first and
// the write is counted (storage::writes). Callers in Python never see a device pointer.
#pragma once
#include <cstdint>

#include "tegula/array/expr.hpp"
#include "tegula/array/materialize.hpp"

namespace tegula::libs {

// The array engine's own: a leaf's first element's address; x's values in a C-contiguous leaf (x itself or a copy).
using array::contiguous_leaf;
using array::element_address;

// x's values in memory: x itself once materialised (a leaf).
const array::node& input(const array::node_ptr& x);
// x as a library's output: a leaf (materialised if pending); readers of the bytes it spans are materialised
// first and the write is counted.
const array::node& output(const array::node_ptr& x);
// A new, uninitialised C-contiguous array of `shape` and dtype t on x's device.
array::node_ptr empty_like_device(const array::node& x, const array::dims& shape, ir::dtype t);

// The CUDA device of x; a ValueError naming `call` when x lives on the CPU.
rt::device& cuda_device(const array::node& x, const char* call);
// A ValueError naming `call` unless x's dtype is t.
void expect_dtype(const array::node& x, ir::dtype t, const char* call, const char* what);

}  // namespace tegula::libs
