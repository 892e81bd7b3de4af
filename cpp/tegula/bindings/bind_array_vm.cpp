// Bindings of the array VM and background compiles (array/vm.hpp, kernel/background.hpp): the mode, waiting for
// compiles, what ran last, the VM's image and a plan's program.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include "tegula/array/kernels.hpp"
#include "tegula/array/library_node.hpp"
#include "tegula/array/plan.hpp"
#include "tegula/array/vm.hpp"
#include "tegula/array/vm_audit.hpp"
#include "tegula/bindings/bind_support.hpp"
#include "tegula/bindings/py_array.hpp"
#include "tegula/codegen/vm_opcodes.hpp"
#include "tegula/kernel/background.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/support/error.hpp"

namespace tegula::bind {

void bind_array_vm(nb::module_& m) {
  namespace vm = array::vm;
  m.def("array_vm_mode", [] { return std::string(vm::mode_name(vm::current_mode())); },
        "When the array VM runs an expression: 'first' (until its fused kernel, compiling in the background, is "
        "ready), 'never' (a first run waits for the compile) or 'always' (tests).");
  m.def("set_array_vm_mode", [](const std::string& mode) {
    if (mode == "first") vm::set_mode(vm::mode::first);
    else if (mode == "never") vm::set_mode(vm::mode::never);
    else if (mode == "always") vm::set_mode(vm::mode::always);
    else fail(error_kind::invalid_argument, "the array VM's mode is 'first', 'never' or 'always', not '", mode, "'");
  }, nb::arg("mode"));
  m.def("array_wait_compiles", [] {
    nb::gil_scoped_release release;
    kernel::background::wait_idle();
  }, "Blocks until every kernel compiling in the background is built.");
  m.def("_close_background_compiles", [] {
    nb::gil_scoped_release release;
    kernel::background::close();
  }, "At interpreter exit (registered with atexit on import): drops queued background compiles and waits for "
     "running ones, before the process destroys what they use.");
  nb::module_::import_("atexit").attr("register")(m.attr("_close_background_compiles"));
  m.def("array_compiles_in_flight", [] { return array::compiles_in_flight(); });
  m.def("array_last_run", [] {
    const vm::last_run& l = vm::last();
    return nb::make_tuple(l.on_vm, l.note);
  }, "(ran on the VM, note) of this thread's last array evaluation on a GPU.");
  m.def("array_vm_info", [](int device) {
    nb::dict d;
    d["opcodes"] = codegen::vm::opcodes().size();
    d["table_hash"] = codegen::vm::table_hash();
    d["image_dir"] = vm::image_dir();
    if (device >= 0) {
      rt::device& dev = rt::device::get(device);
      std::string why;
      d["image"] = vm::image_name(dev.arch());
      d["available"] = vm::available(dev, &why);
      d["why"] = why;
    }
    return d;
  }, nb::arg("device") = -1, "The array VM: its opcode count and table hash, where its images are looked for, and "
     "for a device the image it loads and whether it is loaded (else why not).");
  m.def("set_array_vm_audit", [](bool on) { vm::set_audit(on); }, nb::arg("on"),
        "With it on, each kernel the CPU interpreter runs is also compiled for the array VM, and those the VM "
        "cannot run are counted by reason (what a GPU first run would wait for; bench/probe_vm_coverage.py).");
  m.def("array_vm_audit", [] {
    nb::list out;
    for (const auto& e : vm::audit_results()) {
      nb::dict d;
      d["outcome"] = e.outcome;
      d["kernels"] = e.kernels;
      d["example"] = e.example;
      out.append(d);
    }
    return out;
  }, "The audit's outcomes: [{'outcome', 'kernels' (distinct kernel keys), 'example'}].");
  m.def("array_vm_audit_clear", [] { vm::audit_clear(); });
  m.def("array_vm_program", [](const py_array& x) -> nb::object {
    const array::node_ptr& n = x.n;
    if (!n->pending()) fail(error_kind::invalid_argument, "the array is not pending: no kernel is left to run");
    if (n->kind == array::node_kind::library)
      return nb::make_tuple(nb::none(), "a library call (" + n->library->describe(*n) + "), not an array kernel");
    array::plan p;
    array::plan_blocker blocker;
    const int sms = n->device == array::device_kind::cuda ? n->gpu->sm_count() : array::cpu_sm_count;
    if (!array::make_plan(p, blocker, n, 0, sms, {}))
      return nb::make_tuple(nb::none(), std::string("planning needs another kernel first (an inner reduction or a copy)"));
    std::string why;
    auto prog = vm::build_program(p, &why);
    if (!prog) return nb::make_tuple(nb::none(), why);
    return nb::make_tuple(codegen::vm::describe(*prog), std::string());
  }, nb::arg("x"), "(the VM program's text or None, why not) of the kernel that would compute pending x; planning "
     "only, nothing runs.");
}

}  // namespace tegula::bind
