// On-disk cache of compiled kernel binaries. The key names everything that
// changes the binary: kernel name (which encodes every generator parameter),
// device, driver/compiler versions and the generator's version; a hash of
// the source guards against a generator change that forgot the version.
//
// Layout under the directory: kernels/<key>.bin, each a checked header (size
// and hash of the binary) then the binary; kernels/devices/<device hash>.txt
// names the device and bfly version a key's middle part stands for (for
// `bfly cache info`). Entries are written to a temporary name and renamed,
// so a reader never sees half a binary even with several processes filling
// the cache at once, and one that fails its check is deleted and rebuilt.
// The cache keeps under a cap (BFLY_CACHE_MAX_BYTES, default 1 GiB): a load
// marks an entry used (its time), and a store that takes the cache past the
// cap removes the least recently used entries down to 90% of it (a value
// that cannot be read: one warning, and the default). The user's tuning
// tables (tuning/) live beside it and are never removed here.
// A directory that cannot be made or written (read-only, full, not a
// directory) turns caching off for the process with one warning on stderr:
// the cache is an optimisation, never a reason to fail.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace bfly::detail {

// What `bfly cache info` shows.
struct CacheDevice {
  std::string identity;  // device, driver and compiler; "unknown" where no description was written
  std::string version;   // the bfly version that wrote the entries
  std::size_t entries = 0;
  std::uintmax_t bytes = 0;
};
struct CacheInfo {
  std::string directory;  // empty: the cache is off
  std::size_t entries = 0;
  std::uintmax_t bytes = 0;
  std::uintmax_t cap_bytes = 0;
  std::vector<CacheDevice> devices;
};

class KernelCache {
 public:
  // Directory: $BFLY_CACHE_DIR, else $XDG_CACHE_HOME/bfly, else ~/.cache/bfly.
  // BFLY_CACHE_DIR=off disables the cache.
  KernelCache();
  bool enabled() const { return !directory_.empty(); }
  const std::string& directory() const { return directory_; }

  static std::string key(const std::string& kernel_name, const std::string& source, const std::string& device_identity);
  // The size cap: $BFLY_CACHE_MAX_BYTES (bytes, or with a K, M or G
  // suffix), else 1 GiB. Throws Error(InvalidArgument) naming a bad value.
  static std::uintmax_t cap_bytes();

  std::optional<std::vector<unsigned char>> load(const std::string& key) const;
  // Whether an entry is there (not checked: a load may still refuse it).
  bool contains(const std::string& key) const;
  // The same, straight into the memory `buffer(size)` returns; false, with
  // nothing promised of that memory, where there is no valid entry.
  bool load_into(const std::string& key, const std::function<unsigned char*(std::size_t)>& buffer) const;
  // A valid entry's bytes mapped read-only from the file (no copy: for
  // large entries, read once on their way to a device); empty where there
  // is none, or the file cannot be mapped.
  class Mapping {
   public:
    Mapping() = default;
    Mapping(void* address, std::size_t length, std::size_t offset)
        : address_(address), length_(length), offset_(offset) {}
    Mapping(Mapping&& o) noexcept { *this = std::move(o); }
    Mapping& operator=(Mapping&& o) noexcept;
    ~Mapping();
    const unsigned char* data() const { return static_cast<const unsigned char*>(address_) + offset_; }
    std::size_t size() const { return address_ ? length_ - offset_ : 0; }
    explicit operator bool() const { return address_ != nullptr; }

   private:
    void* address_ = nullptr;
    std::size_t length_ = 0, offset_ = 0;
  };
  Mapping map(const std::string& key) const;
  // A failure to store warns once and stops further stores in this process.
  void store(const std::string& key, const std::vector<unsigned char>& binary,
             const std::string& device_identity) const;

  // Tests: the next failure to write warns again, and stores resume.
  static void reset_warning();

  CacheInfo info() const;
  // Removes every kernel entry (and those of older bfly versions' layout);
  // returns how many. Tuning tables stay.
  std::size_t clear() const;
  // Removes least recently used entries until the cache holds at most
  // `target` bytes, and temporary files abandoned over an hour ago.
  void evict(std::uintmax_t target) const;

 private:
  std::string kernels() const { return directory_ + "/kernels"; }
  std::string path(const std::string& key) const;
  std::string directory_;
};

}  // namespace bfly::detail
