// The on-disk kernel cache (backends/kernel_cache.*): checked entries, the
// least-recently-used cap, clear and info, two processes filling one cache
// at once, and a cache that cannot be written (one warning, then none). Each test works in a fresh directory
// (BFLY_CACHE_DIR).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "backends/kernel_cache.hpp"
#include "bfly/bfly.hpp"
#include "runtime/table_cache.hpp"

namespace {

namespace fs = std::filesystem;
using bfly::detail::KernelCache;

class KernelCacheTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/bfly-cache-test-XXXXXX";
    ASSERT_NE(mkdtemp(pattern), nullptr);
    directory_ = pattern;
    if (const char* before = std::getenv("BFLY_CACHE_DIR")) before_ = before;
    setenv("BFLY_CACHE_DIR", directory_.c_str(), 1);
    unsetenv("BFLY_CACHE_MAX_BYTES");
  }
  void TearDown() override {
    if (before_)
      setenv("BFLY_CACHE_DIR", before_->c_str(), 1);
    else
      unsetenv("BFLY_CACHE_DIR");
    unsetenv("BFLY_CACHE_MAX_BYTES");
    std::error_code ec;
    fs::remove_all(directory_, ec);
  }
  static std::vector<unsigned char> payload(const std::string& key, std::size_t bytes) {
    std::vector<unsigned char> data(bytes);
    for (std::size_t i = 0; i < bytes; ++i) data[i] = static_cast<unsigned char>(key[i % key.size()] + i);
    return data;
  }
  std::string file(const std::string& key) const { return directory_ + "/kernels/" + key + ".bin"; }
  void age(const std::string& key, int hours) const {
    fs::last_write_time(file(key), fs::file_time_type::clock::now() - std::chrono::hours(hours));
  }
  std::string directory_;
  std::optional<std::string> before_;  // the environment's cache directory, restored after
};

TEST_F(KernelCacheTest, StoresAndLoadsCheckedEntries) {
  const KernelCache cache;
  ASSERT_TRUE(cache.enabled());
  const std::string key = KernelCache::key("bfly_f32_n64", "source text", "device A");
  EXPECT_FALSE(cache.load(key).has_value());
  cache.store(key, payload(key, 1000), "device A");
  const auto loaded = cache.load(key);
  ASSERT_TRUE(loaded.has_value());
  EXPECT_EQ(*loaded, payload(key, 1000));
  // Another source or device is another entry.
  EXPECT_NE(KernelCache::key("bfly_f32_n64", "other source", "device A"), key);
  EXPECT_NE(KernelCache::key("bfly_f32_n64", "source text", "device B"), key);
}

TEST_F(KernelCacheTest, DamagedEntriesAreDroppedNotLoaded) {
  const KernelCache cache;
  const std::string key = KernelCache::key("k", "s", "d");
  cache.store(key, payload(key, 500), "d");
  fs::resize_file(file(key), fs::file_size(file(key)) - 1);  // a torn write
  EXPECT_FALSE(cache.load(key).has_value());
  EXPECT_FALSE(fs::exists(file(key)));
  cache.store(key, payload(key, 500), "d");
  {
    std::fstream f(file(key), std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(100);
    f.put('\x5a');  // a flipped byte: the hash no longer matches
  }
  EXPECT_FALSE(cache.load(key).has_value());
}

// Lines of `text` that are the cache's warning.
int warnings_in(const std::string& text) {
  int count = 0;
  for (std::size_t at = text.find("bfly: warning: kernel cache"); at != std::string::npos;
       at = text.find("bfly: warning: kernel cache", at + 1))
    ++count;
  return count;
}

// A directory that cannot be made (a file is in the way; under /proc nothing
// can be made, even by root): the cache is off, with one warning however many
// caches are opened.
TEST_F(KernelCacheTest, AnUnmakeableDirectoryTurnsCachingOffWithOneWarning) {
  for (const std::string blocked : {directory_ + "/file", std::string("/proc/bfly-cache")}) {
    if (blocked.rfind("/proc", 0) != 0) std::ofstream(blocked) << "in the way";
    setenv("BFLY_CACHE_DIR", blocked.c_str(), 1);
    KernelCache::reset_warning();
    testing::internal::CaptureStderr();
    for (int i = 0; i < 3; ++i) {
      const KernelCache cache;
      EXPECT_FALSE(cache.enabled()) << blocked;
      cache.store("k", payload("k", 100), "d");
      EXPECT_FALSE(cache.load("k").has_value());
    }
    const std::string err = testing::internal::GetCapturedStderr();
    EXPECT_EQ(warnings_in(err), 1) << err;
    EXPECT_NE(err.find(blocked), std::string::npos) << err;
  }
  KernelCache::reset_warning();
}

// A full disk, made by a file-size limit (SIGXFSZ ignored, so a write past it
// fails with EFBIG as it would with ENOSPC): the store fails cleanly, warns
// once, leaves no temporary, and later stores are skipped; what is already
// cached still loads.
TEST_F(KernelCacheTest, AFullDiskWarnsOnceAndStopsStoring) {
  KernelCache::reset_warning();
  const KernelCache cache;
  const std::string small = KernelCache::key("small", "s", "d");
  cache.store(small, payload(small, 200), "d");
  ASSERT_TRUE(cache.load(small).has_value());

  struct rlimit before {};
  ASSERT_EQ(getrlimit(RLIMIT_FSIZE, &before), 0);
  struct rlimit tight = before;
  tight.rlim_cur = 4096;
  void (*previous)(int) = signal(SIGXFSZ, SIG_IGN);
  ASSERT_EQ(setrlimit(RLIMIT_FSIZE, &tight), 0);
  testing::internal::CaptureStderr();
  const std::string big = KernelCache::key("big", "s", "d"), later = KernelCache::key("later", "s", "d");
  cache.store(big, payload(big, 100000), "d");
  cache.store(later, payload(later, 100), "d");  // would fit: skipped, caching is off now
  const std::string err = testing::internal::GetCapturedStderr();
  setrlimit(RLIMIT_FSIZE, &before);
  signal(SIGXFSZ, previous);

  EXPECT_EQ(warnings_in(err), 1) << err;
  EXPECT_NE(err.find(directory_), std::string::npos) << err;
  EXPECT_FALSE(cache.load(big).has_value());
  EXPECT_FALSE(cache.load(later).has_value());
  EXPECT_TRUE(cache.load(small).has_value());
  for (const auto& entry : fs::directory_iterator(directory_ + "/kernels"))
    EXPECT_EQ(entry.path().filename().string().find(".tmp."), std::string::npos) << entry.path();
  KernelCache::reset_warning();
}

// A read-only directory (root writes anyway, so this one is skipped there;
// the full-disk and /proc cases above cover root).
TEST_F(KernelCacheTest, AReadOnlyDirectoryWarnsOnceAndLoadsWhatItHas) {
  if (geteuid() == 0) GTEST_SKIP() << "root writes to read-only directories";
  KernelCache::reset_warning();
  const std::string key = KernelCache::key("k", "s", "d");
  KernelCache().store(key, payload(key, 300), "d");
  fs::permissions(directory_ + "/kernels", fs::perms::owner_write | fs::perms::group_write | fs::perms::others_write,
                  fs::perm_options::remove);
  testing::internal::CaptureStderr();
  const KernelCache cache;
  cache.store(KernelCache::key("k2", "s", "d"), payload(key, 300), "d");
  cache.store(KernelCache::key("k3", "s", "d"), payload(key, 300), "d");
  const std::string err = testing::internal::GetCapturedStderr();
  fs::permissions(directory_ + "/kernels", fs::perms::owner_write, fs::perm_options::add);
  EXPECT_EQ(warnings_in(err), 1) << err;
  EXPECT_TRUE(cache.load(key).has_value());
  KernelCache::reset_warning();
}

// Past the cap, the least recently used entries go (a load counts as a use)
// until the cache is at 90% of the cap; abandoned temporaries go too.
TEST_F(KernelCacheTest, CapEvictsTheLeastRecentlyUsed) {
  setenv("BFLY_CACHE_MAX_BYTES", "3500", 1);
  EXPECT_EQ(KernelCache::cap_bytes(), 3500u);
  const KernelCache cache;
  std::vector<std::string> keys;
  for (const char* name : {"a", "b", "c", "d"}) keys.push_back(KernelCache::key(name, name, "device"));
  for (int i = 0; i < 3; ++i) cache.store(keys[i], payload(keys[i], 1000), "device");  // 3 x 1024 bytes: under the cap
  age(keys[0], 3);
  age(keys[1], 2);
  age(keys[2], 1);
  ASSERT_TRUE(cache.load(keys[0]).has_value());  // a is used now; b is the least recently used
  cache.store(keys[3], payload(keys[3], 1000), "device");
  EXPECT_TRUE(fs::exists(file(keys[0])));
  EXPECT_FALSE(fs::exists(file(keys[1])));
  EXPECT_TRUE(fs::exists(file(keys[2])));
  EXPECT_TRUE(fs::exists(file(keys[3])));
  EXPECT_LE(cache.info().bytes, 3500u);

  const std::string stale = directory_ + "/kernels/x.bin.tmp.1.2", fresh = directory_ + "/kernels/y.bin.tmp.3.4";
  std::ofstream(stale) << "partial";
  std::ofstream(fresh) << "partial";
  fs::last_write_time(stale, fs::file_time_type::clock::now() - std::chrono::hours(2));
  cache.evict(1 << 30);
  EXPECT_FALSE(fs::exists(stale));
  EXPECT_TRUE(fs::exists(fresh));  // perhaps another process's write in progress

  setenv("BFLY_CACHE_MAX_BYTES", "2K", 1);
  EXPECT_EQ(KernelCache::cap_bytes(), 2048u);
  setenv("BFLY_CACHE_MAX_BYTES", "12Q", 1);
  EXPECT_THROW(KernelCache::cap_bytes(), bfly::Error);
  setenv("BFLY_CACHE_MAX_BYTES", "-5", 1);
  EXPECT_THROW(KernelCache::cap_bytes(), bfly::Error);
}

// A bad cap is a setting the cache cannot honour, not a reason to fail a run:
// one warning naming the variable, its value and the default kept to instead,
// however many loads and stores; caching goes on.
TEST_F(KernelCacheTest, ABadCapWarnsOnceAndKeepsToTheDefault) {
  KernelCache::reset_warning();
  setenv("BFLY_CACHE_MAX_BYTES", "abc", 1);
  testing::internal::CaptureStderr();
  const KernelCache cache;
  const std::string key = KernelCache::key("k", "s", "d"), other = KernelCache::key("k2", "s", "d");
  EXPECT_FALSE(cache.load(key).has_value());
  cache.store(key, payload(key, 300), "d");
  cache.store(other, payload(other, 300), "d");
  EXPECT_TRUE(cache.load(key).has_value());
  EXPECT_TRUE(cache.map(other));
  const std::string err = testing::internal::GetCapturedStderr();
  const std::string warning = "bfly: warning: invalid BFLY_CACHE_MAX_BYTES 'abc'";
  EXPECT_NE(err.find(warning), std::string::npos) << err;
  EXPECT_EQ(err.find(warning), err.rfind(warning)) << err;
  EXPECT_NE(err.find("default cap, 1 GiB"), std::string::npos) << err;
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  KernelCache::reset_warning();
}

TEST_F(KernelCacheTest, InfoGroupsByDeviceAndClearKeepsTuningTables) {
  const KernelCache cache;
  for (const char* name : {"a", "b", "c"})
    cache.store(KernelCache::key(name, name, "device A"), payload(name, 100), "device A");
  cache.store(KernelCache::key("a", "a", "device B"), payload("a", 300), "device B");
  bfly::detail::CacheInfo info = cache.info();
  EXPECT_EQ(info.directory, directory_);
  EXPECT_EQ(info.entries, 4u);
  EXPECT_EQ(info.bytes, 3 * 124u + 324u);
  EXPECT_EQ(info.cap_bytes, std::uintmax_t{1} << 30);
  ASSERT_EQ(info.devices.size(), 2u);
  std::size_t a = info.devices[0].identity == "device A" ? 0 : 1;
  EXPECT_EQ(info.devices[a].identity, "device A");
  EXPECT_EQ(info.devices[a].entries, 3u);
  EXPECT_EQ(info.devices[a].version, bfly::version());
  EXPECT_EQ(info.devices[1 - a].identity, "device B");
  EXPECT_EQ(info.devices[1 - a].bytes, 324u);

  fs::create_directories(directory_ + "/tuning");
  std::ofstream(directory_ + "/tuning/table.json") << "{}";
  std::ofstream(directory_ + "/older-layout.bin") << "an entry of an older bfly";
  EXPECT_EQ(cache.clear(), 5u);
  EXPECT_EQ(cache.info().entries, 0u);
  EXPECT_FALSE(fs::exists(directory_ + "/older-layout.bin"));
  EXPECT_TRUE(fs::exists(directory_ + "/tuning/table.json"));
  cache.store(KernelCache::key("a", "a", "device A"), payload("a", 100), "device A");  // usable after a clear
  EXPECT_EQ(cache.info().devices.at(0).identity, "device A");
}

// Two processes storing the same and different entries at once: every
// entry then loads whole, and no temporary file is left.
TEST_F(KernelCacheTest, TwoProcessesFillingOneCacheLeaveOnlyValidEntries) {
  std::vector<std::string> keys;
  for (int i = 0; i < 40; ++i) keys.push_back(KernelCache::key("kernel" + std::to_string(i), "s", "device"));
  std::vector<pid_t> children;
  for (int child = 0; child < 2; ++child) {
    const pid_t pid = fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
      const KernelCache cache;
      for (int round = 0; round < 20; ++round)
        for (std::size_t i = child; i < keys.size(); ++i)
          cache.store(keys[i], payload(keys[i], 4000 + 37 * i), "device");
      _exit(0);
    }
    children.push_back(pid);
  }
  for (pid_t pid : children) {
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  const KernelCache cache;
  for (std::size_t i = 0; i < keys.size(); ++i) {
    const auto loaded = cache.load(keys[i]);
    ASSERT_TRUE(loaded.has_value()) << keys[i];
    EXPECT_EQ(*loaded, payload(keys[i], 4000 + 37 * i)) << keys[i];
  }
  for (const auto& entry : fs::directory_iterator(directory_ + "/kernels"))
    EXPECT_EQ(entry.path().filename().string().find(".tmp."), std::string::npos) << entry.path();
}

}  // namespace

// Host tables through the cache (runtime/table_cache.hpp): computed once,
// then read back bit for bit; a damaged entry is computed again; short
// tables are not stored.
TEST_F(KernelCacheTest, HostTablesAreComputedOnceAndReadBackExactly) {
  int computed = 0;
  auto compute = [&] {
    ++computed;
    std::vector<std::complex<double>> table(bfly::detail::kCachedTableEntries + 3);
    for (std::size_t i = 0; i < table.size(); ++i) table[i] = {std::sin(0.001 * i), std::cos(0.003 * i) / 3};
    return table;
  };
  const auto first = bfly::detail::cached_table<double>("test_f64_1", "format A", compute);
  const auto second = bfly::detail::cached_table<double>("test_f64_1", "format A", compute);
  EXPECT_EQ(computed, 1);
  const auto expected = compute();
  --computed;
  ASSERT_EQ(first.size(), expected.size() * sizeof(expected[0]));
  ASSERT_EQ(second.size(), first.size());
  EXPECT_FALSE(first.mapped);  // computed
  EXPECT_TRUE(second.mapped);  // read back
  EXPECT_EQ(std::memcmp(first.data(), expected.data(), first.size()), 0);
  EXPECT_EQ(std::memcmp(second.data(), expected.data(), first.size()), 0);
  // Another layout of the same table is another entry.
  bfly::detail::cached_table<double>("test_f64_1", "format B", compute);
  EXPECT_EQ(computed, 2);
  // A damaged entry: computed again, and the same values.
  for (const auto& entry : fs::directory_iterator(directory_ + "/kernels"))
    if (entry.path().filename().string().rfind("table_test_f64_1", 0) == 0) {
      std::fstream f(entry.path(), std::ios::in | std::ios::out | std::ios::binary);
      f.seekp(1000);
      f.put('\x55');
    }
  const auto third = bfly::detail::cached_table<double>("test_f64_1", "format A", compute);
  EXPECT_EQ(computed, 3);  // (format B's entry, damaged too, is not read here)
  ASSERT_EQ(third.size(), first.size());
  EXPECT_EQ(std::memcmp(third.data(), expected.data(), first.size()), 0);
  // Short tables are not stored.
  const std::size_t before = std::distance(fs::directory_iterator(directory_ + "/kernels"), fs::directory_iterator{});
  bfly::detail::cached_table<float>("test_f32_short", "format A", [] { return std::vector<std::complex<float>>(10); });
  EXPECT_EQ(std::distance(fs::directory_iterator(directory_ + "/kernels"), fs::directory_iterator{}),
            static_cast<std::ptrdiff_t>(before));
}
