#include "backends/cuda/driver_api.hpp"

#include <dlfcn.h>

#include <mutex>

#include "backends/fork_guard.hpp"
#include "bfly/bfly.hpp"

namespace bfly::detail::cuda {
namespace {

struct Loaded {
  DriverApi api{};
  bool ok = false;
  std::string why;
};

template <class F>
bool load(void* handle, F*& slot, const char* name, std::string& why) {
  slot = reinterpret_cast<F*>(dlsym(handle, name));
  if (!slot) why = std::string("libcuda.so.1 lacks ") + name;
  return slot != nullptr;
}

Loaded open_driver() {
  Loaded d;
  void* handle = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    d.why = "no NVIDIA driver (libcuda.so.1 not found)";
    return d;
  }
  DriverApi& a = d.api;
  // The _v2 names are the ones cuda.h maps the plain names to.
  const bool all =
      load(handle, a.cuInit, "cuInit", d.why) && load(handle, a.cuDriverGetVersion, "cuDriverGetVersion", d.why) &&
      load(handle, a.cuDeviceGetCount, "cuDeviceGetCount", d.why) &&
      load(handle, a.cuDeviceGet, "cuDeviceGet", d.why) && load(handle, a.cuDeviceGetName, "cuDeviceGetName", d.why) &&
      load(handle, a.cuDeviceGetAttribute, "cuDeviceGetAttribute", d.why) &&
      load(handle, a.cuDeviceTotalMem, "cuDeviceTotalMem_v2", d.why) &&
      load(handle, a.cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain", d.why) &&
      load(handle, a.cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2", d.why) &&
      load(handle, a.cuCtxSetCurrent, "cuCtxSetCurrent", d.why) &&
      load(handle, a.cuStreamCreate, "cuStreamCreate", d.why) &&
      load(handle, a.cuStreamDestroy, "cuStreamDestroy_v2", d.why) &&
      load(handle, a.cuStreamSynchronize, "cuStreamSynchronize", d.why) &&
      load(handle, a.cuEventCreate, "cuEventCreate", d.why) &&
      load(handle, a.cuEventDestroy, "cuEventDestroy_v2", d.why) &&
      load(handle, a.cuEventRecord, "cuEventRecord", d.why) &&
      load(handle, a.cuStreamWaitEvent, "cuStreamWaitEvent", d.why) &&
      load(handle, a.cuMemAlloc, "cuMemAlloc_v2", d.why) && load(handle, a.cuMemFree, "cuMemFree_v2", d.why) &&
      load(handle, a.cuMemGetInfo, "cuMemGetInfo_v2", d.why) &&
      load(handle, a.cuMemGetAddressRange, "cuMemGetAddressRange_v2", d.why) &&
      load(handle, a.cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2", d.why) &&
      load(handle, a.cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2", d.why) &&
      load(handle, a.cuModuleLoadData, "cuModuleLoadData", d.why) &&
      load(handle, a.cuModuleUnload, "cuModuleUnload", d.why) &&
      load(handle, a.cuModuleGetFunction, "cuModuleGetFunction", d.why) &&
      load(handle, a.cuFuncSetAttribute, "cuFuncSetAttribute", d.why) &&
      load(handle, a.cuLaunchKernel, "cuLaunchKernel", d.why) &&
      load(handle, a.cuGetErrorString, "cuGetErrorString", d.why) &&
      load(handle, a.cuOccupancyMaxActiveBlocksPerMultiprocessor, "cuOccupancyMaxActiveBlocksPerMultiprocessor",
           d.why) &&
      load(handle, a.cuFuncGetAttribute, "cuFuncGetAttribute", d.why);
  if (!all) return d;
  const CUresult init = a.cuInit(0);
  if (init != 0) {
    const char* text = nullptr;
    a.cuGetErrorString(init, &text);
    d.why = std::string("cuInit failed: ") + (text ? text : std::to_string(init));
    return d;
  }
  d.ok = true;
  return d;  // the handle stays open for the life of the process
}

}  // namespace

const DriverApi* driver(std::string* why) {
  static const Loaded loaded = open_driver();
  if (!loaded.ok) {
    if (why) *why = loaded.why;
    return nullptr;
  }
  // A CUDA context does not survive fork: a child of a process that ran
  // cuInit must not call the driver.
  const std::string inherited = fork_guard::why_unusable(fork_guard::Backend::Cuda);
  if (!inherited.empty()) {
    if (why) *why = inherited;
    return nullptr;
  }
  fork_guard::note_started(fork_guard::Backend::Cuda);
  return &loaded.api;
}

void check(CUresult result, const std::string& what) {
  if (result == 0) return;
  const char* text = nullptr;
  if (const DriverApi* api = driver()) api->cuGetErrorString(result, &text);
  const ErrorCode code = result == 2 ? ErrorCode::OutOfMemory : ErrorCode::Device;  // 2: CUDA_ERROR_OUT_OF_MEMORY
  throw Error(code, what + ": CUDA error " + std::to_string(result) + (text ? std::string(" (") + text + ")" : ""));
}

}  // namespace bfly::detail::cuda
