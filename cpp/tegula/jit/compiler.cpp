// The compiler front door: NVRTC behind an in-memory and a content-addressed on-disk cache.
#include "tegula/jit/compiler.hpp"
#include "tegula/support/nvtx.hpp"

#include <chrono>
#include <mutex>
#include <unordered_map>

#include "tegula/jit/disk_cache.hpp"
#include "tegula/jit/prebuilt.hpp"
#include "tegula/jit/result_codec.hpp"
#include "tegula/support/config.hpp"
#include "tegula/support/error.hpp"
#include "tegula/support/sha256.hpp"

namespace tegula::jit {
namespace {

// Bump to orphan every existing entry (e.g. when what goes into the key changes).
constexpr const char* key_schema = "tegula.jit.cache_key.v1";

using steady = std::chrono::steady_clock;

struct memory_cache {
  std::mutex mutex;
  std::unordered_map<std::string, std::shared_ptr<const compiled>> entries;
};

memory_cache& memory() {
  static memory_cache* m = new memory_cache;  // leaked: may be used during static destruction
  return *m;
}

double seconds_since(steady::time_point start) {
  return std::chrono::duration<double>(steady::now() - start).count();
}

// Keeps the first entry inserted for a key: concurrent compiles of one key give equal results.
void remember(const std::shared_ptr<const compiled>& entry) {
  memory_cache& m = memory();
  std::lock_guard<std::mutex> lock(m.mutex);
  m.entries.emplace(entry->key, entry);
}

std::shared_ptr<const compiled> make_compiled(std::string key, compile_result result,
                                              cache_outcome outcome, steady::time_point start) {
  auto c = std::make_shared<compiled>();
  c->key = std::move(key);
  c->result = std::make_shared<const compile_result>(std::move(result));
  c->outcome = outcome;
  c->seconds = seconds_since(start);
  return c;
}

}  // namespace

entry_meta entry_meta_of(const compile_request& r) {
  entry_meta m;
  m.made_by = r.made_by;
  m.name = r.kernel_name.empty() ? r.name : r.kernel_name;
  m.arch = str(r.kind == target::cubin ? "sm_" : "compute_", r.arch, r.arch_specific ? "a" : "");
  return m;
}

std::string cache_key(const compile_request& request) {
  sha256 h;
  h.field(key_schema);
  h.field(std::to_string(nvrtc_version()));
  h.field(request.source);
  // The program name appears in the log and in debug/line info, so it is part of the output.
  h.field(request.name);
  // Every list is preceded by its length, so items cannot move from one list to the next.
  h.field(std::to_string(request.options.size()));
  for (const auto& o : request.options) h.field(o);
  h.field(std::to_string(request.headers.size()));
  for (const auto& [name, contents] : request.headers) h.field(name).field(contents);
  h.field(std::to_string(request.name_expressions.size()));
  for (const auto& e : request.name_expressions) h.field(e);
  h.field(std::to_string(request.arch));
  h.field(request.arch_specific ? "arch_specific" : "arch_generic");
  h.field(request.kind == target::cubin ? "cubin" : "ptx");
  return h.hex_digest();
}

std::shared_ptr<const compiled> lookup(const compile_request& request) {
  steady::time_point start = steady::now();
  std::string key = cache_key(request);

  std::shared_ptr<const compiled> found;
  {
    memory_cache& m = memory();
    std::lock_guard<std::mutex> lock(m.mutex);
    auto it = m.entries.find(key);
    if (it != m.entries.end()) found = it->second;
  }
  if (found) {
    // A new record (outcome and seconds describe this call) sharing the compiled code.
    auto hit = std::make_shared<compiled>(*found);
    hit->outcome = cache_outcome::memory_hit;
    hit->seconds = seconds_since(start);
    return hit;
  }

  const bool use_disk = get_config().disk_cache;
  if (use_disk) {
    if (std::optional<std::string> payload = default_disk_cache().get(key)) {
      std::optional<compile_result> result = decode_result(*payload);
      // An undecodable payload is a miss: it is recompiled below and overwritten.
      if (result && result->kind == request.kind) {
        auto entry = make_compiled(key, std::move(*result), cache_outcome::disk_hit, start);
        remember(entry);
        return entry;
      }
    }
  }
  // The package's prebuilt entries (prebuilt.hpp): library kernels compiled when tegula was built.
  if (std::optional<std::string> payload = prebuilt_payload(key)) {
    std::optional<compile_result> result = decode_result(*payload);
    if (result && result->kind == request.kind) {
      auto entry = make_compiled(key, std::move(*result), cache_outcome::package_hit, start);
      remember(entry);
      return entry;
    }
  }
  return nullptr;
}

std::shared_ptr<const compiled> compile(const compile_request& request) {
  if (auto hit = lookup(request)) return hit;
  steady::time_point start = steady::now();
  std::string key = cache_key(request);
  const bool use_disk = get_config().disk_cache;
  // No lock held here: compiles take long, and other keys must not wait for this one.
  compile_result result = [&] {
    nvtx_range range("tegula compile " + request.name);
    return nvrtc_compile(request);
  }();
  if (use_disk) default_disk_cache().put(key, encode_result(result), entry_meta_of(request));
  auto entry = make_compiled(std::move(key), std::move(result), cache_outcome::compiled, start);
  remember(entry);
  return entry;
}

void clear_memory_cache() {
  memory_cache& m = memory();
  std::lock_guard<std::mutex> lock(m.mutex);
  m.entries.clear();
}

const char* outcome_name(cache_outcome o) {
  switch (o) {
    case cache_outcome::memory_hit: return "memory";
    case cache_outcome::disk_hit: return "disk";
    case cache_outcome::package_hit: return "package";
    case cache_outcome::compiled: return "compiled";
  }
  return "?";
}

}  // namespace tegula::jit
