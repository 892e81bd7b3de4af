// Bindings for cpp/tegula/kernel: CompiledKernel (a read-only view of one compiled kernel), KernelTranslation (what
// a kernel becomes for an arch with no GPU, and its images: tegula.explain's source) and KernelArg (an argument
// Python shaped into the kernel ABI's terms: kernel_array, kernel_scalar).
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "tegula/bindings/bind_support.hpp"
#include "tegula/bindings/interruptible.hpp"
#include "tegula/bindings/kernel_args.hpp"
#include "tegula/kernel/compile.hpp"
#include "tegula/kernel/image.hpp"
#include "tegula/kernel/translate.hpp"
#include "tegula/runtime/module.hpp"
#include "tegula/support/error.hpp"

namespace tegula::bind {
namespace {

nb::tuple tensor_maps_of(const codegen::kernel_source& k) {
  nb::list maps;
  for (const auto& t : k.tensor_maps)
    maps.append(nb::make_tuple(t.array, std::string(ir::name(t.elem)), t.box_rows, t.box_cols));
  return nb::tuple(maps);
}

kernel::image_kind image_kind_named(const std::string& kind) {
  if (kind == "cubin") return kernel::image_kind::cubin;
  if (kind == "ptx") return kernel::image_kind::ptx;
  if (kind == "cubin_with_resources") return kernel::image_kind::cubin_with_resources;
  fail(error_kind::invalid_argument, "an image is 'cubin', 'ptx' or 'cubin_with_resources', not '", kind, "'");
}

std::vector<codegen::array_spec> array_specs(const std::vector<std::pair<bool, bool>>& arrays) {
  std::vector<codegen::array_spec> out;
  for (auto [contiguous, aligned] : arrays) out.push_back({contiguous, aligned});
  return out;
}

void bind_translation(nb::module_& m) {
  using translation = kernel::translation;
  nb::class_<translation>(m, "KernelTranslation",
                          "What a kernel becomes for an arch, with no GPU (kernel::translate): the IR after each "
                          "pass, the CUDA C++, and its images through the JIT cache (compile_image).")
      .def_prop_ro("name", [](const translation& t) { return t.fn.name; })
      .def_prop_ro("ir", [](const translation& t) { return t.fn; }, "The post-pass tile IR.")
      .def_prop_ro("stages", [](const translation& t) { return t.stages; }, "[(stage, IR text)] after each pass.")
      .def_prop_ro("arch", [](const translation& t) { return t.arch; })
      .def_prop_ro("source", [](const translation& t) { return t.source.source; }, "The generated CUDA C++.")
      .def_prop_ro("kernel_name", [](const translation& t) { return t.source.name; })
      .def_prop_ro("block_threads", [](const translation& t) { return t.source.block_threads; })
      .def_prop_ro("shared_bytes", [](const translation& t) { return t.source.dynamic_shared_bytes; })
      .def_prop_ro("arch_specific", [](const translation& t) { return t.source.arch_specific; })
      .def_prop_ro("persistent", [](const translation& t) { return t.source.persistent; })
      .def_prop_ro("pipeline_stages", [](const translation& t) { return t.source.stages; })
      .def_prop_ro("cluster", [](const translation& t) { return t.source.cluster; })
      .def_prop_ro("note", [](const translation& t) { return t.source.note; })
      .def_prop_ro("tensor_maps", [](const translation& t) { return tensor_maps_of(t.source); },
                   "[(array index, dtype, box rows, box cols)]: CUtensorMaps passed after the arguments.")
      .def_prop_ro("program_name", [](const translation& t) { return t.request.name; })
      .def_prop_ro("options", [](const translation& t) { return t.request.options; },
                   "NVRTC's options for the cubin (the -arch flag aside).")
      .def("compile_image", [](const translation& t, const std::string& kind) {
        std::shared_ptr<const jit::compiled> c = kernel::compile_image(t, image_kind_named(kind), compile_interruptibly);
        nb::dict info;
        info["code"] = nb::bytes(c->result->code.data(), c->result->code.size());
        info["log"] = c->result->log;
        info["key"] = c->key;
        info["cache"] = jit::outcome_name(c->outcome);
        info["seconds"] = c->seconds;
        return info;
      }, nb::arg("kind") = "cubin",
      "The image through the JIT caches (kernel::compile_image), with no module loaded: a dict of code (bytes), "
      "log, key, cache ('memory', 'disk' or 'compiled') and seconds. kind: 'cubin' (what launches load), 'ptx', or "
      "'cubin_with_resources' (ptxas's -v report in the log).")
      .def_prop_ro("cubin_key", [](const translation& t) {
        return jit::cache_key(kernel::image_request(t, kernel::image_kind::cubin));
      }, "The cache key a launch of this translation looks up (memory, disk cache, the package's entries).")
      .def("prebuild", [](const translation& t, const std::string& dir) {
        nb::gil_scoped_release release;  // NVRTC: the build's prebuild step compiles on several threads
        return kernel::prebuild_image(t, dir);
      }, nb::arg("dir"),
      "Compiles the cubin with NVRTC (no cache) into the package folder `dir` under cubin_key, unless it is there; "
      "returns the key (the build's prebuild step: python -m tegula.numpy._prebuild).");

  m.def("translate", [](const ir::function& f, int arch, std::optional<std::vector<std::pair<bool, bool>>> arrays,
                        int stages, int cluster, bool keep_stages) {
    kernel::target t;
    t.arrays = arrays ? array_specs(*arrays) : kernel::aligned_layouts(f);
    t.stages = stages;
    t.cluster = cluster;
    t.keep_stages = keep_stages;
    return kernel::translate(f, t, arch);
  }, nb::arg("function"), nb::arg("arch"), nb::arg("arrays").none() = nb::none(), nb::arg("stages") = 0,
  nb::arg("cluster") = 1, nb::arg("keep_stages") = true,
  "kernel::translate of pre-pass IR for `arch` (major*10+minor), with no GPU. arrays: (contiguous last axis, "
  "16-byte aligned) per array parameter; None: every one both.");
}

}  // namespace

ir::dtype tile_dtype(const std::string& name) {
  std::optional<ir::dtype> t = ir::dtype_from_name(name);
  if (!t || *t == ir::dtype::c64 || *t == ir::dtype::c128)
    fail(error_kind::type_error, "tile kernels have no dtype '", name, "'");
  return *t;
}

void bind_kernel(nb::module_& m) {
  using compiled = kernel::compiled;
  nb::class_<compiled>(m, "CompiledKernel", "One compiled tile kernel (tegula.tile's Compiled is a view of it).")
      .def_prop_ro("name", [](const compiled& c) { return c.fn.name; })
      .def_prop_ro("ir", [](const compiled& c) { return c.fn; }, "The post-pass tile IR.")
      .def_prop_ro("stages", [](const compiled& c) { return c.stages; }, "[(stage, IR text)] after each pass.")
      .def_prop_ro("on_gpu", [](const compiled& c) { return c.on_gpu; })
      .def_prop_ro("arrays", [](const compiled& c) {
        std::vector<std::pair<bool, bool>> out;
        for (const auto& a : c.arrays) out.emplace_back(a.last_dim_contiguous, a.aligned_16);
        return out;
      }, "Per array parameter: (contiguous last axis, 16-byte aligned), what the code is specialised for.")
      .def_prop_ro("source", [](const compiled& c) -> nb::object {
        if (!c.on_gpu) return nb::none();
        return nb::str(c.source.source.c_str(), c.source.source.size());
      }, "The generated CUDA C++ (None for the CPU).")
      .def_prop_ro("kernel_name", [](const compiled& c) { return c.source.name; })
      .def_prop_ro("kernel", [](const compiled& c) { return c.gpu; }, "The loaded Kernel (None for the CPU).")
      .def_prop_ro("block_threads", [](const compiled& c) { return c.source.block_threads; })
      .def_prop_ro("shared_bytes", [](const compiled& c) { return c.source.dynamic_shared_bytes; })
      .def_prop_ro("arch_specific", [](const compiled& c) { return c.source.arch_specific; })
      .def_prop_ro("persistent", [](const compiled& c) { return c.source.persistent; })
      .def_prop_ro("pipeline_stages", [](const compiled& c) { return c.source.stages; })
      .def_prop_ro("cluster", [](const compiled& c) { return c.source.cluster; })
      .def_prop_ro("max_blocks", [](const compiled& c) { return c.max_blocks; },
                   "A persistent kernel's most blocks at once: the SMs, or the clusters that fit.")
      .def_prop_ro("note", [](const compiled& c) { return c.source.note; })
      .def_prop_ro("tensor_maps", [](const compiled& c) { return tensor_maps_of(c.source); },
                   "[(array index, dtype, box rows, box cols)]: CUtensorMaps passed after the arguments.")
      .def_prop_ro("compile_outcome", [](const compiled& c) { return c.compile_outcome; });
  bind_translation(m);

  nb::class_<shaped_arg>(m, "KernelArg", "A tile kernel argument in the kernel ABI's terms (tegula.tile._args).")
      .def_prop_ro("is_array", [](const shaped_arg& a) { return std::holds_alternative<kernel::array_arg>(a.arg); })
      .def("__repr__", [](const shaped_arg& a) {
        if (const auto* x = std::get_if<kernel::array_arg>(&a.arg))
          return str("KernelArg(array ", ir::name(x->t), ", rank ", x->rank, ")");
        return str("KernelArg(scalar ", ir::name(std::get<kernel::scalar_arg>(a.arg).t), ")");
      });
  m.def("kernel_array", [](const std::string& dtype, std::uintptr_t address, std::vector<std::int64_t> shape,
                           std::vector<std::int64_t> strides, nb::object owner) {
    return shaped_arg{kernel::make_array(address, tile_dtype(dtype), shape, strides), std::move(owner)};
  }, nb::arg("dtype"), nb::arg("address"), nb::arg("shape"), nb::arg("strides"), nb::arg("owner").none() = nb::none(),
  "An array argument: address, extents and strides in elements; `owner` is kept alive with it.");
  m.def("kernel_scalar", [](const std::string& dtype, nb::handle value) {
    kernel::scalar_arg s;
    s.t = tile_dtype(dtype);
    if (ir::is_float(s.t)) {
      s.f = nb::cast<double>(value);
      s.i = static_cast<std::int64_t>(s.f);
    } else if (ir::is_bool(s.t)) {
      s.i = PyObject_IsTrue(value.ptr()) == 1;
      s.f = double(s.i);
    } else if (ir::is_unsigned_int(s.t)) {
      s.i = static_cast<std::int64_t>(nb::cast<std::uint64_t>(value));
      s.f = double(s.i);
    } else {
      s.i = nb::cast<std::int64_t>(value);
      s.f = double(s.i);
    }
    return shaped_arg{s, nb::none()};
  }, nb::arg("dtype"), nb::arg("value"), "A run-time scalar argument of `dtype`.");
}

}  // namespace tegula::bind
