// Bindings for interp/: run a tile IR function on the CPU over host arrays (numpy) and scalars.
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <array>

#include "tegula/bindings/bind_support.hpp"
#include "tegula/bindings/interruptible.hpp"
#include "tegula/runtime/profiler.hpp"
#include "tegula/interp/interpreter.hpp"
#include "tegula/support/error.hpp"

namespace tegula::bind {

void bind_interp(nb::module_& m) {
  // args: per parameter either ("array", data_address, dtype, shape, strides_in_elements) or
  // ("scalar", value). The caller keeps the arrays alive; the GIL is released while running.
  m.def("interpret", [](const ir::function& f, nb::list args, std::vector<std::int64_t> grid) {
    std::vector<interp::argument> a;
    for (nb::handle item : args) {
      nb::tuple t = nb::borrow<nb::tuple>(item);
      std::string kind = nb::cast<std::string>(t[0]);
      if (kind == "array") {
        interp::array_arg arr;
        arr.data = reinterpret_cast<void*>(nb::cast<std::uintptr_t>(t[1]));
        auto d = ir::dtype_from_name(nb::cast<std::string>(t[2]));
        if (!d) fail(error_kind::type_error, "unknown dtype ", nb::cast<std::string>(t[2]));
        arr.elem = *d;
        arr.shape = nb::cast<std::vector<std::int64_t>>(t[3]);
        arr.strides = nb::cast<std::vector<std::int64_t>>(t[4]);
        a.emplace_back(std::move(arr));
      } else {
        nb::handle v = t[1];
        if (PyBool_Check(v.ptr())) a.emplace_back(interp::scalar_arg(v.ptr() == Py_True));
        else if (PyFloat_Check(v.ptr())) a.emplace_back(interp::scalar_arg(nb::cast<double>(v)));
        else if (PyLong_Check(v.ptr())) {
          int overflow = 0;
          long long x = PyLong_AsLongLongAndOverflow(v.ptr(), &overflow);
          if (overflow > 0) a.emplace_back(interp::scalar_arg(nb::cast<std::uint64_t>(v)));  // above int64: a uint64
          else if (overflow < 0) fail(error_kind::invalid_argument, "integer argument below the int64 range");
          else a.emplace_back(interp::scalar_arg(std::int64_t(x)));
        } else {
          a.emplace_back(interp::scalar_arg(nb::cast<std::int64_t>(v)));
        }
      }
    }
    if (grid.empty() || grid.size() > 3) fail(error_kind::invalid_argument, "grid must have 1 to 3 dimensions");
    std::array<std::int64_t, 3> g{1, 1, 1};
    for (std::size_t i = 0; i < grid.size(); ++i) g[i] = grid[i];
    std::uint64_t bytes = 0;
    for (const auto& x : a)
      if (auto* arr = std::get_if<interp::array_arg>(&x)) {
        std::uint64_t n = 1;
        for (std::size_t d = 0; d < arr->shape.size(); ++d)
          if (arr->strides[d] != 0) n *= static_cast<std::uint64_t>(arr->shape[d]);
        bytes += n * static_cast<std::uint64_t>(ir::size_bytes(arr->elem));
      }
    signal_watch watch;
    try {
      nb::gil_scoped_release release;
      rt::prof::host_scope timing(rt::prof::kind::interpret, f.name, nullptr, bytes);
      interp::run(f, a, g, [&] { return watch.check(); });
    } catch (const error& e) {
      if (e.kind() == error_kind::interrupted && watch.raised()) watch.rethrow();  // the handler's own exception
      throw;
    }
  }, nb::arg("function"), nb::arg("args"), nb::arg("grid"));
}

}  // namespace tegula::bind
