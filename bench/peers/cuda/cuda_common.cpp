// Primary-context handling, error text, and the plugin's exported entry points.
#include "cuda_common.hpp"

#include <cstdio>
#include <cstring>
#include <exception>

#include "cuda_plugin.hpp"

namespace bfly::bench::cuda {

std::string cu_error(const char* call, CUresult r) {
  const char* name = nullptr;
  if (cuGetErrorName(r, &name) != CUDA_SUCCESS || !name) name = "unknown";
  return std::string(call) + " failed: " + name + " (" + std::to_string(static_cast<int>(r)) + ")";
}

std::string cuda_error(const char* call, cudaError_t e) {
  return std::string(call) + " failed: " + cudaGetErrorName(e) + " (" + std::to_string(static_cast<int>(e)) + ")";
}

std::string PrimaryContext::open(int ordinal) {
  // cuInit is idempotent; it is where a machine without a GPU or a driver
  // too old for this toolkit reports itself.
  CUresult r = cuInit(0);
  if (r != CUDA_SUCCESS) return cu_error("cuInit", r);
  int count = 0;
  r = cuDeviceGetCount(&count);
  if (r != CUDA_SUCCESS) return cu_error("cuDeviceGetCount", r);
  if (ordinal < 0 || ordinal >= count)
    return "no CUDA device " + std::to_string(ordinal) + " (" + std::to_string(count) + " present)";
  r = cuDeviceGet(&device_, ordinal);
  if (r != CUDA_SUCCESS) return cu_error("cuDeviceGet", r);
  r = cuDevicePrimaryCtxRetain(&context_, device_);
  if (r != CUDA_SUCCESS) {
    context_ = nullptr;
    return cu_error("cuDevicePrimaryCtxRetain", r);
  }
  r = cuCtxSetCurrent(context_);
  return r == CUDA_SUCCESS ? "" : cu_error("cuCtxSetCurrent", r);
}

void PrimaryContext::bind() const {
  if (context_) cuCtxSetCurrent(context_);
}

PrimaryContext::~PrimaryContext() {
  if (context_) cuDevicePrimaryCtxRelease(device_);
}

}  // namespace bfly::bench::cuda

extern "C" bfly::bench::Peer* bfly_cuda_peer_create(const char* which, int device_ordinal, char* why,
                                                    unsigned long why_size) {
  using namespace bfly::bench::cuda;
  std::string reason;
  bfly::bench::Peer* peer = nullptr;
  // Nothing may unwind through the C boundary.
  try {
    if (!which) {
      reason = "no peer name";
    } else if (std::strcmp(which, "cuFFT") == 0) {
      peer = create_cufft_peer(device_ordinal, &reason);
    } else if (std::strcmp(which, "VkFFT") == 0) {
#ifdef BFLY_HAVE_VKFFT_CUDA
      peer = create_vkfft_cuda_peer(device_ordinal, &reason);
#else
      reason = "VkFFT (CUDA): vkFFT.h not found when the plugin was built";
#endif
    } else {
      reason = std::string("unknown CUDA peer '") + which + "'";
    }
  } catch (const std::exception& e) {
    reason = e.what();
  } catch (...) {
    reason = "unknown exception";
  }
  if (peer) return peer;
  if (reason.empty()) reason = "unavailable";
  if (why && why_size > 0) std::snprintf(why, why_size, "%s", reason.c_str());
  return nullptr;
}

extern "C" int bfly_cuda_peers_abi(void) { return BFLY_CUDA_PEERS_ABI; }
