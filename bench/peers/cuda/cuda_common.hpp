// Shared by the peers inside the CUDA plugin (never by the main program).
#pragma once

#include <cuda.h>
#include <cuda_runtime_api.h>

#include <string>

#include "peer.hpp"

namespace bfly::bench::cuda {

std::string cu_error(const char* call, CUresult r);
std::string cuda_error(const char* call, cudaError_t e);

// Holds a reference on device `ordinal`'s primary context for the peer's
// life. bfly's CUDA backend uses the primary context too, so peers and bfly
// share one context (one address space, no context switches between them),
// and the runtime API (cudaMalloc, cuFFT) picks it up once it is current.
class PrimaryContext {
 public:
  PrimaryContext() = default;
  PrimaryContext(const PrimaryContext&) = delete;
  PrimaryContext& operator=(const PrimaryContext&) = delete;
  ~PrimaryContext();
  // "" when retained and current, else why not.
  std::string open(int ordinal);
  // Makes the context current on the calling thread; every peer call starts
  // with it so any thread may drive a peer (a no-op cost when it already is).
  void bind() const;
  CUdevice device() const { return device_; }

 private:
  CUdevice device_ = 0;
  CUcontext context_ = nullptr;
};

// Each returns nullptr and sets *why when the peer cannot run.
Peer* create_cufft_peer(int ordinal, std::string* why);
#ifdef BFLY_HAVE_VKFFT_CUDA
Peer* create_vkfft_cuda_peer(int ordinal, std::string* why);
#endif

}  // namespace bfly::bench::cuda
