// The CPU audit of the array VM's coverage (see vm_audit.hpp).
#include "tegula/array/vm_audit.hpp"

#include <atomic>
#include <map>
#include <mutex>
#include <set>

#include "tegula/array/vm.hpp"
#include "tegula/ir/ir.hpp"
#include "tegula/support/error.hpp"

namespace tegula::array::vm {
namespace {

struct audit_state {
  std::atomic<bool> on{false};
  std::mutex m;
  std::set<std::string> seen;
  std::map<std::string, audit_entry> by_outcome;
};
audit_state& state() {
  static auto* s = new audit_state();  // leaked at exit
  return *s;
}

const char* shape_name(kernel_shape s) {
  switch (s) {
    case kernel_shape::map: return "map";
    case kernel_shape::rows: return "rows";
    case kernel_shape::row_loop: return "row_loop";
    case kernel_shape::split: return "split";
    case kernel_shape::scan_loop: return "scan_loop";
    case kernel_shape::col_loop: return "col_loop";
  }
  return "?";
}

void record(const std::string& key, const std::string& outcome, const std::string& example) {
  audit_state& s = state();
  std::lock_guard<std::mutex> lock(s.m);
  if (!s.seen.insert(key).second) return;
  audit_entry& e = s.by_outcome[outcome];
  e.outcome = outcome;
  ++e.kernels;
  if (e.example.empty()) e.example = example;
}

}  // namespace

void set_audit(bool on) { state().on = on; }
bool audit_on() { return state().on.load(std::memory_order_relaxed); }

void audit_plan(const std::string& key, const plan& p) {
  {
    audit_state& s = state();
    std::lock_guard<std::mutex> lock(s.m);
    if (s.seen.count(key)) return;
  }
  const node& root = *p.order.back();
  const std::string example = str(shape_name(p.shape), " kernel, root '", ir::info(root.op).text, "', ",
                                  p.order.size(), " nodes");
  if (!inner_reductions(p).empty()) {
    record(key, "vm after inner reductions", example);
    return;
  }
  std::string why;
  if (build_program(p, &why)) {
    record(key, "vm", example);
  } else if (codegen::vm::size_refusal(why) && part_to_cut(p)) {
    record(key, "vm in parts (too large for one program: " + why + ")", example);  // run_first's cut
  } else {
    record(key, why, example);
  }
}

void audit_copy(const std::string& key, const copy_job& job) {
  record(key, copy_launches(job) ? "vm (copy)" : "a copy with no VM form (past max_copy_launches, or a conversion)",
         str("copy over ", job.shape.size(), " axes"));
}

std::vector<audit_entry> audit_results() {
  audit_state& s = state();
  std::lock_guard<std::mutex> lock(s.m);
  std::vector<audit_entry> out;
  for (const auto& [k, e] : s.by_outcome) out.push_back(e);
  return out;
}

void audit_clear() {
  audit_state& s = state();
  std::lock_guard<std::mutex> lock(s.m);
  s.seen.clear();
  s.by_outcome.clear();
}

}  // namespace tegula::array::vm
