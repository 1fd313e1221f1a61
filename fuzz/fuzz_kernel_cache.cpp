// libFuzzer target: the kernel cache's readers (KernelCache::load,
// load_into, map, info, cap_bytes) over a scratch cache directory
// (BFLY_CACHE_DIR). The first byte chooses what the rest is:
//   0: an entry file as it is;
//   1: the payload of a well-formed entry (header written here);
//   2: a well-formed entry, then damaged: bytes 1-2 a position, byte 3 a bit
//      to flip there or, when it is 0, the length to cut the file to;
//   3: a device description (devices/<hash>.txt) for an entry of that device;
//   4: a value of BFLY_CACHE_MAX_BYTES.
// Properties: only bfly::Error escapes; a well-formed entry (checked here
// against the format, independently of the reader) comes back exactly from
// each reader and stays; any other is refused and deleted; info() counts the
// entry and names the device as the description's first line, or "unknown";
// the cap is the value times its suffix, never wrapped.
#include <sys/stat.h>

#include <cstdlib>
#include <cstring>
#include <vector>

#include "backends/kernel_cache.hpp"
#include "bfly/bfly.hpp"
#include "fuzz_util.hpp"

namespace {

using Bytes = std::vector<unsigned char>;
using bfly::detail::KernelCache;
namespace fs = std::filesystem;

// The entry format as kernel_cache.cpp documents it: "BFLYKC02", the
// payload's size and its hash (FNV-1a over little-endian 8-byte words, then
// the tail's bytes), little-endian 64-bit, then the payload.
std::uint64_t content_hash(const unsigned char* data, std::size_t size) {
  std::uint64_t h = 1469598103934665603ull;
  std::size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    std::uint64_t word = 0;
    for (int b = 7; b >= 0; --b) word = (word << 8) | data[i + b];
    h = (h ^ word) * 1099511628211ull;
  }
  for (; i < size; ++i) h = (h ^ data[i]) * 1099511628211ull;
  return h;
}

std::uint64_t get64(const unsigned char* p) {
  std::uint64_t v = 0;
  for (int i = 7; i >= 0; --i) v = (v << 8) | p[i];
  return v;
}

void put64(Bytes& out, std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out.push_back(static_cast<unsigned char>(v >> (8 * i)));
}

Bytes make_entry(const unsigned char* payload, std::size_t size) {
  Bytes entry = {'B', 'F', 'L', 'Y', 'K', 'C', '0', '2'};
  put64(entry, size);
  put64(entry, content_hash(payload, size));
  entry.insert(entry.end(), payload, payload + size);
  return entry;
}

bool well_formed(const Bytes& file) {
  return file.size() > 24 && std::memcmp(file.data(), "BFLYKC02", 8) == 0 &&
         get64(file.data() + 8) == file.size() - 24 &&
         get64(file.data() + 16) == content_hash(file.data() + 24, file.size() - 24);
}

const std::string& cache_directory() {
  static const std::string directory = [] {
    const std::string d = bfly::fuzz::scratch_directory() + "/cache";
    setenv("BFLY_CACHE_DIR", d.c_str(), 1);
    return d;
  }();
  return directory;
}

std::string entry_path(const std::string& key) { return cache_directory() + "/kernels/" + key + ".bin"; }

bool exists(const std::string& path) {
  struct stat st {};
  return stat(path.c_str(), &st) == 0;
}

void put_entry(const std::string& key, const Bytes& file) {
  const std::string path = entry_path(key);
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f || std::fwrite(file.data(), 1, file.size(), f) != file.size() || std::fclose(f) != 0)
    bfly::fuzz::fail("cannot write " + path);
}

// Each reader on the entry file `file`, written afresh before each.
void check_readers(const Bytes& file) {
  const KernelCache cache;
  if (!cache.enabled()) bfly::fuzz::fail("the scratch cache is off");
  const std::string key = "fuzz-0123456789abcdef-fedcba9876543210", path = entry_path(key);
  const bool valid = well_formed(file);
  const Bytes payload = valid ? Bytes(file.begin() + 24, file.end()) : Bytes{};
  auto check = [&](const char* reader, bool found, const Bytes& got) {
    if (found != valid)
      bfly::fuzz::fail(std::string(reader) + (valid ? " refused a well-formed entry" : " took a damaged entry"));
    if (valid && got != payload) bfly::fuzz::fail(std::string(reader) + " returned other bytes");
    if (exists(path) != valid)
      bfly::fuzz::fail(std::string(reader) + (valid ? " deleted a well-formed entry" : " left a damaged entry"));
  };

  put_entry(key, file);
  const std::optional<Bytes> loaded = cache.load(key);
  check("load", loaded.has_value(), loaded.value_or(Bytes{}));

  put_entry(key, file);
  Bytes buffer;
  const bool into = cache.load_into(key, [&](std::size_t bytes) {
    if (bytes > file.size())
      bfly::fuzz::fail("load_into asked for " + std::to_string(bytes) + " bytes from a file of " +
                       std::to_string(file.size()));
    buffer.resize(bytes);
    return buffer.data();
  });
  check("load_into", into, buffer);

  put_entry(key, file);
  const KernelCache::Mapping mapping = cache.map(key);
  check("map", static_cast<bool>(mapping), mapping ? Bytes(mapping.data(), mapping.data() + mapping.size()) : Bytes{});
  std::error_code ignored;
  fs::remove(path, ignored);
}

// The description of the device an entry names: its first two lines are
// the identity and version info() shows.
void check_description(const std::uint8_t* data, std::size_t size) {
  const KernelCache cache;
  const std::string device = "00000000deadbeef";
  const std::string entry = entry_path("kernel-" + device + "-0000000000000000");
  const Bytes payload = {1, 2, 3};
  put_entry("kernel-" + device + "-0000000000000000", make_entry(payload.data(), payload.size()));
  const std::string description = cache_directory() + "/kernels/devices/" + device + ".txt";
  bfly::fuzz::write_scratch("description.txt", data, size);
  fs::copy_file(bfly::fuzz::scratch_directory() + "/description.txt", description,
                fs::copy_options::overwrite_existing);
  const bfly::detail::CacheInfo info = cache.info();
  if (info.entries != 1 || info.devices.size() != 1 || info.devices[0].entries != 1)
    bfly::fuzz::fail("info() counted " + std::to_string(info.entries) + " entries");
  const std::string text(reinterpret_cast<const char*>(data), size);
  const std::size_t first = text.find('\n');
  const bool two_lines = first != std::string::npos;  // a second getline needs something after the first newline
  const std::string identity = two_lines && first + 1 < text.size() ? text.substr(0, first) : "unknown";
  if (info.devices[0].identity != identity)
    bfly::fuzz::fail("info() named the device '" + info.devices[0].identity + "'");
  std::error_code ignored;
  fs::remove(entry, ignored);
  fs::remove(description, ignored);
}

void check_cap(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), strnlen(reinterpret_cast<const char*>(data), size));
  setenv("BFLY_CACHE_MAX_BYTES", text.c_str(), 1);
  std::uintmax_t cap = 0;
  try {
    cap = KernelCache::cap_bytes();
  } catch (const bfly::Error&) {
    unsetenv("BFLY_CACHE_MAX_BYTES");
    return;
  }
  unsetenv("BFLY_CACHE_MAX_BYTES");
  if (text.empty()) return;
  // Digits, then at most a K, M or G.
  std::size_t digits = 0;
  unsigned __int128 value = 0;
  while (digits < text.size() && text[digits] >= '0' && text[digits] <= '9')
    value = std::min<unsigned __int128>(value * 10 + static_cast<unsigned>(text[digits++] - '0'),
                                        ~std::uint64_t{0} + static_cast<unsigned __int128>(1));
  const std::string suffix = text.substr(digits);
  const bool known = suffix.empty() || (suffix.size() == 1 && std::strchr("KkMmGg", suffix[0]) != nullptr);
  const int shift = suffix.empty() ? 0 : suffix == "K" || suffix == "k" ? 10 : suffix == "M" || suffix == "m" ? 20 : 30;
  if (digits == 0 || !known || value << shift != cap)
    bfly::fuzz::fail("BFLY_CACHE_MAX_BYTES='" + text + "' gave a cap of " + std::to_string(cap));
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  cache_directory();
  const int mode = data[0] % 5;
  const std::uint8_t* rest = data + 1;
  const std::size_t rest_size = size - 1;
  switch (mode) {
    case 0:
      check_readers(Bytes(rest, rest + rest_size));
      break;
    case 1:
      check_readers(make_entry(rest, rest_size));
      break;
    case 2: {
      if (rest_size < 3) return 0;
      Bytes file = make_entry(rest + 3, rest_size - 3);
      const std::size_t at = (static_cast<std::size_t>(rest[0]) | static_cast<std::size_t>(rest[1]) << 8) % file.size();
      if (rest[2] == 0)
        file.resize(at);
      else
        file[at] ^= rest[2];
      check_readers(file);
      break;
    }
    case 3:
      check_description(rest, rest_size);
      break;
    default:
      check_cap(rest, rest_size);
  }
  return 0;
}
