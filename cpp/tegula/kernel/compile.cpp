// The compile driver and its in-process cache (see compile.hpp).
#include "tegula/kernel/compile.hpp"

#include <cuda.h>

#include "tegula/kernel/image.hpp"
#include "tegula/runtime/device.hpp"
#include "tegula/runtime/module.hpp"
#include "tegula/runtime/object_code.hpp"
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
  translation tr = translate(fn, t, t.device ? t.device->arch() : 0);
  auto c = std::make_shared<compiled>();
  c->arrays = t.arrays;
  c->stages = std::move(tr.stages);
  if (!t.device) {
    c->fn = std::move(tr.fn);
    return c;
  }
  std::shared_ptr<const jit::compiled> done = compile_image(tr, image_kind::cubin, t.nvrtc);
  c->fn = std::move(tr.fn);
  c->source = std::move(tr.source);
  c->on_gpu = true;
  c->device = t.device;
  c->arch = tr.arch;
  c->compile_outcome = jit::outcome_name(done->outcome);
  load(*c, *done, *t.device);
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
