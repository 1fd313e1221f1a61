// The peers that run on an OpenCL device (clFFT, VkFFT's OpenCL backend).
// Separate from peer.hpp so code that never sees OpenCL (the CUDA plugin,
// builds without OpenCL) does not need CL/cl.h. Only present when CMake found
// OpenCL: then bfly_peers defines BFLY_HAVE_OPENCL_PEERS=1.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif

#include <CL/cl.h>

#include <cstdio>

#include "peer.hpp"

namespace bfly::bench {

// Borrowed handles: peers never release them, so destroy the peers before
// releasing the queue/context (their destructors clFinish and free buffers).
struct OpenCLHandles {
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_device_id device = nullptr;
};

// "" when `device` can run the case's precision, else why not: fp64 needs
// cl_khr_fp64, which a nonzero CL_DEVICE_DOUBLE_FP_CONFIG reports (many
// mobile and some consumer GPUs lack it).
inline std::string precision_unsupported(const PeerCase& c, cl_device_id device) {
  if (!c.double_precision) return "";
  cl_device_fp_config config = 0;
  if (clGetDeviceInfo(device, CL_DEVICE_DOUBLE_FP_CONFIG, sizeof config, &config, nullptr) != CL_SUCCESS || config == 0)
    return "no fp64 on this OpenCL device (cl_khr_fp64)";
  return "";
}

// While one lives, stderr drops the "N warnings generated." lines of the
// OpenCL compiler (quiet_builds.cpp): a peer's prepare() holds one.
class QuietBuilds {
 public:
  QuietBuilds();
  ~QuietBuilds();
  QuietBuilds(const QuietBuilds&) = delete;
  QuietBuilds& operator=(const QuietBuilds&) = delete;

 private:
  std::FILE* capture_ = nullptr;  // stderr meanwhile
  int saved_ = -1;                // stderr before
};

// Each returns nullptr when that peer was not found at build time.
std::unique_ptr<Peer> make_clfft_peer(const OpenCLHandles& cl);
std::unique_ptr<Peer> make_vkfft_peer(const OpenCLHandles& cl);

}  // namespace bfly::bench
