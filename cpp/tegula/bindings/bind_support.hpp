// Binding entry points, one per component (each in its own bind_<folder>.cpp).
#pragma once
#include <nanobind/nanobind.h>

#include <string>

#include "tegula/ir/dtype.hpp"

namespace tegula::bind {
namespace nb = nanobind;
void bind_support(nb::module_& m);  // exception types, translator, configuration
void bind_runtime(nb::module_& m);  // Device, Stream, Event, Buffer, ObjectCode, Kernel, launch
void bind_jit(nb::module_& m);      // compile, cache inspection
void bind_ir(nb::module_& m);       // tile IR: Function, Builder, print/parse/verify
void bind_passes(nb::module_& m);   // the pass pipeline
void bind_codegen(nb::module_& m);  // CUDA C++ generation
void bind_kernel(nb::module_& m);    // compiled kernels, translations (reports) and shaped kernel arguments
void bind_tile_launcher(nb::module_& m);  // the tile launch fast path
void bind_array(nb::module_& m);    // the ndarray type of tegula.numpy
void bind_array_vm(nb::module_& m); // the array VM and background compiles
void bind_libs(nb::module_& m);     // CUDA libraries (cuBLASLt, cuFFT, cuSOLVER, CUB)
void bind_profiler(nb::module_& m); // the profiler's recorder
void bind_nccl(nb::module_& m);     // NCCL communicators and collectives
void bind_promotion(nb::module_& m); // dtype rules (result_type, can_cast)
// Sets the Python error for the exception in flight (for raw CPython entry points that bypass
// nanobind's dispatch): tegula::error by kind, nb::python_error restored, others RuntimeError.
void set_python_error_from_current_exception();
// The dtype of a name tegula knows ("float32", "bfloat16", ...); a TypeError naming it otherwise. Every binder that
// takes a dtype by name reads it here.
ir::dtype dtype_named(const std::string& name);
}  // namespace tegula::bind
