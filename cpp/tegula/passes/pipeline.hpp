// The pass pipeline: the only place that names and orders passes (tegula-opt and the JIT use it).
#pragma once
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "tegula/ir/ir.hpp"

namespace tegula::passes {

using pass_fn = ir::function (*)(const ir::function&);

// Every pass by name: "verify" (checks and returns its input), "canonicalize", "cse", "licm", "dce".
const std::vector<std::pair<std::string, pass_fn>>& registered_passes();
pass_fn find_pass(const std::string& name);  // nullptr when unknown

// The stages of run_pipeline, in order: verify, canonicalize, cse, licm, cse, dce, verify.
const std::vector<std::string>& pipeline_stages();

struct pipeline_options {
  // Called after each stage with its name and result (for example to print the IR after every pass).
  std::function<void(const std::string& stage, const ir::function& result)> after_stage;
  // When set, receives (stage name, print(result, dump_locations)) after each stage.
  std::vector<std::pair<std::string, std::string>>* dumps = nullptr;
  bool dump_locations = false;
  // Stop after the first stage of this name; "" runs every stage. Unknown names are an error.
  std::string stop_after;
};

// Runs the standard pipeline. Throws what the passes throw (the verifier's invalid_argument).
ir::function run_pipeline(const ir::function& f, const pipeline_options& options = {});

// Runs the named passes in the given order (tegula-opt --pass=a,b). Unknown names throw
// invalid_argument listing the known ones.
ir::function run_passes(const ir::function& f, const std::vector<std::string>& names,
                        const pipeline_options& options = {});

}  // namespace tegula::passes
