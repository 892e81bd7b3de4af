// Tests of jit/disk_cache: round trips, damage detection, the safety check, list and clear, metadata, LRU prune,
// the automatic limit, and entries carried from one cache to another (a bundle's round trip).
#include "tegula/jit/disk_cache.hpp"

#include <gtest/gtest.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <ctime>
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

const entry_meta meta{component::tile, "softmax", "sm_90"};
const std::size_t head = encode_head(meta, "").size();

TEST(DiskCache, RoundTrip) {
  tegula::testing::temp_dir dir;
  disk_cache cache(dir.path());
  std::string key = key_of("one");
  EXPECT_FALSE(cache.get(key).has_value());
  std::string payload("binary\0payload\xff", 15);
  cache.put(key, payload, meta);
  ASSERT_TRUE(cache.enabled()) << cache.disabled_reason();
  std::optional<std::string> got = cache.get(key);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ(*got, payload);
  EXPECT_EQ(cache.entry_path(key),
            dir.path() + "/v1/" + key.substr(0, 2) + "/" + key + ".bin");
  EXPECT_EQ(read_file(cache.entry_path(key)).substr(0, 4), "TGLC");
  cache.put(key, "replaced", meta);
  EXPECT_EQ(cache.get(key).value_or(""), "replaced");
  cache.put(key, "", meta);
  EXPECT_EQ(cache.get(key).value_or("missing"), "");
}

TEST(DiskCache, CreatesMissingDirectoriesPrivate) {
  tegula::testing::temp_dir dir;
  std::string nested = dir.path() + "/a/b/cache";
  disk_cache cache(nested);
  cache.put(key_of("x"), "x", meta);
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
  cache.put(key, std::string(1000, 'p'), meta);
  std::string path = cache.entry_path(key);
  for (off_t size : {off_t(head + 999), off_t(head), off_t(20), off_t(0)}) {
    cache.put(key, std::string(1000, 'p'), meta);
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
  // Magic, version, meta size, payload size, checksum, meta and payload: damage in any of them is caught.
  for (std::size_t at : {std::size_t(0), std::size_t(5), std::size_t(9), std::size_t(13), std::size_t(20),
                         head - 3, head, head + 199}) {
    cache.put(key, payload, meta);
    std::string bytes = read_file(path);
    ASSERT_EQ(bytes.size(), head + 200);
    bytes[at] ^= 0x01;
    write_file(path, bytes);
    EXPECT_FALSE(cache.get(key).has_value()) << "byte " << at;
    EXPECT_FALSE(exists(path)) << "byte " << at;
  }
  cache.put(key, payload, meta);
  EXPECT_EQ(cache.get(key).value_or(""), payload);  // rebuilt
}

TEST(DiskCache, TrailingGarbageIsMiss) {
  tegula::testing::temp_dir dir;
  disk_cache cache(dir.path());
  std::string key = key_of("long");
  cache.put(key, "abc", meta);
  write_file(cache.entry_path(key), read_file(cache.entry_path(key)) + "extra");
  EXPECT_FALSE(cache.get(key).has_value());
}

TEST(DiskCache, WorldWritableDirectoryDisablesCache) {
  tegula::testing::temp_dir dir;
  ASSERT_EQ(::chmod(dir.path().c_str(), 0777), 0);
  disk_cache cache(dir.path());
  ::testing::internal::CaptureStderr();
  std::string key = key_of("unsafe");
  cache.put(key, "payload", meta);  // no exception
  EXPECT_FALSE(cache.get(key).has_value());
  cache.put(key, "again", meta);
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
  cache.put(key_of("k"), "v", meta);
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
  EXPECT_NO_THROW(cache.put(a, "a", meta));
  EXPECT_NO_THROW(cache.put(b, "b", meta));
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
  EXPECT_THROW(cache.put(std::string(64, 'G'), "x", meta), error);
}

TEST(DiskCache, ListTotalSizeClear) {
  tegula::testing::temp_dir dir;
  disk_cache cache(dir.path());
  EXPECT_TRUE(cache.list().empty());
  EXPECT_EQ(cache.total_size(), 0u);
  std::vector<std::string> keys = {key_of("a"), key_of("b"), key_of("c")};
  for (std::size_t i = 0; i < keys.size(); ++i) cache.put(keys[i], std::string(10 * (i + 1), 'z'), meta);
  write_file(dir.path() + "/v1/" + keys[0].substr(0, 2) + "/not-an-entry.txt", "x");
  std::vector<cache_entry> entries = cache.list();
  ASSERT_EQ(entries.size(), 3u);
  std::sort(keys.begin(), keys.end());
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < entries.size(); ++i) {
    EXPECT_EQ(entries[i].key, keys[i]);
    EXPECT_GT(entries[i].size, head);
    EXPECT_GT(entries[i].last_used, 1.6e9);
    EXPECT_EQ(entries[i].meta.made_by, component::tile);
    EXPECT_EQ(entries[i].meta.name, "softmax");
    total += entries[i].size;
  }
  EXPECT_EQ(total, head * 3 + 10 + 20 + 30);
  EXPECT_EQ(cache.total_size(), total);
  EXPECT_EQ(cache.clear(), 3u);
  EXPECT_TRUE(cache.list().empty());
  EXPECT_EQ(cache.total_size(), 0u);
  EXPECT_FALSE(cache.get(keys[0]).has_value());
  EXPECT_EQ(cache.clear(), 0u);
}

// Sets the entry's last use (its mtime) to `seconds_ago` before now.
void age(const disk_cache& cache, const std::string& key, int seconds_ago) {
  struct timespec t[2];
  ::clock_gettime(CLOCK_REALTIME, &t[0]);
  t[0].tv_sec -= seconds_ago;
  t[1] = t[0];
  ASSERT_EQ(::utimensat(AT_FDCWD, cache.entry_path(key).c_str(), t, 0), 0);
}

double last_used(disk_cache& cache, const std::string& key) {
  for (const auto& e : cache.list())
    if (e.key == key) return e.last_used;
  return -1;
}

std::vector<std::string> keys_in(disk_cache& cache) {
  std::vector<std::string> keys;
  for (const auto& e : cache.list()) keys.push_back(e.key);
  return keys;
}

// An entry as tegula wrote them before entries recorded their maker (format 1).
std::string format1_entry(const std::string& payload) {
  std::string bytes("TGLC\x01\0\0\0", 8);
  for (int i = 0; i < 8; ++i) bytes.push_back(char((payload.size() >> (8 * i)) & 0xff));
  sha256::digest_t d = sha256().update(payload).digest();
  bytes.append(reinterpret_cast<const char*>(d.data()), d.size());
  return bytes + payload;
}

TEST(DiskCache, MetadataIsListedAndFilters) {
  tegula::testing::temp_dir dir;
  disk_cache cache(dir.path());
  std::string p = key_of("p"), t = key_of("t"), a = key_of("a");
  cache.put(p, "program code", {component::program, "axpy", "sm_90"});
  cache.put(t, "tile code", {component::tile, "softmax", "sm_90a"});
  cache.put(a, "array code", {component::array, "tegula_array_k3", "compute_80"});
  std::vector<cache_entry> tiles = cache.list(component::tile);
  ASSERT_EQ(tiles.size(), 1u);
  EXPECT_EQ(tiles[0].key, t);
  EXPECT_EQ(tiles[0].meta.name, "softmax");
  EXPECT_EQ(tiles[0].meta.arch, "sm_90a");
  EXPECT_EQ(cache.list(component::cub).size(), 0u);
  EXPECT_EQ(cache.get(a).value_or(""), "array code");  // the metadata is not part of the payload
  EXPECT_EQ(cache.clear(component::program), 1u);
  EXPECT_FALSE(cache.get(p).has_value());
  EXPECT_EQ(keys_in(cache).size(), 2u);
  EXPECT_EQ(cache.clear(component::unknown), 0u);
  EXPECT_EQ(cache.clear(), 2u);
}

TEST(DiskCache, Format1EntriesStillLoadAsUnknown) {
  tegula::testing::temp_dir dir;
  disk_cache cache(dir.path());
  ASSERT_TRUE(cache.enabled());
  std::string key = key_of("old");
  ::mkdir((dir.path() + "/v1/" + key.substr(0, 2)).c_str(), 0700);
  write_file(cache.entry_path(key), format1_entry("old payload"));
  EXPECT_EQ(cache.get(key).value_or(""), "old payload");
  std::vector<cache_entry> unknown = cache.list(component::unknown);
  ASSERT_EQ(unknown.size(), 1u);
  EXPECT_EQ(unknown[0].meta.name, "");
  EXPECT_EQ(cache.read_entry(key).value_or(""), format1_entry("old payload"));
  EXPECT_EQ(cache.clear(component::tile), 0u);
  EXPECT_EQ(cache.clear(component::unknown), 1u);
}

TEST(DiskCache, HitRefreshesLastUseOncePerProcess) {
  tegula::testing::temp_dir dir;
  disk_cache cache(dir.path());
  std::string key = key_of("used");
  cache.put(key, "x", meta);
  age(cache, key, 3600);
  const double old = last_used(cache, key);
  ASSERT_TRUE(cache.get(key).has_value());
  const double now = last_used(cache, key);
  EXPECT_GT(now, old + 3000);
  age(cache, key, 3600);
  ASSERT_TRUE(cache.get(key).has_value());  // the second hit in this process writes nothing
  EXPECT_LT(last_used(cache, key), now - 3000);
  disk_cache another_process(dir.path());
  ASSERT_TRUE(another_process.get(key).has_value());
  EXPECT_GT(last_used(cache, key), now - 10);
}

TEST(DiskCache, PruneRemovesLeastRecentlyUsedFirst) {
  tegula::testing::temp_dir dir;
  disk_cache cache(dir.path());
  std::vector<std::string> keys = {key_of("0"), key_of("1"), key_of("2"), key_of("3")};
  for (std::size_t i = 0; i < keys.size(); ++i) {
    cache.put(keys[i], std::string(100, 'x'), meta);
    age(cache, keys[i], int(400 - 100 * i));  // keys[0] oldest ... keys[3] newest
  }
  ASSERT_TRUE(cache.get(keys[0]).has_value());  // now the most recently used
  const std::uint64_t one = head + 100;
  EXPECT_EQ(cache.total_size(), 4 * one);
  prune_result r = cache.prune(4 * one);  // fits: nothing to do
  EXPECT_EQ(r.removed, 0u);
  EXPECT_EQ(r.remaining, 4 * one);
  r = cache.prune(2 * one + 10);
  EXPECT_EQ(r.removed, 2u);
  EXPECT_EQ(r.freed, 2 * one);
  EXPECT_EQ(r.remaining, 2 * one);
  std::vector<std::string> left = {keys[0], keys[3]};
  std::sort(left.begin(), left.end());
  EXPECT_EQ(keys_in(cache), left);
  r = cache.prune(0);
  EXPECT_EQ(r.removed, 2u);
  EXPECT_EQ(r.remaining, 0u);
  EXPECT_TRUE(cache.list().empty());
}

TEST(DiskCache, PruneRemovesStaleTempFilesOnly) {
  tegula::testing::temp_dir dir;
  disk_cache cache(dir.path());
  std::string key = key_of("t");
  cache.put(key, "x", meta);
  std::string shard = dir.path() + "/v1/" + key.substr(0, 2);
  write_file(shard + "/.tmp-dead-writer", "partial");
  write_file(shard + "/.tmp-live-writer", "partial");
  struct timespec t[2] = {{std::time(nullptr) - 3600, 0}, {std::time(nullptr) - 3600, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, (shard + "/.tmp-dead-writer").c_str(), t, 0), 0);
  cache.prune(1 << 20);
  EXPECT_FALSE(exists(shard + "/.tmp-dead-writer"));
  EXPECT_TRUE(exists(shard + "/.tmp-live-writer"));  // may still be renamed into place
  EXPECT_TRUE(exists(cache.entry_path(key)));
}

TEST(DiskCache, LimitIsKeptAfterWrites) {
  tegula::testing::temp_dir dir;
  const std::uint64_t one = head + 1000;
  disk_cache cache(dir.path(), 5 * one);
  EXPECT_EQ(cache.max_bytes(), 5 * one);
  std::vector<std::string> keys;
  for (int i = 0; i < 12; ++i) {
    keys.push_back(key_of("limit" + std::to_string(i)));
    cache.put(keys.back(), std::string(1000, 'z'), meta);
    age(cache, keys.back(), 1000 - i);  // written in order, each later than the one before
    EXPECT_LE(cache.total_size(), 5 * one) << "after write " << i;
    EXPECT_TRUE(cache.get(keys.back()).has_value()) << "the entry just written is kept";
  }
  // Pruned to 90% of the limit when it was passed: the newest four remain.
  std::vector<std::string> left(keys.end() - 4, keys.end());
  std::vector<std::string> now = keys_in(cache);
  for (const auto& k : left) EXPECT_NE(std::find(now.begin(), now.end(), k), now.end());
  // An entry larger than the whole limit is still written (and kept until the next write).
  std::string big = key_of("big");
  cache.put(big, std::string(6 * one, 'b'), meta);
  EXPECT_EQ(keys_in(cache), std::vector<std::string>{big});
  // Other processes' entries, seen by a process's first write, count too.
  disk_cache unlimited(dir.path());
  for (int i = 0; i < 3; ++i) unlimited.put(key_of("other" + std::to_string(i)), std::string(6 * one, 'o'), meta);
  disk_cache fresh(dir.path(), 5 * one);
  fresh.put(key_of("fresh"), "f", meta);
  EXPECT_LE(fresh.total_size(), 5 * one);
}

TEST(DiskCache, EntriesCarriedToAnotherCacheKeepTheirMetadata) {
  tegula::testing::temp_dir from_dir, to_dir;
  disk_cache from(from_dir.path()), to(to_dir.path());
  std::string key = key_of("carried");
  from.put(key, std::string("cubin\0bytes", 11), {component::cub, "cub: radix sort", "sm_90"});
  std::optional<std::string> file = from.read_entry(key);
  ASSERT_TRUE(file.has_value());
  EXPECT_EQ(*file, read_file(from.entry_path(key)));
  EXPECT_TRUE(to.install(key, *file));
  EXPECT_EQ(to.get(key).value_or(""), std::string("cubin\0bytes", 11));
  std::vector<cache_entry> listed = to.list();
  ASSERT_EQ(listed.size(), 1u);
  EXPECT_EQ(listed[0].meta.made_by, component::cub);
  EXPECT_EQ(listed[0].meta.name, "cub: radix sort");
  EXPECT_EQ(read_file(to.entry_path(key)), *file);
  // A damaged file is refused and nothing is written.
  std::string damaged = *file;
  damaged.back() ^= 1;
  std::string other = key_of("other");
  EXPECT_FALSE(to.install(other, damaged));
  EXPECT_FALSE(to.install(other, damaged.substr(0, 20)));
  EXPECT_FALSE(exists(to.entry_path(other)));
  EXPECT_THROW(to.install("../escape", *file), error);
  // read_entry gives nothing for a missing or damaged entry.
  EXPECT_FALSE(from.read_entry(other).has_value());
  write_file(from.entry_path(key), damaged);
  EXPECT_FALSE(from.read_entry(key).has_value());
}

TEST(DiskCache, InstallIntoADisabledCacheThrows) {
  tegula::testing::temp_dir dir, good_dir;
  disk_cache good(good_dir.path());
  std::string key = key_of("x");
  good.put(key, "x", meta);
  ASSERT_EQ(::chmod(dir.path().c_str(), 0777), 0);
  ::testing::internal::CaptureStderr();
  disk_cache cache(dir.path());
  try {
    cache.install(key, good.read_entry(key).value());
    ADD_FAILURE() << "no error";
  } catch (const error& e) {
    EXPECT_EQ(e.kind(), error_kind::cache);
    EXPECT_NE(std::string(e.what()).find("disabled"), std::string::npos) << e.what();
  }
  ::testing::internal::GetCapturedStderr();
}

}  // namespace
}  // namespace tegula::jit
