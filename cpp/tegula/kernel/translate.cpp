// The front half of the compile driver: passes, codegen and the NVRTC request (see translate.hpp).
#include "tegula/kernel/translate.hpp"

#include "tegula/passes/pipeline.hpp"
#include "tegula/support/error.hpp"

namespace tegula::kernel {

std::vector<codegen::array_spec> aligned_layouts(const ir::function& fn) {
  std::vector<codegen::array_spec> out;
  for (const ir::param& p : fn.params)
    if (fn.type_of(p.value).is_array()) out.push_back({true, true});
  return out;
}

translation translate(const ir::function& fn, const target& t, int arch) {
  passes::pipeline_options po;
  std::vector<std::pair<std::string, std::string>> stages;
  if (t.keep_stages) po.dumps = &stages;
  po.dump_locations = t.dump_locations;
  ir::function passed = passes::run_pipeline(fn, po);
  translation tr;
  if (arch > 0) {
    tr = generate(std::move(passed), t, arch);
  } else {
    tr.fn = std::move(passed);
  }
  tr.stages = std::move(stages);
  return tr;
}

translation generate(ir::function post_pass, const target& t, int arch) {
  if (arch <= 0)
    fail(error_kind::invalid_argument, "kernel '", post_pass.name, "': code is generated for a GPU architecture "
         "(major*10+minor, e.g. 90), got ", arch);
  translation tr;
  tr.fn = std::move(post_pass);
  tr.arch = arch;
  codegen::options o;
  o.arch = arch;
  o.arrays = t.arrays;
  o.stages = t.stages;
  o.cluster = t.cluster;
  o.long_bodies_fewer_groups = t.long_bodies_fewer_groups;
  tr.source = codegen::generate(tr.fn, o);
  jit::compile_request& r = tr.request;
  r.source = tr.source.source;
  r.name = t.program_name.empty() ? tr.fn.name + ".cu" : t.program_name;
  r.made_by = t.made_by;
  r.kernel_name = tr.source.name;
  r.arch = arch;
  r.arch_specific = tr.source.arch_specific;
  return tr;
}

}  // namespace tegula::kernel
