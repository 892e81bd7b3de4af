// Which first runs the array VM would take, found without a GPU (bench/probe_vm_coverage.py): with the audit on,
// each plan and strided copy the CPU interpreter evaluates is also compiled for the VM, and those it cannot run are
// counted by reason. A GPU first run of the same program takes the VM exactly where the audit counts it as covered
// (the same plans, the same build_program), so NPBench's waits on the compiler show on a machine with no GPU.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "tegula/array/plan.hpp"
#include "tegula/array/vm.hpp"

namespace tegula::array::vm {

void set_audit(bool on);
bool audit_on();

// Records plan p, or a strided copy (vm.hpp: copy_launches), by its kernel key: each key once.
void audit_plan(const std::string& key, const plan& p);
void audit_copy(const std::string& key, const copy_job& job);

struct audit_entry {
  std::string outcome;  // "vm", "vm after inner reductions", or why the VM cannot run it
  std::int64_t kernels = 0;  // distinct kernel keys with this outcome
  std::string example;   // one of their keys' kernel shape ("map", "scan_loop", ...) and node count
};
std::vector<audit_entry> audit_results();
void audit_clear();

}  // namespace tegula::array::vm
