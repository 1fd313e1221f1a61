// The CUDA driver API, loaded at run time with dlopen so one bfly binary
// runs with or without an NVIDIA driver. Declares the few types and entry
// points bfly uses itself: no CUDA header is needed to build.
#pragma once

#include <cstddef>
#include <string>

namespace bfly::detail::cuda {

using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st*;
using CUmodule = struct CUmod_st*;
using CUfunction = struct CUfunc_st*;
using CUstream = struct CUstream_st*;
using CUevent = struct CUevent_st*;

// Attribute numbers from cuda.h (stable across driver versions).
enum : int {
  kAttrMaxThreadsPerBlock = 1,
  kAttrMaxSharedPerBlock = 8,
  kAttrMultiprocessors = 16,
  kAttrL2Bytes = 38,
  kAttrComputeMajor = 75,
  kAttrComputeMinor = 76,
  kAttrMaxSharedPerBlockOptin = 97,
  kFuncAttrMaxDynamicShared = 8,
  kFuncAttrLocalBytes = 3,  // local memory a thread (spills, stack)
};

struct DriverApi {
  CUresult (*cuInit)(unsigned);
  CUresult (*cuDriverGetVersion)(int*);
  CUresult (*cuDeviceGetCount)(int*);
  CUresult (*cuDeviceGet)(CUdevice*, int);
  CUresult (*cuDeviceGetName)(char*, int, CUdevice);
  CUresult (*cuDeviceGetAttribute)(int*, int, CUdevice);
  CUresult (*cuDeviceTotalMem)(std::size_t*, CUdevice);
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext*, CUdevice);
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice);
  CUresult (*cuCtxSetCurrent)(CUcontext);
  CUresult (*cuStreamCreate)(CUstream*, unsigned);
  CUresult (*cuStreamDestroy)(CUstream);
  CUresult (*cuStreamSynchronize)(CUstream);
  // Events: the distributed layer's pipeline orders a communication stream
  // after the compute stream's chunks (distributed/pipeline.cpp).
  CUresult (*cuEventCreate)(CUevent*, unsigned);
  CUresult (*cuEventDestroy)(CUevent);
  CUresult (*cuEventRecord)(CUevent, CUstream);
  CUresult (*cuStreamWaitEvent)(CUstream, CUevent, unsigned);
  CUresult (*cuMemAlloc)(CUdeviceptr*, std::size_t);
  CUresult (*cuMemFree)(CUdeviceptr);
  CUresult (*cuMemGetInfo)(std::size_t*, std::size_t*);
  CUresult (*cuMemGetAddressRange)(CUdeviceptr*, std::size_t*, CUdeviceptr);
  CUresult (*cuMemcpyHtoDAsync)(CUdeviceptr, const void*, std::size_t, CUstream);
  CUresult (*cuMemcpyDtoHAsync)(void*, CUdeviceptr, std::size_t, CUstream);
  CUresult (*cuModuleLoadData)(CUmodule*, const void*);
  CUresult (*cuModuleUnload)(CUmodule);
  CUresult (*cuModuleGetFunction)(CUfunction*, CUmodule, const char*);
  CUresult (*cuFuncSetAttribute)(CUfunction, int, int);
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, CUstream,
                             void**, void**);
  CUresult (*cuGetErrorString)(CUresult, const char**);
  CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(int*, CUfunction, int, std::size_t);
  CUresult (*cuFuncGetAttribute)(int*, int, CUfunction);
  // Optional (drivers before CUDA 12 lack it): nullptr where absent.
};

// The loaded driver, or nullptr with *why set (no driver, cuInit failed).
const DriverApi* driver(std::string* why = nullptr);

// Throws Error(Device, or OutOfMemory for CUDA_ERROR_OUT_OF_MEMORY) naming
// `what` and the driver's message when `result` is not CUDA_SUCCESS.
void check(CUresult result, const std::string& what);

}  // namespace bfly::detail::cuda
