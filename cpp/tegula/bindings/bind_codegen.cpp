// Bindings for codegen/: tile IR -> CUDA C++ text (compiled by the JIT, launched by the runtime).
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "tegula/bindings/bind_support.hpp"
#include "tegula/codegen/cuda.hpp"

namespace tegula::bind {

void bind_codegen(nb::module_& m) {
  m.def("generate_cuda", [](const ir::function& f, int arch, std::vector<std::pair<bool, bool>> arrays) {
    codegen::options o;
    o.arch = arch;
    for (auto [contiguous, aligned] : arrays) o.arrays.push_back({contiguous, aligned});
    codegen::kernel_source k = codegen::generate(f, o);
    return nb::make_tuple(k.name, k.source, k.block_threads, k.dynamic_shared_bytes);
  }, nb::arg("function"), nb::arg("arch"), nb::arg("arrays"),
  "(kernel name, CUDA source, block threads, dynamic shared bytes). arrays: (last_dim_contiguous, aligned_16) per array param.");
}

}  // namespace tegula::bind
