// Bindings for passes/: the standard pipeline, with the IR text after each stage on request.
#include <nanobind/stl/pair.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "tegula/bindings/bind_support.hpp"
#include "tegula/passes/pipeline.hpp"

namespace tegula::bind {

void bind_passes(nb::module_& m) {
  m.def("run_pipeline", [](const ir::function& f, bool dump, bool locations) {
    std::vector<std::pair<std::string, std::string>> dumps;
    passes::pipeline_options o;
    if (dump) o.dumps = &dumps;
    o.dump_locations = locations;
    ir::function out = passes::run_pipeline(f, o);
    return std::make_pair(std::move(out), dumps);
  }, nb::arg("function"), nb::arg("dump") = false, nb::arg("locations") = false,
  "Runs verify, canonicalize, cse, licm, cse, dce, verify; returns (function, [(stage, text)] when dump).");
  m.def("pipeline_stages", &passes::pipeline_stages);
}

}  // namespace tegula::bind
