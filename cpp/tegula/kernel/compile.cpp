// The compile driver and its in-process cache (see compile.hpp).
#include "tegula/kernel/compile.hpp"

#include <cuda.h>

#include "tegula/passes/pipeline.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/runtime/module.hpp"
#include "tegula/runtime/object_code.hpp"
#include "tegula/runtime/profiler.hpp"
#include "tegula/support/error.hpp"

namespace tegula::kernel {
namespace {

// Loads the code and fixes what every launch relies on: the shared memory opt-in and the persistent grid's limit.
void load(compiled& c, const jit::compiled& done, rt::device& dev) {
  c.code = std::make_shared<rt::object_code>(done.result->code, rt::object_code::kind::cubin,
                                             done.result->lowered_names);
  c.gpu = c.code->get_kernel(c.source.name);
  const int shared = c.source.dynamic_shared_bytes;
  if (shared > 48 * 1024) c.gpu->set_attribute(CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, shared, dev);
  c.max_blocks = dev.sm_count();
  const int cluster = c.source.cluster;
  if (cluster > 1) {
    // A persistent grid of clusters must all run at once (each walks its share of the tiles to the end): not
    // every SM can join a cluster, so the grid is the clusters that fit, not the SMs.
    const int fit = c.gpu->max_active_clusters(cluster, c.source.block_threads, std::size_t(shared), dev);
    if (fit < 1)
      fail(error_kind::invalid_argument, "tile kernel '", c.fn.name, "': no cluster of ", cluster, " blocks of ",
           c.source.block_threads, " threads and ", shared, " bytes of shared memory fits");
    c.max_blocks = std::min(c.max_blocks, fit * cluster);
  }
}

}  // namespace

std::shared_ptr<const compiled> compile(const ir::function& fn, const target& t) {
  auto c = std::make_shared<compiled>();
  passes::pipeline_options po;
  if (t.keep_stages) po.dumps = &c->stages;
  po.dump_locations = t.dump_locations;
  c->fn = passes::run_pipeline(fn, po);
  c->arrays = t.arrays;
  if (!t.device) return c;
  rt::device& dev = *t.device;
  c->on_gpu = true;
  c->device = &dev;
  c->arch = dev.arch();
  codegen::options o;
  o.arch = c->arch;
  o.arrays = t.arrays;
  o.stages = t.stages;
  o.cluster = t.cluster;
  o.long_bodies_fewer_groups = t.long_bodies_fewer_groups;
  c->source = codegen::generate(c->fn, o);
  jit::compile_request r;
  r.source = c->source.source;
  r.name = t.program_name.empty() ? c->fn.name + ".cu" : t.program_name;
  r.arch = c->arch;
  r.arch_specific = c->source.arch_specific;
  r.made_by = t.made_by;
  r.kernel_name = c->source.name;
  std::shared_ptr<const jit::compiled> done = t.nvrtc ? t.nvrtc(r) : jit::compile(r);
  // Profiles name a compile by its kernel, as they name its launches.
  rt::prof::record_compile(c->source.name, done->seconds, jit::outcome_name(done->outcome));
  c->compile_outcome = jit::outcome_name(done->outcome);
  load(*c, *done, dev);
  return c;
}

const compiled* cache::find(const std::string& key) const {
  std::lock_guard<std::mutex> lock(m_);
  auto it = entries_.find(key);
  return it == entries_.end() ? nullptr : it->second.get();
}

const compiled& cache::get(const std::string& key, const std::function<ir::function()>& make_ir, const target& t,
                           bool* built) {
  if (built) *built = false;
  if (const compiled* hit = find(key)) return *hit;
  std::shared_ptr<const compiled> c = compile(make_ir(), t);
  if (built) *built = true;
  std::lock_guard<std::mutex> lock(m_);
  return *entries_.emplace(key, std::move(c)).first->second;
}

std::size_t cache::size() const {
  std::lock_guard<std::mutex> lock(m_);
  return entries_.size();
}

}  // namespace tegula::kernel
