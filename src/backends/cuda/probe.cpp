#include "backends/cuda/probe.hpp"

#include <dlfcn.h>

namespace bfly::detail::cuda {

std::string driver_absent_reason() {
  void* handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!handle) return "no NVIDIA driver (libcuda.so.1 not found)";
  dlclose(handle);
  return "";
}

}  // namespace bfly::detail::cuda
