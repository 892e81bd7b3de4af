// Tests of the prebuilt library kernels (libs/prebuilt_library.hpp, jit/prebuilt.hpp): every request tegula.numpy's
// default paths make has its entry in the package the build made, and jit::lookup answers a request from a package
// entry without NVRTC.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "nvrtc_available.hpp"
#include "temp_dir.hpp"
#include "tegula/jit/compiler.hpp"
#include "tegula/jit/prebuilt.hpp"
#include "tegula/jit/result_codec.hpp"
#include "tegula/libs/cub_jit.hpp"
#include "tegula/libs/cub_sort.hpp"
#include "tegula/libs/prebuilt_library.hpp"
#include "tegula/support/package_dir.hpp"

namespace tegula::libs {
namespace {

using ::tegula::set_package_dir;

TEST(PrebuiltLibrary, ListsTheDefaultPathsOnce) {
  TEGULA_REQUIRE_NVRTC();
  const auto requests = prebuilt_library_requests(90);
  EXPECT_GE(requests.size(), 20u);
  std::set<std::string> keys;
  for (const auto& r : requests) {
    EXPECT_EQ(r.arch, 90);
    EXPECT_TRUE(keys.insert(jit::cache_key(r)).second) << r.kernel_name << " listed twice";
  }
  // What radix_sort asks for a float32 argsort (keys with 8-byte values, n < 2^32) is among them.
  const cub_sort_program prog = cub_sort_source("float32", 8, 4);
  EXPECT_TRUE(keys.count(jit::cache_key(cub_request(prog.source, {prog.histogram, prog.exclusive_sum, prog.onesweep}, 90))));
}

#ifdef TEGULA_PACKAGE_DIR
TEST(PrebuiltLibrary, TheBuildMadeEveryEntry) {
  TEGULA_REQUIRE_NVRTC();
  const std::string dir = std::string(TEGULA_PACKAGE_DIR) + "/tegula_prebuilt";
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "no " << dir << " (a build without NVRTC)";
  set_package_dir(TEGULA_PACKAGE_DIR);
  ASSERT_EQ(jit::prebuilt_dir(), dir);
  for (const auto& r : prebuilt_library_requests(90)) {
    auto payload = jit::prebuilt_payload(jit::cache_key(r));
    ASSERT_TRUE(payload) << r.kernel_name << ": no entry in " << dir;
    auto result = jit::decode_result(*payload);
    ASSERT_TRUE(result);
    EXPECT_EQ(result->code.substr(0, 4), "\x7f" "ELF") << r.kernel_name;
  }
  set_package_dir("");
}
#endif

TEST(PrebuiltLibrary, LookupAnswersFromThePackage) {
  TEGULA_REQUIRE_NVRTC();
  testing::temp_dir pkg;
  const std::string dir = pkg.path() + "/tegula_prebuilt";
  std::filesystem::create_directory(dir);
  jit::compile_request r;
  r.source = "extern \"C\" __global__ void tg_prebuilt_probe(int* x) { x[0] = 17; }  // unique to this test\n";
  r.name = "tegula_lib.cu";
  r.arch = 90;
  r.kernel_name = "prebuilt probe";
  const std::string key = jit::cache_key(r);
  jit::clear_memory_cache();
  jit::write_prebuilt(dir, key, jit::encode_result(jit::nvrtc_compile(r)), {});
  set_package_dir(pkg.path());
  auto hit = jit::lookup(r);
  set_package_dir("");
  ASSERT_TRUE(hit);
  // the user's disk cache may hold it from an earlier run of this test; never NVRTC
  EXPECT_TRUE(hit->outcome == jit::cache_outcome::package_hit || hit->outcome == jit::cache_outcome::disk_hit);
  EXPECT_STREQ(jit::outcome_name(jit::cache_outcome::package_hit), "package");
  // a damaged entry is no entry
  testing::temp_dir bad;
  std::filesystem::create_directory(bad.path() + "/tegula_prebuilt");
  { std::ofstream(bad.path() + "/tegula_prebuilt/" + key + ".bin") << "TGLC garbage"; }
  set_package_dir(bad.path());
  EXPECT_FALSE(jit::prebuilt_payload(key));
  set_package_dir("");
}

}  // namespace
}  // namespace tegula::libs
