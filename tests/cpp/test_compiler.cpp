// Tests of jit/compiler: cache keys, memory hits, disk hits, recovery from damaged entries.
#include "tegula/jit/compiler.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <thread>

#include "nvrtc_available.hpp"
#include "temp_dir.hpp"
#include "tegula/jit/disk_cache.hpp"
#include "tegula/support/config.hpp"

namespace tegula::jit {
namespace {

// get_config() reads the environment once, so the cache directory for this whole test binary is
// set here, before any test runs; no other test in the binary depends on the cache directory.
class cache_dir_environment : public ::testing::Environment {
 public:
  void SetUp() override {
    dir_ = std::make_unique<tegula::testing::temp_dir>();
    ::setenv("TEGULA_CACHE_DIR", dir_->path().c_str(), 1);
    ::setenv("TEGULA_DISABLE_CACHE", "0", 1);
    path = dir_->path();
  }
  void TearDown() override { dir_.reset(); }
  static inline std::string path;

 private:
  std::unique_ptr<tegula::testing::temp_dir> dir_;
};

[[maybe_unused]] const auto* registered =
    ::testing::AddGlobalTestEnvironment(new cache_dir_environment);

compile_request axpy(const std::string& tag) {
  compile_request r;
  r.source = "// " + tag + "\n"
             "template <class T> __global__ void axpy(T a, const T* x, T* y, int n) {\n"
             "  int i = blockIdx.x * blockDim.x + threadIdx.x;\n"
             "  if (i < n) y[i] = a * x[i] + y[i];\n"
             "}\n";
  r.name_expressions = {"axpy<float>"};
  r.options = {"-std=c++17"};
  return r;
}

TEST(Compiler, UsesTheTestCacheDirectory) {
  EXPECT_EQ(get_config().cache_dir, cache_dir_environment::path);
  EXPECT_EQ(default_disk_cache().directory(), cache_dir_environment::path);
  EXPECT_TRUE(get_config().disk_cache);
}

TEST(Compiler, KeyIsStableAndCoversEveryField) {
  TEGULA_REQUIRE_NVRTC();
  compile_request base = axpy("key");
  std::string key = cache_key(base);
  EXPECT_EQ(key.size(), 64u);
  EXPECT_EQ(cache_key(base), key);
  EXPECT_EQ(cache_key(axpy("key")), key);

  auto differs = [&](auto change) {
    compile_request r = base;
    change(r);
    return cache_key(r) != key;
  };
  EXPECT_TRUE(differs([](auto& r) { r.options.push_back("-DX=1"); }));
  EXPECT_TRUE(differs([](auto& r) { r.options = {"-std=c++20"}; }));
  EXPECT_TRUE(differs([](auto& r) { r.source += " "; }));
  EXPECT_TRUE(differs([](auto& r) { r.headers = {{"a.h", ""}}; }));
  EXPECT_TRUE(differs([](auto& r) { r.name_expressions = {"axpy<double>"}; }));
  EXPECT_TRUE(differs([](auto& r) { r.arch = 100; }));
  EXPECT_TRUE(differs([](auto& r) { r.arch_specific = true; }));
  EXPECT_TRUE(differs([](auto& r) { r.kind = target::ptx; }));

  // Items cannot slide between fields or lists.
  compile_request a = base, b = base;
  a.options = {"-DA", "-DB"};
  b.options = {"-DA-DB"};
  EXPECT_NE(cache_key(a), cache_key(b));
  a = base;
  b = base;
  a.headers = {{"x.h", "1"}};
  b.headers = {{"x.h1", ""}};
  EXPECT_NE(cache_key(a), cache_key(b));
  a = base;
  b = base;
  a.options = {"axpy<float>"};
  a.name_expressions = {};
  b.options = {};
  b.name_expressions = {"axpy<float>"};
  EXPECT_NE(cache_key(a), cache_key(b));
}

TEST(Compiler, MemoryHitThenDiskHit) {
  TEGULA_REQUIRE_NVRTC();
  compile_request r = axpy("memory-then-disk");
  auto first = compile(r);
  EXPECT_EQ(first->outcome, cache_outcome::compiled);
  EXPECT_EQ(first->key, cache_key(r));
  EXPECT_GT(first->seconds, 0);
  EXPECT_EQ(first->result->code.substr(0, 4), "\x7f" "ELF");
  ASSERT_EQ(first->result->lowered_names.size(), 1u);

  auto second = compile(r);
  EXPECT_EQ(second->outcome, cache_outcome::memory_hit);
  EXPECT_EQ(second->key, first->key);
  EXPECT_EQ(second->result->code, first->result->code);

  clear_memory_cache();
  auto third = compile(r);
  EXPECT_EQ(third->outcome, cache_outcome::disk_hit);
  EXPECT_EQ(third->result->code, first->result->code);
  EXPECT_EQ(third->result->log, first->result->log);
  EXPECT_EQ(third->result->lowered_names, first->result->lowered_names);
  EXPECT_EQ(third->result->kind, target::cubin);
  EXPECT_EQ(compile(r)->outcome, cache_outcome::memory_hit);  // the disk hit was remembered

  clear_memory_cache();
  EXPECT_GE(default_disk_cache().clear(), 1u);
  EXPECT_EQ(compile(r)->outcome, cache_outcome::compiled);
}

TEST(Compiler, PtxTargetIsCachedToo) {
  TEGULA_REQUIRE_NVRTC();
  compile_request r = axpy("ptx");
  r.kind = target::ptx;
  auto first = compile(r);
  EXPECT_EQ(first->result->kind, target::ptx);
  EXPECT_NE(first->result->code.find(".entry"), std::string::npos);
  clear_memory_cache();
  auto again = compile(r);
  EXPECT_EQ(again->outcome, cache_outcome::disk_hit);
  EXPECT_EQ(again->result->code, first->result->code);
}

TEST(Compiler, DamagedDiskEntryIsRebuilt) {
  TEGULA_REQUIRE_NVRTC();
  compile_request r = axpy("damaged");
  auto first = compile(r);
  clear_memory_cache();
  std::string path = default_disk_cache().entry_path(first->key);
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(100);
    f.put('\x5a');
  }
  EXPECT_EQ(compile(r)->outcome, cache_outcome::compiled);
  clear_memory_cache();
  EXPECT_EQ(compile(r)->outcome, cache_outcome::disk_hit);  // the rebuilt entry is good
}

TEST(Compiler, UndecodablePayloadIsRecompiled) {
  TEGULA_REQUIRE_NVRTC();
  compile_request r = axpy("undecodable");
  std::string key = cache_key(r);
  default_disk_cache().put(key, "not a compile result", {});  // a valid entry, a bad payload
  auto c = compile(r);
  EXPECT_EQ(c->outcome, cache_outcome::compiled);
  EXPECT_EQ(c->result->code.substr(0, 4), "\x7f" "ELF");
  clear_memory_cache();
  EXPECT_EQ(compile(r)->outcome, cache_outcome::disk_hit);
}

TEST(Compiler, EntryRecordsWhoMadeItButTheKeyDoesNot) {
  TEGULA_REQUIRE_NVRTC();
  compile_request r = axpy("described");
  r.made_by = component::cub;
  r.kernel_name = "cub: axpy";
  r.arch = 80;
  compile_request other = r;
  other.made_by = component::program;
  other.kernel_name = "something else";
  EXPECT_EQ(cache_key(r), cache_key(other));  // a description, not part of the content address
  std::string key = compile(r)->key;
  std::vector<cache_entry> listed = default_disk_cache().list(component::cub);
  auto it = std::find_if(listed.begin(), listed.end(), [&](const cache_entry& e) { return e.key == key; });
  ASSERT_NE(it, listed.end());
  EXPECT_EQ(it->meta.name, "cub: axpy");
  EXPECT_EQ(it->meta.arch, "sm_80");
  compile_request ptx = axpy("described ptx");
  ptx.kind = target::ptx;
  std::string ptx_key = compile(ptx)->key;
  listed = default_disk_cache().list(component::other);  // the default maker
  it = std::find_if(listed.begin(), listed.end(), [&](const cache_entry& e) { return e.key == ptx_key; });
  ASSERT_NE(it, listed.end());
  EXPECT_EQ(it->meta.name, ptx.name);  // no kernel_name: the program name
  EXPECT_EQ(it->meta.arch, "compute_90");
}

TEST(Compiler, ConcurrentCompilesOfOneKeyAgree) {
  TEGULA_REQUIRE_NVRTC();
  compile_request r = axpy("concurrent");
  std::vector<std::shared_ptr<const compiled>> results(4);
  std::vector<std::thread> threads;
  for (std::size_t i = 0; i < results.size(); ++i)
    threads.emplace_back([&, i] { results[i] = compile(r); });
  for (auto& t : threads) t.join();
  for (const auto& c : results) {
    ASSERT_TRUE(c);
    EXPECT_EQ(c->key, results[0]->key);
    EXPECT_EQ(c->result->code, results[0]->result->code);
  }
  EXPECT_EQ(compile(r)->outcome, cache_outcome::memory_hit);
}

TEST(Compiler, CompileErrorsAreNotCached) {
  TEGULA_REQUIRE_NVRTC();
  compile_request r;
  r.name = "bad.cu";
  r.source = "__global__ void k() { this is not cuda }\n";
  for (int attempt = 0; attempt < 2; ++attempt) {
    try {
      compile(r);
      FAIL() << "expected a compile error";
    } catch (const error& e) {
      EXPECT_EQ(e.kind(), error_kind::compile);
      EXPECT_NE(std::string(e.what()).find("bad.cu"), std::string::npos);
    }
  }
  EXPECT_FALSE(default_disk_cache().get(cache_key(r)).has_value());
}

}  // namespace
}  // namespace tegula::jit
