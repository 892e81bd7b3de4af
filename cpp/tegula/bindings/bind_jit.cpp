// Bindings for jit/: compile (NVRTC behind the caches) and inspection of the on-disk cache.
#include <nanobind/stl/optional.h>
#include <nanobind/stl/pair.h>
#include <nanobind/stl/shared_ptr.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <unordered_map>

#include "tegula/bindings/bind_support.hpp"
#include "tegula/bindings/interruptible.hpp"
#include "tegula/jit/compiler.hpp"
#include "tegula/jit/disk_cache.hpp"
#include "tegula/runtime/object_code.hpp"
#include "tegula/runtime/profiler.hpp"
#include "tegula/support/error.hpp"

namespace tegula::bind {
namespace {

// One ObjectCode per cache key, so a repeated compile reuses the loaded module and its kernels.
std::shared_ptr<rt::object_code> object_code_for(const jit::compiled& c) {
  static std::mutex mutex;
  static auto* codes = new std::unordered_map<std::string, std::shared_ptr<rt::object_code>>();
  std::lock_guard<std::mutex> lock(mutex);
  auto& slot = (*codes)[c.key];
  if (!slot)
    slot = std::make_shared<rt::object_code>(
        c.result->code, c.result->kind == jit::target::cubin ? rt::object_code::kind::cubin : rt::object_code::kind::ptx,
        c.result->lowered_names);
  return slot;
}

}  // namespace

// NVRTC on a worker thread while this one watches Python's signals: Ctrl-C raises KeyboardInterrupt at once, and
// the compile finishes in the background (its result lands in the cache for the next call).
std::shared_ptr<const jit::compiled> compile_interruptibly(const jit::compile_request& r) {
  struct job {
    jit::compile_request request;
    std::shared_ptr<const jit::compiled> result;
    std::exception_ptr error;
    std::atomic<bool> done{false};
  };
  auto j = std::make_shared<job>();
  j->request = r;
  std::thread([j] {
    try {
      j->result = jit::compile(j->request);
    } catch (...) {
      j->error = std::current_exception();
    }
    j->done.store(true, std::memory_order_release);
  }).detach();
  signal_watch watch;
  bool finished;
  {
    nb::gil_scoped_release g;
    finished = wait_until([&] { return j->done.load(std::memory_order_acquire); }, watch);
  }
  if (!finished) watch.rethrow();
  if (j->error) std::rethrow_exception(j->error);
  return j->result;
}


namespace {

// The component a Python caller names ("program", ...); ValueError for any other name.
jit::component component_arg(const std::string& name) {
  std::optional<jit::component> c = jit::parse_component(name);
  if (!c) fail(error_kind::invalid_argument, "unknown cache component '", name, "' (one of ", jit::component_names(), ")");
  return *c;
}

std::optional<jit::component> component_filter(const std::optional<std::string>& name) {
  if (!name) return std::nullopt;
  return component_arg(*name);
}

}  // namespace

void bind_jit(nb::module_& m) {
  m.def("compile", [](const std::string& source, const std::string& name, std::vector<std::string> options,
                      std::vector<std::pair<std::string, std::string>> headers, std::vector<std::string> name_expressions,
                      int arch, bool arch_specific, const std::string& target, const std::string& component,
                      const std::string& kernel_name) {
    jit::compile_request r;
    r.source = source;
    r.name = name;
    r.options = std::move(options);
    r.headers = std::move(headers);
    r.name_expressions = std::move(name_expressions);
    r.arch = arch;
    r.arch_specific = arch_specific;
    r.made_by = component_arg(component);
    r.kernel_name = kernel_name;
    if (target == "cubin") r.kind = jit::target::cubin;
    else if (target == "ptx") r.kind = jit::target::ptx;
    else fail(error_kind::invalid_argument, "target_type must be 'cubin' or 'ptx', got '", target, "'");
    std::shared_ptr<const jit::compiled> c = jit::lookup(r);
    if (!c) c = compile_interruptibly(r);
    rt::prof::record_compile(name, c->seconds, jit::outcome_name(c->outcome));
    nb::dict info;
    info["key"] = c->key;
    info["cache"] = jit::outcome_name(c->outcome);
    info["seconds"] = c->seconds;
    info["log"] = c->result->log;
    return std::make_pair(object_code_for(*c), info);
  }, nb::arg("source"), nb::arg("name"), nb::arg("options"), nb::arg("headers"), nb::arg("name_expressions"),
  nb::arg("arch"), nb::arg("arch_specific"), nb::arg("target"), nb::arg("component"), nb::arg("kernel_name"));

  m.def("nvrtc_version", [] {
    int v = jit::nvrtc_version();
    return std::make_pair(v / 1000, (v % 1000) / 10);
  });
  m.def("nvrtc_path", &jit::nvrtc_path);
  m.def("clear_memory_cache", &jit::clear_memory_cache);

  // The on-disk cache, for tegula.core's cache_* functions (core/_cache.py) and `tegula cache`.
  m.def("cache_info", [] {
    jit::disk_cache& c = jit::default_disk_cache();
    nb::dict d;
    d["directory"] = c.directory();
    d["enabled"] = c.enabled();
    d["disabled_reason"] = c.disabled_reason();
    d["max_size"] = c.max_bytes();
    return d;
  });
  m.def("cache_components", [] {
    nb::list out;
    for (auto c : {jit::component::program, jit::component::tile, jit::component::array, jit::component::cub,
                   jit::component::other, jit::component::unknown})
      out.append(jit::component_name(c));
    return out;
  }, "The component names an entry may record, `unknown` last (entries from before entries recorded one).");
  m.def("cache_entries", [](const std::optional<std::string>& component) {
    nb::list out;
    for (const auto& e : jit::default_disk_cache().list(component_filter(component)))
      out.append(nb::make_tuple(e.key, jit::component_name(e.meta.made_by), e.meta.name, e.meta.arch, e.size,
                                e.last_used));
    return out;
  }, nb::arg("component") = nb::none(),
  "(key, component, name, arch, bytes, last use) of each on-disk cache entry (of one component).");
  m.def("cache_size", [] { return jit::default_disk_cache().total_size(); });
  m.def("cache_clear", [](const std::optional<std::string>& component) {
    std::optional<jit::component> only = component_filter(component);
    jit::clear_memory_cache();
    return jit::default_disk_cache().clear(only);
  }, nb::arg("component") = nb::none(),
  "Removes the on-disk entries (of one component) and the in-memory cache; returns how many entries were removed.");
  m.def("cache_prune", [](std::uint64_t max_bytes) {
    jit::prune_result r = jit::default_disk_cache().prune(max_bytes);
    return nb::make_tuple(r.removed, r.freed, r.remaining);
  }, nb::arg("max_bytes"), "Removes least recently used entries until the cache holds at most max_bytes; returns "
  "(entries removed, bytes freed, bytes left).");
  m.def("cache_read_entry", [](const std::string& key) -> nb::object {
    std::optional<std::string> bytes = jit::default_disk_cache().read_entry(key);
    if (!bytes) return nb::none();
    return nb::bytes(bytes->data(), bytes->size());
  }, nb::arg("key"), "The file of an undamaged entry, or None.");
  m.def("cache_check_entry", [](nb::bytes bytes) -> nb::object {
    std::optional<jit::decoded_entry> e = jit::decode_entry(std::string_view(bytes.c_str(), bytes.size()));
    if (!e) return nb::none();
    return nb::make_tuple(jit::component_name(e->meta.made_by), e->meta.name, e->meta.arch);
  }, nb::arg("bytes"), "(component, name, arch) when `bytes` are one whole undamaged entry file, else None.");
  m.def("cache_install_entry", [](const std::string& key, nb::bytes bytes) {
    return jit::default_disk_cache().install(key, std::string_view(bytes.c_str(), bytes.size()));
  }, nb::arg("key"), nb::arg("bytes"), "Installs an entry file under key (atomically); False if it is damaged.");
}

}  // namespace tegula::bind
