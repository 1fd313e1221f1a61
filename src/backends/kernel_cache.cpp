#include "backends/kernel_cache.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <atomic>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <random>

#include "bfly/bfly.hpp"
#include "io/temporary_file.hpp"

namespace bfly::detail {
namespace fs = std::filesystem;

namespace {

std::uint64_t fnv1a(const unsigned char* data, std::size_t size) {
  std::uint64_t h = 1469598103934665603ull;
  for (std::size_t i = 0; i < size; ++i) {
    h ^= data[i];
    h *= 1099511628211ull;
  }
  return h;
}

std::uint64_t fnv1a(const std::string& text) {
  return fnv1a(reinterpret_cast<const unsigned char*>(text.data()), text.size());
}

std::string hex(std::uint64_t v) {
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(v));
  return buffer;
}

std::string device_hash(const std::string& device_identity) { return hex(fnv1a(device_identity + "\n" + version())); }

// An entry's check: FNV-1a over 8-byte words, then the tail's bytes. Eight
// times fewer steps than bytewise: a host table of 24 MB checks in a few
// milliseconds (a plan's warm start is what the cache is for).
std::uint64_t content_hash(const unsigned char* data, std::size_t size) {
  std::uint64_t h = 1469598103934665603ull;
  std::size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    std::uint64_t word;
    std::memcpy(&word, data + i, 8);
    h = (h ^ word) * 1099511628211ull;
  }
  for (; i < size; ++i) h = (h ^ data[i]) * 1099511628211ull;
  return h;
}

// An entry: magic, the binary's size and hash (little-endian 64-bit), the
// binary. (KC01 entries, checked bytewise, fail the check and are rebuilt.)
constexpr char kMagic[8] = {'B', 'F', 'L', 'Y', 'K', 'C', '0', '2'};
constexpr std::size_t kHeader = 24;

void put64(std::vector<unsigned char>& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<unsigned char>(v >> (8 * i)));
}
std::uint64_t get64(const unsigned char* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

// A cache that cannot be written (a read-only or full disk, a path that is
// not a directory) is not an error: the process goes on without storing,
// after one warning on stderr. Process-wide, as every device and table
// cache shares the directory.
std::atomic<bool> stores_off{false};
std::atomic<bool> warned{false};

void warn_once(const std::string& directory, const std::string& why) {
  stores_off = true;
  if (warned.exchange(true)) return;
  std::cerr << "bfly: warning: kernel cache '" + directory + "' cannot be written (" + why +
                   "): going on without caching (BFLY_CACHE_DIR chooses another directory, BFLY_CACHE_DIR=off "
                   "silences this)\n"
            << std::flush;
}

// A cap that cannot be read is a setting, not a failure: the cache keeps to
// the default, and says so once (`bfly cache info`, which shows the cap,
// fails on it instead). Checked on every load and store, so a run whose
// kernels are all cached hears of it too.
constexpr std::uintmax_t kDefaultCap = std::uintmax_t{1} << 30;
std::atomic<bool> cap_warned{false};

std::uintmax_t cap_in_use() {
  try {
    return KernelCache::cap_bytes();
  } catch (const Error& e) {
    if (!cap_warned.exchange(true))
      std::cerr << std::string("bfly: warning: ") + e.what() + ": the kernel cache keeps to the default cap, 1 GiB\n"
                << std::flush;
    return kDefaultCap;
  }
}

// `size` bytes to `path` through a temporary name in the same directory;
// the reason it failed, or empty.
std::string write_atomically(const std::string& path, const unsigned char* data, std::size_t size) {
  std::random_device random;
  const std::string temp = path + ".tmp." + std::to_string(getpid()) + "." + std::to_string(random());
  io::TemporaryFile guard(temp);  // removed should the process be interrupted while writing
  std::FILE* out = std::fopen(temp.c_str(), "wb");
  if (!out) return std::strerror(errno);
  errno = 0;
  const bool written = std::fwrite(data, 1, size, out) == size;
  int error = errno;
  if (std::fclose(out) != 0 && written) error = errno;
  if (!written || error != 0) {
    std::remove(temp.c_str());
    return std::strerror(error != 0 ? error : EIO);
  }
  if (std::rename(temp.c_str(), path.c_str()) == 0) return "";
  error = errno;
  std::remove(temp.c_str());
  return std::strerror(error);
}

bool is_temporary(const fs::path& p) { return p.filename().string().find(".tmp.") != std::string::npos; }

struct Entry {
  fs::path path;
  std::uintmax_t bytes = 0;
  fs::file_time_type used;
};

// The entries (*.bin) directly in `directory`.
std::vector<Entry> entries_in(const std::string& directory) {
  std::vector<Entry> entries;
  std::error_code ec;
  for (fs::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
    const fs::path& p = it->path();
    if (p.extension() != ".bin" || is_temporary(p) || !it->is_regular_file(ec)) continue;
    Entry e{p, it->file_size(ec), it->last_write_time(ec)};
    if (!ec) entries.push_back(e);
    ec.clear();
  }
  return entries;
}

}  // namespace

KernelCache::KernelCache() {
  const char* env = std::getenv("BFLY_CACHE_DIR");
  if (env && std::string(env) == "off") return;
  if (env && *env)
    directory_ = env;
  else if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    directory_ = std::string(xdg) + "/bfly";
  else if (const char* home = std::getenv("HOME"); home && *home)
    directory_ = std::string(home) + "/.cache/bfly";
  if (directory_.empty()) return;
  std::error_code ec;
  fs::create_directories(kernels() + "/devices", ec);
  if (ec) {
    warn_once(directory_, ec.message());
    directory_.clear();
  }
}

void KernelCache::reset_warning() {
  stores_off = false;
  warned = false;
  cap_warned = false;
}

std::string KernelCache::key(const std::string& kernel_name, const std::string& source,
                             const std::string& device_identity) {
  return kernel_name + "-" + device_hash(device_identity) + "-" + hex(fnv1a(source));
}

std::uintmax_t KernelCache::cap_bytes() {
  const char* text = std::getenv("BFLY_CACHE_MAX_BYTES");
  if (!text || !*text) return kDefaultCap;
  char* end = nullptr;
  errno = 0;
  const unsigned long long value = std::strtoull(text, &end, 10);
  const bool out_of_range = errno == ERANGE;
  std::uintmax_t scale = 1;
  if (*end == 'K' || *end == 'k')
    scale = 1024, ++end;
  else if (*end == 'M' || *end == 'm')
    scale = 1024 * 1024, ++end;
  else if (*end == 'G' || *end == 'g')
    scale = 1024 * 1024 * 1024, ++end;
  // Digits first: strtoull would take blanks, a sign, and wrap "-5".
  if (!(text[0] >= '0' && text[0] <= '9') || *end != '\0')
    throw Error(ErrorCode::InvalidArgument, std::string("invalid BFLY_CACHE_MAX_BYTES '") + text +
                                                "' (expected bytes, optionally with K, M or G: 512M)");
  if (out_of_range || value > std::numeric_limits<std::uintmax_t>::max() / scale)
    throw Error(ErrorCode::InvalidArgument,
                std::string("invalid BFLY_CACHE_MAX_BYTES '") + text + "' (more than 2^64 bytes)");
  return static_cast<std::uintmax_t>(value) * scale;
}

std::string KernelCache::path(const std::string& key) const { return kernels() + "/" + key + ".bin"; }

bool KernelCache::contains(const std::string& key) const {
  std::error_code ec;
  return enabled() && fs::is_regular_file(path(key), ec);
}

bool KernelCache::load_into(const std::string& key, const std::function<unsigned char*(std::size_t)>& buffer) const {
  if (!enabled()) return false;
  cap_in_use();
  const std::string file = path(key);
  std::ifstream in(file, std::ios::binary | std::ios::ate);
  if (!in) return false;
  const std::streamoff size = in.tellg();
  unsigned char header[kHeader];
  in.seekg(0);
  bool valid = size > static_cast<std::streamoff>(kHeader) && in.read(reinterpret_cast<char*>(header), kHeader) &&
               std::memcmp(header, kMagic, 8) == 0 && get64(header + 8) == static_cast<std::uint64_t>(size) - kHeader;
  if (valid) {
    const std::size_t bytes = static_cast<std::size_t>(size) - kHeader;
    unsigned char* data = buffer(bytes);
    valid = in.read(reinterpret_cast<char*>(data), static_cast<std::streamsize>(bytes)) &&
            get64(header + 16) == content_hash(data, bytes);
  }
  in.close();
  if (!valid) {
    std::remove(file.c_str());  // damaged (or another layout): rebuilt and stored again
    return false;
  }
  std::error_code ec;
  fs::last_write_time(file, fs::file_time_type::clock::now(), ec);  // used now (least-recently-used order)
  return true;
}

KernelCache::Mapping& KernelCache::Mapping::operator=(Mapping&& o) noexcept {
  if (this != &o) {
    if (address_) munmap(address_, length_);
    address_ = o.address_;
    length_ = o.length_;
    offset_ = o.offset_;
    o.address_ = nullptr;
  }
  return *this;
}

KernelCache::Mapping::~Mapping() {
  if (address_) munmap(address_, length_);
}

KernelCache::Mapping KernelCache::map(const std::string& key) const {
  if (!enabled()) return {};
  cap_in_use();
  const std::string file = path(key);
  const int fd = open(file.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  struct stat st {};
  void* address = nullptr;
  std::size_t length = 0;
  const bool examined = fstat(fd, &st) == 0;
  if (examined && st.st_size > static_cast<off_t>(kHeader)) {
    length = static_cast<std::size_t>(st.st_size);
    address = mmap(nullptr, length, PROT_READ, MAP_PRIVATE, fd, 0);
    if (address == MAP_FAILED) address = nullptr;
  }
  close(fd);
  Mapping mapping(address, length, kHeader);
  const unsigned char* header = static_cast<const unsigned char*>(address);
  const bool valid = address && std::memcmp(header, kMagic, 8) == 0 && get64(header + 8) == length - kHeader &&
                     get64(header + 16) == content_hash(mapping.data(), mapping.size());
  if (!valid) {
    if (examined) std::remove(file.c_str());  // damaged, too short (or another layout): rebuilt and stored again
    return {};
  }
  std::error_code ec;
  fs::last_write_time(file, fs::file_time_type::clock::now(), ec);  // used now (least-recently-used order)
  return mapping;
}

std::optional<std::vector<unsigned char>> KernelCache::load(const std::string& key) const {
  std::vector<unsigned char> data;
  if (!load_into(key, [&](std::size_t bytes) {
        data.resize(bytes);
        return data.data();
      }))
    return std::nullopt;
  return data;
}

void KernelCache::store(const std::string& key, const std::vector<unsigned char>& binary,
                        const std::string& device_identity) const {
  if (!enabled() || binary.empty() || stores_off) return;
  std::vector<unsigned char> entry(kMagic, kMagic + 8);
  put64(entry, binary.size());
  put64(entry, content_hash(binary.data(), binary.size()));
  entry.insert(entry.end(), binary.begin(), binary.end());
  if (const std::string why = write_atomically(path(key), entry.data(), entry.size()); !why.empty()) {
    warn_once(directory_, why);
    return;
  }
  const std::string described = kernels() + "/devices/" + device_hash(device_identity) + ".txt";
  std::error_code ec;
  if (!fs::exists(described, ec)) {
    const std::string text = device_identity + "\n" + version() + "\n";
    write_atomically(described, reinterpret_cast<const unsigned char*>(text.data()), text.size());
  }
  const std::uintmax_t cap = cap_in_use();
  std::uintmax_t total = 0;
  for (const Entry& e : entries_in(kernels())) total += e.bytes;
  if (total > cap) evict(cap / 10 * 9);
}

void KernelCache::evict(std::uintmax_t target) const {
  if (!enabled()) return;
  std::error_code ec;
  const auto stale = fs::file_time_type::clock::now() - std::chrono::hours(1);
  for (fs::directory_iterator it(kernels(), ec), end; !ec && it != end; it.increment(ec))
    if (is_temporary(it->path()) && it->last_write_time(ec) < stale) fs::remove(it->path(), ec);
  std::vector<Entry> entries = entries_in(kernels());
  std::uintmax_t total = 0;
  for (const Entry& e : entries) total += e.bytes;
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) { return a.used < b.used; });
  for (const Entry& e : entries) {
    if (total <= target) break;
    if (fs::remove(e.path, ec)) total -= e.bytes;
  }
}

CacheInfo KernelCache::info() const {
  CacheInfo info;
  info.directory = directory_;
  info.cap_bytes = cap_bytes();
  if (!enabled()) return info;
  std::map<std::string, CacheDevice> by_device;
  for (const Entry& e : entries_in(kernels())) {
    // <kernel name>-<device hash>-<source hash>
    const std::string stem = e.path.stem().string();
    const std::size_t last = stem.rfind('-');
    const std::size_t middle = last == std::string::npos || last == 0 ? std::string::npos : stem.rfind('-', last - 1);
    const std::string device = middle == std::string::npos ? "" : stem.substr(middle + 1, last - middle - 1);
    CacheDevice& d = by_device[device];
    ++d.entries;
    d.bytes += e.bytes;
    ++info.entries;
    info.bytes += e.bytes;
  }
  for (auto& [hash, d] : by_device) {
    std::ifstream in(kernels() + "/devices/" + hash + ".txt");
    if (!in || !std::getline(in, d.identity) || !std::getline(in, d.version))
      d.identity = "unknown", d.version = "unknown";
    info.devices.push_back(d);
  }
  return info;
}

std::size_t KernelCache::clear() const {
  if (!enabled()) return 0;
  std::size_t removed = 0;
  std::error_code ec;
  // This layout's entries and temporaries, and the entries older versions
  // kept directly in the directory.
  for (const std::string& directory : {kernels(), directory_})
    for (fs::directory_iterator it(directory, ec), end; !ec && it != end; it.increment(ec)) {
      const fs::path& p = it->path();
      const bool entry = p.extension() == ".bin" && !is_temporary(p);
      if ((entry || (directory == kernels() && is_temporary(p))) && fs::remove(p, ec) && entry) ++removed;
    }
  fs::remove_all(kernels() + "/devices", ec);
  fs::create_directories(kernels() + "/devices", ec);
  return removed;
}

}  // namespace bfly::detail
