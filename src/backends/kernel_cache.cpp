#include "backends/kernel_cache.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>

#include "bfly/bfly.hpp"

namespace bfly::detail {
namespace {

std::uint64_t fnv1a(const std::string& text) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::string hex(std::uint64_t v) {
  char buffer[17];
  std::snprintf(buffer, sizeof buffer, "%016llx", static_cast<unsigned long long>(v));
  return buffer;
}

}  // namespace

KernelCache::KernelCache() {
  const char* env = std::getenv("BFLY_CACHE_DIR");
  if (env && std::string(env) == "off") return;
  if (env && *env) directory_ = env;
  else if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg) directory_ = std::string(xdg) + "/bfly";
  else if (const char* home = std::getenv("HOME"); home && *home) directory_ = std::string(home) + "/.cache/bfly";
  if (directory_.empty()) return;
  std::error_code ec;
  std::filesystem::create_directories(directory_, ec);
  if (ec) directory_.clear();
}

std::string KernelCache::key(const std::string& kernel_name, const std::string& source,
                             const std::string& device_identity) {
  return kernel_name + "-" + hex(fnv1a(device_identity + "\n" + version())) + "-" + hex(fnv1a(source));
}

std::string KernelCache::path(const std::string& key) const { return directory_ + "/" + key + ".bin"; }

std::optional<std::vector<unsigned char>> KernelCache::load(const std::string& key) const {
  if (!enabled()) return std::nullopt;
  std::ifstream in(path(key), std::ios::binary);
  if (!in) return std::nullopt;
  std::vector<unsigned char> data((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (data.empty()) return std::nullopt;
  return data;
}

void KernelCache::store(const std::string& key, const std::vector<unsigned char>& binary) const {
  if (!enabled() || binary.empty()) return;
  std::random_device random;
  const std::string temp = path(key) + ".tmp." + std::to_string(getpid()) + "." + std::to_string(random());
  {
    std::ofstream out(temp, std::ios::binary);
    out.write(reinterpret_cast<const char*>(binary.data()), static_cast<std::streamsize>(binary.size()));
    if (!out) {
      std::remove(temp.c_str());
      return;
    }
  }
  if (std::rename(temp.c_str(), path(key).c_str()) != 0) std::remove(temp.c_str());
}

}  // namespace bfly::detail
