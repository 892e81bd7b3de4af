// Bindings for runtime/profiler: start, stop (the records as tuples) and whether it is recording.
#include <nanobind/stl/string.h>

#include "tegula/bindings/bind_support.hpp"
#include "tegula/runtime/profiler.hpp"
#include "tegula/support/nvtx.hpp"

namespace tegula::bind {

void bind_profiler(nb::module_& m) {
  namespace prof = rt::prof;
  m.def("profiler_start", [](bool gpu_timing, int time_every, int timed_first) {
    prof::start(gpu_timing, time_every, timed_first);
  }, nb::arg("gpu_timing") = true, nb::arg("time_every") = 1, nb::arg("timed_first") = 4,
        "Starts recording launches, interpreted runs, compiles, allocations, frees, copies and library calls; each "
        "kernel's first timed_first launches and every time_every-th one after are timed on the GPU.");
  m.def("profiler_active", &prof::active);
  m.def("profiler_note_bytes", &prof::note_bytes, nb::arg("bytes"), "The bytes the next launch on this thread moves.");
  m.def("nvtx_push", [](const std::string& name) { nvtx_push(name); }, nb::arg("name"),
        "Opens an NVTX range in the 'tegula' domain (shown by Nsight Systems).");
  m.def("nvtx_pop", [] { nvtx_pop(); }, "Closes the innermost NVTX range.");
  m.def("profiler_stop", [] {
    std::vector<prof::record> records;
    {
      nb::gil_scoped_release g;  // waits for the timed GPU work
      records = prof::stop();
    }
    nb::list out;
    for (const auto& r : records)
      out.append(nb::make_tuple(prof::kind_name(r.what), r.name, r.device,
                                nb::make_tuple(r.grid[0], r.grid[1], r.grid[2]),
                                nb::make_tuple(r.block[0], r.block[1], r.block[2]), r.shared, r.bytes, r.start_us,
                                r.host_us, r.gpu_start_us, r.gpu_us, r.detail));
    return out;
  }, "Stops and returns [(kind, name, device, grid, block, shared, bytes, start_us, host_us, gpu_start_us, gpu_us, "
     "detail)]; gpu_us is -1 when not timed on the GPU.");
}

}  // namespace tegula::bind
