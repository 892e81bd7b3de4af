// The compile driver and its in-process cache (see compile.hpp).
#include "tegula/kernel/compile.hpp"

#include <cuda.h>

#include <condition_variable>

#include "tegula/kernel/background.hpp"
#include "tegula/kernel/image.hpp"
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

// A GPU translation with its cubin, loaded on t's device.
std::shared_ptr<const compiled> finish(translation tr, const jit::compiled& done, const target& t) {
  auto c = std::make_shared<compiled>();
  c->arrays = t.arrays;
  c->stages = std::move(tr.stages);
  c->fn = std::move(tr.fn);
  c->source = std::move(tr.source);
  c->on_gpu = true;
  c->device = t.device;
  c->arch = tr.arch;
  c->compile_outcome = jit::outcome_name(done.outcome);
  load(*c, done, *t.device);
  return c;
}

}  // namespace

std::shared_ptr<const compiled> compile(const ir::function& fn, const target& t) {
  translation tr = translate(fn, t, t.device ? t.device->arch() : 0);
  if (!t.device) {
    auto c = std::make_shared<compiled>();
    c->arrays = t.arrays;
    c->stages = std::move(tr.stages);
    c->fn = std::move(tr.fn);
    return c;
  }
  std::shared_ptr<const jit::compiled> done = compile_image(tr, image_kind::cubin, t.nvrtc);
  return finish(std::move(tr), *done, t);
}

// A background compile of one key: get() waits on it.
struct cache::flight {
  std::mutex m;
  std::condition_variable cv;
  bool done = false;
};

const compiled& cache::store(const std::string& key, std::shared_ptr<const compiled> c) {
  std::lock_guard<std::mutex> lock(m_);
  return *entries_.emplace(key, std::move(c)).first->second;
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
  std::shared_ptr<flight> f;
  {
    std::lock_guard<std::mutex> lock(m_);
    auto it = flights_.find(key);
    if (it != flights_.end()) f = it->second;
  }
  if (f) {  // compiling in the background: wait for it rather than compile it twice
    std::unique_lock<std::mutex> lock(f->m);
    f->cv.wait(lock, [&] { return f->done; });
    if (const compiled* hit = find(key)) return *hit;  // else it failed: compile here, raising its error
  }
  std::shared_ptr<const compiled> c = compile(make_ir(), t);
  if (built) *built = true;
  return store(key, std::move(c));
}

const compiled* cache::get_or_start(const std::string& key, const std::function<ir::function()>& make_ir,
                                    const target& t) {
  if (const compiled* hit = find(key)) return hit;
  if (!t.device) fail(error_kind::internal, "a background compile for the interpreter");
  {
    std::lock_guard<std::mutex> lock(m_);
    if (flights_.count(key)) return nullptr;
  }
  translation tr = translate(make_ir(), t, t.device->arch());
  if (auto done = jit::lookup(image_request(tr, image_kind::cubin))) {  // in the disk cache: no NVRTC
    rt::prof::record_compile(tr.source.name, done->seconds, jit::outcome_name(done->outcome));
    return &store(key, finish(std::move(tr), *done, t));
  }
  auto f = std::make_shared<flight>();
  {
    std::lock_guard<std::mutex> lock(m_);
    if (!flights_.emplace(key, f).second) return nullptr;  // another thread started it meanwhile
  }
  target bt = t;
  bt.nvrtc = nullptr;  // jit::compile: the bindings' interruptible NVRTC needs the Python thread
  background::submit([this, key, f, bt, tr = std::move(tr)](bool run) mutable {
    if (run) {  // else dropped at exit: the next get() compiles on its own thread
      try {
        bt.device->make_current();
        auto done = compile_image(tr, image_kind::cubin, bt.nvrtc);
        store(key, finish(std::move(tr), *done, bt));
      } catch (...) {
        // Left for the next get(), which compiles the kernel again on its own thread and raises what this raised.
      }
    }
    {
      std::lock_guard<std::mutex> lock(m_);
      flights_.erase(key);
    }
    std::lock_guard<std::mutex> lock(f->m);
    f->done = true;
    f->cv.notify_all();
  });
  return nullptr;
}

std::size_t cache::in_flight() const {
  std::lock_guard<std::mutex> lock(m_);
  return flights_.size();
}

std::size_t cache::size() const {
  std::lock_guard<std::mutex> lock(m_);
  return entries_.size();
}

}  // namespace tegula::kernel
