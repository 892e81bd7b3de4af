// Bindings for codegen/: tile IR -> CUDA C++ text (compiled by the JIT, launched by the runtime).
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/tuple.h>
#include <nanobind/stl/vector.h>

#include "tegula/bindings/bind_support.hpp"
#include "tegula/codegen/cuda.hpp"
#include "tegula/ir/dtype.hpp"

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

  m.def("generate_kernel", [](const ir::function& f, int arch, std::vector<std::pair<bool, bool>> arrays, int stages,
                                 int cluster, bool array_engine) {
    codegen::options o;
    o.arch = arch;
    o.stages = stages;
    o.cluster = cluster;
    o.long_bodies_fewer_groups = array_engine;
    for (auto [contiguous, aligned] : arrays) o.arrays.push_back({contiguous, aligned});
    codegen::kernel_source k = codegen::generate(f, o);
    nb::list maps;
    for (const auto& t : k.tensor_maps) maps.append(nb::make_tuple(t.array, std::string(ir::name(t.elem)), t.box_rows, t.box_cols));
    nb::dict d;
    d["name"] = k.name;
    d["source"] = k.source;
    d["block_threads"] = k.block_threads;
    d["shared_bytes"] = k.dynamic_shared_bytes;
    d["arch_specific"] = k.arch_specific;
    d["persistent"] = k.persistent;
    d["stages"] = k.stages;
    d["cluster"] = k.cluster;
    d["tensor_maps"] = maps;
    d["note"] = k.note;
    return d;
  }, nb::arg("function"), nb::arg("arch"), nb::arg("arrays"), nb::arg("stages") = 0, nb::arg("cluster") = 1,
  nb::arg("array_engine") = false,
  "The generated kernel as a dict (array_engine: as the array engine generates it, codegen::options::"
  "long_bodies_fewer_groups): name, source, block_threads, shared_bytes, arch_specific (compile for sm_XXa), "
  "persistent (launch min(blocks, SMs) and pass the grid), stages, cluster (blocks per cluster), tensor_maps [(array index, dtype, box rows, box "
  "cols)], note (why an mma stayed off the tensor cores).");
}

}  // namespace tegula::bind
