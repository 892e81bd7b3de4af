// Bindings for runtime/module + launch: ObjectCode, Kernel, LaunchConfig and the launch fast path.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "tegula/bindings/arguments.hpp"
#include "tegula/bindings/bind_support.hpp"
#include "tegula/bindings/runtime_common.hpp"
#include "tegula/runtime/launch.hpp"
#include "tegula/runtime/module.hpp"
#include "tegula/runtime/object_code.hpp"
#include "tegula/support/error.hpp"

namespace tegula::bind {
namespace {

PyTypeObject* stream_type = nullptr;
PyTypeObject* config_type = nullptr;
PyTypeObject* kernel_type = nullptr;

// grid/block/cluster: an int or a tuple of 1 to 3 ints.
std::array<unsigned, 3> to_dims(nb::handle h, const char* what) {
  std::array<unsigned, 3> d{1, 1, 1};
  auto one = [&](nb::handle v) -> unsigned {
    long long x = nb::cast<long long>(v);
    if (x <= 0 || x > 0xffffffffll) fail(error_kind::invalid_argument, what, " dimensions must be positive, got ", x);
    return unsigned(x);
  };
  if (PyLong_Check(h.ptr())) {
    d[0] = one(h);
    return d;
  }
  if (!PyTuple_Check(h.ptr()) && !PyList_Check(h.ptr()))
    fail(error_kind::type_error, what, " must be an int or a tuple of 1 to 3 ints, got ", nb::type_name(h.type()).c_str());
  nb::sequence seq = nb::borrow<nb::sequence>(h);
  std::size_t n = nb::len(seq);
  if (n < 1 || n > 3) fail(error_kind::invalid_argument, what, " must have 1 to 3 dimensions, got ", n);
  for (std::size_t i = 0; i < n; ++i) d[i] = one(seq[i]);
  return d;
}

nb::tuple dims_tuple(const std::array<unsigned, 3>& d) { return nb::make_tuple(d[0], d[1], d[2]); }

// launch(stream, config, kernel, *args): a raw METH_FASTCALL function, so a call costs no tuple,
// no dict and no Python objects beyond what the arguments already are.
PyObject* launch_fast(PyObject*, PyObject* const* args, Py_ssize_t nargs) {
  try {
    if (nargs < 3) fail(error_kind::type_error, "launch(stream, config, kernel, *args) needs at least 3 arguments, got ", nargs);
    std::shared_ptr<rt::stream> hold;
    const rt::stream& s = Py_TYPE(args[0]) == stream_type ? *nb::inst_ptr<rt::stream>(args[0]) : to_stream(args[0], hold);
    if (Py_TYPE(args[1]) != config_type)
      fail(error_kind::type_error, "launch: the second argument must be a LaunchConfig, got ", nb::type_name(nb::handle(args[1]).type()).c_str());
    if (Py_TYPE(args[2]) != kernel_type)
      fail(error_kind::type_error, "launch: the third argument must be a Kernel, got ", nb::type_name(nb::handle(args[2]).type()).c_str());
    const auto& config = *nb::inst_ptr<rt::launch_config>(args[1]);
    auto& k = *nb::inst_ptr<rt::kernel>(args[2]);
    rt::param_buffer params(k.params_bytes());
    pack_arguments(k, args + 3, std::size_t(nargs - 3), params, s.handle());
    rt::launch(s, config, k, params);
    Py_RETURN_NONE;
  } catch (...) {
    set_python_error_from_current_exception();
    return nullptr;
  }
}

PyMethodDef launch_def = {
    "launch", reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(&launch_fast)), METH_FASTCALL,
    "launch(stream, config, kernel, *args)\n\nLaunches `kernel` on `stream` (None: the default stream) with a "
    "LaunchConfig. Arguments are packed by the kernel's own parameter sizes: Buffers and GPU arrays (torch, "
    "cupy, DLPack, __cuda_array_interface__) as pointers, Python ints/floats sized to the parameter, numpy "
    "scalars and ctypes values as their bytes."};

nb::dict attributes(rt::kernel& k, rt::device& d) {
  nb::dict a;
  a["num_regs"] = k.attribute(CU_FUNC_ATTRIBUTE_NUM_REGS, d);
  a["shared_size_bytes"] = k.attribute(CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, d);
  a["const_size_bytes"] = k.attribute(CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, d);
  a["local_size_bytes"] = k.attribute(CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, d);
  a["max_threads_per_block"] = k.attribute(CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, d);
  a["max_dynamic_shared_size_bytes"] = k.attribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, d);
  a["ptx_version"] = k.attribute(CU_FUNC_ATTRIBUTE_PTX_VERSION, d);
  a["binary_version"] = k.attribute(CU_FUNC_ATTRIBUTE_BINARY_VERSION, d);
  return a;
}

}  // namespace

void bind_runtime_launch(nb::module_& m) {
  nb::class_<rt::object_code>(m, "ObjectCode", "Compiled code (CUBIN or PTX), loaded on the first get_kernel.")
      .def_static("from_cubin", [](nb::bytes code) {
        return std::make_shared<rt::object_code>(std::string(code.c_str(), code.size()), rt::object_code::kind::cubin,
                                                 std::vector<std::pair<std::string, std::string>>{});
      }, nb::arg("code"))
      .def_static("from_ptx", [](const std::string& code) {
        return std::make_shared<rt::object_code>(code, rt::object_code::kind::ptx,
                                                 std::vector<std::pair<std::string, std::string>>{});
      }, nb::arg("code"))
      .def_prop_ro("code", [](const rt::object_code& o) { return nb::bytes(o.code().data(), o.code().size()); })
      .def_prop_ro("code_type", [](const rt::object_code& o) { return o.code_kind() == rt::object_code::kind::cubin ? "cubin" : "ptx"; })
      .def_prop_ro("name_expressions", [](const rt::object_code& o) {
        nb::dict d;
        for (const auto& [expr, mangled] : o.lowered_names()) d[expr.c_str()] = mangled;
        return d;
      })
      .def("get_kernel", &rt::object_code::get_kernel, nb::arg("name"),
           "A kernel by its extern \"C\" name or by one of the name expressions it was compiled with.");

  auto kernel = nb::class_<rt::kernel>(m, "Kernel", "A kernel in loaded object code.")
      .def_prop_ro("name", &rt::kernel::name)
      .def_prop_ro("num_arguments", [](const rt::kernel& k) { return k.params().size(); })
      .def_prop_ro("argument_sizes", [](const rt::kernel& k) {
        std::vector<std::size_t> v;
        for (const auto& p : k.params()) v.push_back(p.size);
        return v;
      }, "Bytes of each parameter, read from the compiled image.")
      .def("attributes", [](rt::kernel& k, nb::handle device) { return attributes(k, to_device(device)); },
           nb::arg("device") = nb::none(), "Registers, shared/local/constant memory and limits on a device.")
      .def("set_max_dynamic_shared_memory", [](rt::kernel& k, int bytes, nb::handle device) {
        k.set_attribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes, to_device(device));
      }, nb::arg("bytes"), nb::arg("device") = nb::none())
      .def("max_active_blocks_per_multiprocessor", [](rt::kernel& k, int block_size, std::size_t smem, nb::handle device) {
        return k.max_active_blocks_per_sm(block_size, smem, to_device(device));
      }, nb::arg("block_size"), nb::arg("dynamic_shared_memory") = 0, nb::arg("device") = nb::none())
      .def("max_active_clusters", [](rt::kernel& k, int cluster, int block_size, std::size_t smem, nb::handle device) {
        return k.max_active_clusters(cluster, block_size, smem, to_device(device));
      }, nb::arg("cluster"), nb::arg("block_size"), nb::arg("dynamic_shared_memory") = 0, nb::arg("device") = nb::none(),
      "Clusters of `cluster` blocks (along x) that fit on the device at once.")
      .def("__repr__", [](const rt::kernel& k) { return str("<Kernel '", k.name(), "' with ", k.params().size(), " parameters>"); });
  kernel_type = reinterpret_cast<PyTypeObject*>(kernel.ptr());

  auto config = nb::class_<rt::launch_config>(m, "LaunchConfig", "Grid, block, cluster and dynamic shared memory of a launch.")
      .def("__init__", [](rt::launch_config* c, nb::handle grid, nb::handle block, unsigned shmem_size,
                          nb::handle cluster, bool cooperative) {
        new (c) rt::launch_config();
        c->grid = to_dims(grid, "grid");
        c->block = to_dims(block, "block");
        if (!cluster.is_none()) c->cluster = to_dims(cluster, "cluster");
        c->shared_mem = shmem_size;
        c->cooperative = cooperative;
        c->validate();
      }, nb::arg("grid"), nb::arg("block"), nb::arg("shmem_size") = 0, nb::arg("cluster") = nb::none(),
      nb::arg("cooperative_launch") = false)
      .def_prop_ro("grid", [](const rt::launch_config& c) { return dims_tuple(c.grid); })
      .def_prop_ro("block", [](const rt::launch_config& c) { return dims_tuple(c.block); })
      .def_prop_ro("cluster", [](const rt::launch_config& c) { return dims_tuple(c.cluster); })
      .def_prop_ro("shmem_size", [](const rt::launch_config& c) { return c.shared_mem; })
      .def_prop_ro("cooperative_launch", [](const rt::launch_config& c) { return c.cooperative; })
      .def("__repr__", [](const rt::launch_config& c) {
        return str("LaunchConfig(grid=(", c.grid[0], ", ", c.grid[1], ", ", c.grid[2], "), block=(", c.block[0], ", ",
                   c.block[1], ", ", c.block[2], "), shmem_size=", c.shared_mem, ")");
      });
  config_type = reinterpret_cast<PyTypeObject*>(config.ptr());
  stream_type = reinterpret_cast<PyTypeObject*>(nb::type<rt::stream>().ptr());

  PyObject* fn = PyCFunction_NewEx(&launch_def, nullptr, m.attr("__name__").ptr());
  if (!fn) throw nb::python_error();
  m.attr("launch") = nb::steal(fn);

  m.def("_time_bare_launches", [](nb::handle stream, const rt::launch_config& c, rt::kernel& k, nb::args args, int n) {
    std::shared_ptr<rt::stream> hold;
    const rt::stream& s = to_stream(stream, hold);
    rt::param_buffer params(k.params_bytes());
    std::vector<PyObject*> raw;
    for (nb::handle a : args) raw.push_back(a.ptr());
    pack_arguments(k, raw.data(), raw.size(), params, s.handle());
    rt::launch_timing t;
    {
      nb::gil_scoped_release g;
      t = rt::time_bare_launches(s, c, k, params, n);
    }
    return std::make_pair(t.call_us, t.total_us);
  }, nb::arg("stream"), nb::arg("config"), nb::arg("kernel"), nb::arg("args"), nb::kw_only(), nb::arg("n") = 10000,
  "Benchmark floor: n cuLaunchKernel calls from C++; returns (us per call, us per launch incl. final sync).");
}

}  // namespace tegula::bind
