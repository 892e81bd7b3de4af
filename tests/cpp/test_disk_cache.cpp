// Tests of jit/disk_cache: round trips, damage detection, the safety check, list and clear.
#include "tegula/jit/disk_cache.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>

#include "temp_dir.hpp"
#include "tegula/support/error.hpp"
#include "tegula/support/sha256.hpp"

namespace tegula::jit {
namespace {

std::string key_of(const std::string& s) { return sha256().update(s).hex_digest(); }

bool exists(const std::string& path) {
  struct stat st;
  return ::stat(path.c_str(), &st) == 0;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
}

TEST(DiskCache, RoundTrip) {
  tegula::testing::temp_dir dir;
  disk_cache cache(dir.path());
  std::string key = key_of("one");
  EXPECT_FALSE(cache.get(key).has_value());
  std::string payload("binary\0payload\xff", 15);
  cache.put(key, payload);
  ASSERT_TRUE(cache.enabled()) << cache.disabled_reason();
  std::optional<std::string> got = cache.get(key);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(*got, payload);
  EXPECT_EQ(cache.entry_path(key),
            dir.path() + "/v1/" + key.substr(0, 2) + "/" + key + ".bin");
  EXPECT_EQ(read_file(cache.entry_path(key)).substr(0, 4), "TGLC");
  cache.put(key, "replaced");
  EXPECT_EQ(cache.get(key).value_or(""), "replaced");
  cache.put(key, "");
  EXPECT_EQ(cache.get(key).value_or("missing"), "");
}

TEST(DiskCache, CreatesMissingDirectoriesPrivate) {
  tegula::testing::temp_dir dir;
  std::string nested = dir.path() + "/a/b/cache";
  disk_cache cache(nested);
  cache.put(key_of("x"), "x");
  ASSERT_TRUE(cache.enabled()) << cache.disabled_reason();
  struct stat st;
  ASSERT_EQ(::stat(nested.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 077, 0u);
  ASSERT_EQ(::stat((nested + "/v1").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 077, 0u);
}

TEST(DiskCache, TruncatedEntryIsMissAndRemoved) {
  tegula::testing::temp_dir dir;
  disk_cache cache(dir.path());
  std::string key = key_of("truncated");
  cache.put(key, std::string(1000, 'p'));
  std::string path = cache.entry_path(key);
  for (off_t size : {off_t(1047), off_t(48), off_t(20), off_t(0)}) {
    cache.put(key, std::string(1000, 'p'));
    ASSERT_EQ(::truncate(path.c_str(), size), 0);
    EXPECT_FALSE(cache.get(key).has_value()) << "size " << size;
    EXPECT_FALSE(exists(path)) << "size " << size;
  }
}

TEST(DiskCache, FlippedByteIsMissAndRemoved) {
  tegula::testing::temp_dir dir;
  disk_cache cache(dir.path());
  std::string key = key_of("flipped");
  std::string path = cache.entry_path(key);
  const std::string payload(200, 'q');
  // Magic, version, size, checksum and payload: damage in any of them is caught.
  for (std::size_t at : {0u, 5u, 9u, 20u, 48u, 247u}) {
    cache.put(key, payload);
    std::string bytes = read_file(path);
    ASSERT_EQ(bytes.size(), 248u);
    bytes[at] ^= 0x01;
    write_file(path, bytes);
    EXPECT_FALSE(cache.get(key).has_value()) << "byte " << at;
    EXPECT_FALSE(exists(path)) << "byte " << at;
  }
  cache.put(key, payload);
  EXPECT_EQ(cache.get(key).value_or(""), payload);  // rebuilt
}

TEST(DiskCache, TrailingGarbageIsMiss) {
  tegula::testing::temp_dir dir;
  disk_cache cache(dir.path());
  std::string key = key_of("long");
  cache.put(key, "abc");
  write_file(cache.entry_path(key), read_file(cache.entry_path(key)) + "extra");
  EXPECT_FALSE(cache.get(key).has_value());
}

TEST(DiskCache, WorldWritableDirectoryDisablesCache) {
  tegula::testing::temp_dir dir;
  ASSERT_EQ(::chmod(dir.path().c_str(), 0777), 0);
  disk_cache cache(dir.path());
  ::testing::internal::CaptureStderr();
  std::string key = key_of("unsafe");
  cache.put(key, "payload");  // no exception
  EXPECT_FALSE(cache.get(key).has_value());
  cache.put(key, "again");
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_FALSE(cache.enabled());
  EXPECT_NE(cache.disabled_reason().find("writable"), std::string::npos) << cache.disabled_reason();
  EXPECT_FALSE(exists(dir.path() + "/v1"));
  EXPECT_TRUE(cache.list().empty());
  EXPECT_EQ(cache.clear(), 0u);
  if (!err.empty()) {  // empty only when TEGULA_LOG=0 silences warnings
    EXPECT_NE(err.find(dir.path()), std::string::npos) << err;
    EXPECT_EQ(err.find("disabled"), err.rfind("disabled")) << "warned more than once: " << err;
  }
}

TEST(DiskCache, GroupWritableDirectoryDisablesCache) {
  tegula::testing::temp_dir dir;
  ASSERT_EQ(::chmod(dir.path().c_str(), 0770), 0);
  ::testing::internal::CaptureStderr();
  disk_cache cache(dir.path());
  EXPECT_FALSE(cache.enabled());
  ::testing::internal::GetCapturedStderr();
}

TEST(DiskCache, UncreatableDirectoryDisablesCache) {
  tegula::testing::temp_dir dir;
  write_file(dir.path() + "/a_file", "x");
  ::testing::internal::CaptureStderr();
  disk_cache cache(dir.path() + "/a_file/cache");
  cache.put(key_of("k"), "v");
  EXPECT_FALSE(cache.get(key_of("k")).has_value());
  ::testing::internal::GetCapturedStderr();
  EXPECT_FALSE(cache.enabled());
  EXPECT_FALSE(cache.disabled_reason().empty());
}

TEST(DiskCache, WriteFailureWarnsOnceAndDoesNotThrow) {
  tegula::testing::temp_dir dir;
  disk_cache cache(dir.path());
  ASSERT_TRUE(cache.enabled());
  // A plain file where a shard directory belongs makes every write there fail, even as root.
  std::string a = key_of("a"), b = key_of("b");
  for (const std::string& k : {a, b}) write_file(dir.path() + "/v1/" + k.substr(0, 2), "x");
  ::testing::internal::CaptureStderr();
  EXPECT_NO_THROW(cache.put(a, "a"));
  EXPECT_NO_THROW(cache.put(b, "b"));
  std::string err = ::testing::internal::GetCapturedStderr();
  EXPECT_FALSE(cache.get(a).has_value());
  EXPECT_TRUE(cache.enabled());  // a write failure does not disable reads
  if (!err.empty()) EXPECT_EQ(err.find("could not write"), err.rfind("could not write")) << err;
  if (!err.empty()) EXPECT_NE(err.find(dir.path()), std::string::npos) << err;
}

TEST(DiskCache, BadKeyThrows) {
  tegula::testing::temp_dir dir;
  disk_cache cache(dir.path());
  EXPECT_THROW(cache.get("../../etc/passwd"), error);
  EXPECT_THROW(cache.put(std::string(64, 'G'), "x"), error);
}

TEST(DiskCache, ListTotalSizeClear) {
  tegula::testing::temp_dir dir;
  disk_cache cache(dir.path());
  EXPECT_TRUE(cache.list().empty());
  EXPECT_EQ(cache.total_size(), 0u);
  std::vector<std::string> keys = {key_of("a"), key_of("b"), key_of("c")};
  for (std::size_t i = 0; i < keys.size(); ++i) cache.put(keys[i], std::string(10 * (i + 1), 'z'));
  write_file(dir.path() + "/v1/" + keys[0].substr(0, 2) + "/not-an-entry.txt", "x");
  std::vector<cache_entry> entries = cache.list();
  ASSERT_EQ(entries.size(), 3u);
  std::sort(keys.begin(), keys.end());
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    EXPECT_EQ(entries[i].key, keys[i]);
    EXPECT_GT(entries[i].size, 48u);
    EXPECT_GT(entries[i].mtime, 1.6e9);
    total += entries[i].size;
  }
  EXPECT_EQ(total, 48u * 3 + 10 + 20 + 30);
  EXPECT_EQ(cache.total_size(), total);
  EXPECT_EQ(cache.clear(), 3u);
  EXPECT_TRUE(cache.list().empty());
  EXPECT_EQ(cache.total_size(), 0u);
  EXPECT_FALSE(cache.get(keys[0]).has_value());
  EXPECT_EQ(cache.clear(), 0u);
}

}  // namespace
}  // namespace tegula::jit
