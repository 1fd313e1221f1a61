// make_cuda_peers: dlopens the CUDA peer plugin so that bfly itself never
// links libcuda/libcufft/libcudart and still starts on machines without them.
// No CUDA headers here.
#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <mutex>

#include "cuda_plugin.hpp"

namespace bfly::bench {
namespace {

bool is_file(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

bool is_dir(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::string exe_dir() {
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) return "";
  const std::string exe(buf, static_cast<size_t>(n));
  const auto slash = exe.rfind('/');
  return slash == std::string::npos ? "" : exe.substr(0, slash);
}

// Opens the plugin once per process and never closes it: the peers' vtables
// and cuFFT's state live in it. Returns nullptr with *why on failure.
void* open_plugin(std::string* why) {
  static std::mutex mutex;
  static void* handle = nullptr;
  static std::string error;
  std::lock_guard<std::mutex> lock(mutex);
  if (handle || !error.empty()) {
    *why = error;
    return handle;
  }
  // A candidate file that exists but fails to load (typically "libcuda.so.1:
  // cannot open shared object file" on a machine without the NVIDIA driver)
  // is the real reason: stop there instead of hiding it behind later misses.
  std::string looked;
  auto try_file = [&](const std::string& path, const char* label) -> bool {
    if (!is_file(path)) {
      looked += path + label + ", ";
      return false;
    }
    handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) error = std::string("cannot load ") + path + ": " + ::dlerror();
    return true;
  };
  bool tried = false;
  const std::string dir = exe_dir();
  if (!dir.empty()) tried = try_file(dir + "/" + kCudaPeersPlugin, " (beside the executable)");
  if (!tried) {
    if (const char* env = std::getenv("BFLY_CUDA_PEERS"); env && *env) {
      const std::string p = env;
      tried = try_file(is_dir(p) ? p + "/" + kCudaPeersPlugin : p, " ($BFLY_CUDA_PEERS)");
    } else {
      looked += "$BFLY_CUDA_PEERS unset, ";
    }
  }
  if (!tried) {
    handle = ::dlopen(kCudaPeersPlugin, RTLD_NOW | RTLD_LOCAL);
    if (!handle)
      error = std::string(kCudaPeersPlugin) + " not found (looked at " + looked +
              "then the loader path: " + ::dlerror() + ")";
  }
  if (handle) {
    auto abi = reinterpret_cast<CudaPeersAbiFn>(::dlsym(handle, "bfly_cuda_peers_abi"));
    if (!abi || abi() != BFLY_CUDA_PEERS_ABI) {
      error = std::string(kCudaPeersPlugin) + " is from another bfly version (ABI " +
              (abi ? std::to_string(abi()) : std::string("?")) + ", want " + std::to_string(BFLY_CUDA_PEERS_ABI) +
              "): rebuild it";
      handle = nullptr;  // left loaded: unloading libraries that started CUDA is not safe
    }
  }
  *why = error;
  return handle;
}

}  // namespace

std::vector<std::unique_ptr<Peer>> make_cuda_peers(int ordinal, std::string* why) {
  std::vector<std::unique_ptr<Peer>> peers;
  std::string reasons;
  void* handle = open_plugin(&reasons);
  if (handle) {
    auto create = reinterpret_cast<CudaPeerCreateFn>(::dlsym(handle, "bfly_cuda_peer_create"));
    if (!create) reasons = std::string(kCudaPeersPlugin) + " lacks bfly_cuda_peer_create";
    for (const char* which : {"cuFFT", "VkFFT"}) {
      if (!create) break;
      char buf[1024] = {};
      if (Peer* p = create(which, ordinal, buf, sizeof buf)) {
        peers.emplace_back(p);
      } else {
        reasons += (reasons.empty() ? "" : "; ") + std::string(which) + ": " + buf;
      }
    }
  }
  if (why) *why = reasons;
  return peers;
}

}  // namespace bfly::bench
