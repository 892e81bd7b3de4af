// torch tensors read in C++ (no Python frame): what they are, their dtype, and their memory as an engine leaf, for
// the tile launcher's arguments and for library calls on dtypes tegula.numpy lacks (float8 products).
#pragma once
#include <nanobind/nanobind.h>

#include "tegula/array/expr.hpp"

namespace tegula::bind {

// Whether `a` is a torch.Tensor (its type learned once).
bool is_torch_tensor(PyObject* a);

// A torch dtype object (torch.float32, torch.float8_e4m3fn, ...) as int(ir::dtype), learned once per object; -1 for
// a dtype tegula has no name for.
int torch_dtype_code(PyObject* dtype);

// A zero-copy engine leaf over a CUDA or CPU torch tensor's memory (its shape and strides), keeping the tensor
// alive. TypeError for a dtype tegula has no name for, ValueError for a tensor on another kind of device.
array::node_ptr torch_leaf(PyObject* tensor);

}  // namespace tegula::bind
