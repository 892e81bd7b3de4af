// The extension module tegula._tegula: calls each component's binder, nothing else.
#include "tegula/bindings/bind_support.hpp"

NB_MODULE(_tegula, m) {
  m.doc() = "tegula's C++ core (runtime, JIT). Use the tegula.core package, not this module.";
  // Objects held by other libraries' process-wide registries (torch.library keeps the functions of custom ops,
  // and with them tile kernels) outlive nanobind's shutdown check; its "leaked instances" report would be noise.
  nanobind::set_leak_warnings(false);
  tegula::bind::bind_support(m);
  tegula::bind::bind_runtime(m);
  tegula::bind::bind_jit(m);
  tegula::bind::bind_ir(m);
  tegula::bind::bind_passes(m);
  tegula::bind::bind_codegen(m);
  tegula::bind::bind_kernel(m);
  tegula::bind::bind_tile_launcher(m);
  tegula::bind::bind_array(m);
  tegula::bind::bind_array_vm(m);
  tegula::bind::bind_promotion(m);
  tegula::bind::bind_libs(m);
  tegula::bind::bind_profiler(m);
  tegula::bind::bind_nccl(m);
}
