// The pass pipeline: the only place that names and orders passes.
#include "tegula/passes/pipeline.hpp"

#include <algorithm>

#include "tegula/ir/printer.hpp"
#include "tegula/ir/verifier.hpp"
#include "tegula/passes/canonicalize.hpp"
#include "tegula/passes/cse.hpp"
#include "tegula/passes/dce.hpp"
#include "tegula/passes/licm.hpp"
#include "tegula/support/error.hpp"

namespace tegula::passes {
namespace {

ir::function verify_pass(const ir::function& f) {
  ir::verify(f);
  return f;
}

std::string known_names() {
  std::string s;
  for (const auto& [n, p] : registered_passes()) s += (s.empty() ? "" : ", ") + n;
  return s;
}

}  // namespace

const std::vector<std::pair<std::string, pass_fn>>& registered_passes() {
  static const std::vector<std::pair<std::string, pass_fn>> passes = {
      {"verify", verify_pass}, {"canonicalize", canonicalize}, {"cse", cse}, {"licm", licm}, {"dce", dce},
  };
  return passes;
}

pass_fn find_pass(const std::string& name) {
  for (const auto& [n, p] : registered_passes())
    if (n == name) return p;
  return nullptr;
}

const std::vector<std::string>& pipeline_stages() {
  // Canonicalize first so that CSE sees folded constants; LICM after CSE so it moves one copy of
  // each invariant; CSE again to merge copies that LICM hoisted out of sibling loops; DCE last to
  // drop what folding and merging left unused; verify at both ends.
  static const std::vector<std::string> stages = {"verify", "canonicalize", "cse", "licm", "cse", "dce", "verify"};
  return stages;
}

ir::function run_passes(const ir::function& f, const std::vector<std::string>& names, const pipeline_options& options) {
  for (const std::string& n : names)
    if (!find_pass(n)) fail(error_kind::invalid_argument, "unknown pass '", n, "' (known: ", known_names(), ")");
  if (!options.stop_after.empty() && std::find(names.begin(), names.end(), options.stop_after) == names.end())
    fail(error_kind::invalid_argument, "stop_after: no stage named '", options.stop_after, "'");
  ir::function cur = f;
  for (const std::string& n : names) {
    cur = find_pass(n)(cur);
    if (options.after_stage) options.after_stage(n, cur);
    if (options.dumps) options.dumps->emplace_back(n, ir::print(cur, options.dump_locations));
    if (n == options.stop_after) break;
  }
  return cur;
}

ir::function run_pipeline(const ir::function& f, const pipeline_options& options) {
  return run_passes(f, pipeline_stages(), options);
}

}  // namespace tegula::passes
