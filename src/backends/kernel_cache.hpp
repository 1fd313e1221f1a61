// On-disk cache of compiled kernel binaries. The key names everything that
// changes the binary: kernel name (which encodes every generator parameter),
// device, driver/compiler versions and the generator's version; a hash of
// the source guards against a generator change that forgot the version.
// Files are written to a temporary name and renamed, so a reader never sees
// half a binary even with several processes building at once.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace bfly::detail {

class KernelCache {
 public:
  // Directory: $BFLY_CACHE_DIR, else $XDG_CACHE_HOME/bfly, else ~/.cache/bfly.
  // BFLY_CACHE_DIR=off disables the cache.
  KernelCache();
  bool enabled() const { return !directory_.empty(); }
  const std::string& directory() const { return directory_; }

  static std::string key(const std::string& kernel_name, const std::string& source,
                         const std::string& device_identity);
  std::optional<std::vector<unsigned char>> load(const std::string& key) const;
  // Failures to store are ignored: the cache is an optimisation.
  void store(const std::string& key, const std::vector<unsigned char>& binary) const;

 private:
  std::string path(const std::string& key) const;
  std::string directory_;
};

}  // namespace bfly::detail
