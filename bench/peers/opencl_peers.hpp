// The peers that run on an OpenCL device (clFFT, VkFFT's OpenCL backend).
// Separate from peer.hpp so code that never sees OpenCL (the CUDA plugin,
// builds without OpenCL) does not need CL/cl.h. Only present when CMake found
// OpenCL: then bfly_peers defines BFLY_HAVE_OPENCL_PEERS=1.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif

#include <CL/cl.h>

#include "peer.hpp"

namespace bfly::bench {

// Borrowed handles: peers never release them, so destroy the peers before
// releasing the queue/context (their destructors clFinish and free buffers).
struct OpenCLHandles {
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_device_id device = nullptr;
};

// Each returns nullptr when that peer was not found at build time.
std::unique_ptr<Peer> make_clfft_peer(const OpenCLHandles& cl);
std::unique_ptr<Peer> make_vkfft_peer(const OpenCLHandles& cl);

}  // namespace bfly::bench
