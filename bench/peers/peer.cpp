// Stubs for the peers CMake did not find, so callers link the same symbols
// whatever was installed; absent_peers() says what is missing and why.
#include "peer.hpp"

#include <pthread.h>

#ifdef BFLY_HAVE_OPENCL_PEERS
#include "opencl_peers.hpp"
#endif

namespace bfly::bench {

#ifndef BFLY_HAVE_FFTW
std::unique_ptr<Peer> make_fftw_peer(int) { return nullptr; }
#endif
#ifdef BFLY_HAVE_OPENCL_PEERS
#ifndef BFLY_HAVE_CLFFT
std::unique_ptr<Peer> make_clfft_peer(const OpenCLHandles&) { return nullptr; }
#endif
#ifndef BFLY_HAVE_VKFFT
std::unique_ptr<Peer> make_vkfft_peer(const OpenCLHandles&) { return nullptr; }
#endif
#endif

void enlarge_thread_stacks() {
  constexpr std::size_t kStack = std::size_t{64} << 20;
  pthread_attr_t attr;
  if (pthread_getattr_default_np(&attr) != 0) return;
  std::size_t size = 0;
  if (pthread_attr_getstacksize(&attr, &size) == 0 && size < kStack && pthread_attr_setstacksize(&attr, kStack) == 0)
    pthread_setattr_default_np(&attr);
  pthread_attr_destroy(&attr);
}

// The CUDA peers are not listed: whether they exist is only known at run time
// (make_cuda_peers says why not).
std::vector<std::string> absent_peers() {
  std::vector<std::string> absent;
#ifndef BFLY_HAVE_FFTW
  absent.push_back("FFTW: fftw3f / fftw3f_threads not found at build time");
#endif
#ifndef BFLY_HAVE_OPENCL_PEERS
  absent.push_back("clFFT, VkFFT (OpenCL): OpenCL not found at build time");
#else
#ifndef BFLY_HAVE_CLFFT
  absent.push_back("clFFT: not found at build time");
#endif
#ifndef BFLY_HAVE_VKFFT
  absent.push_back("VkFFT: vkFFT.h not found at build time");
#endif
#endif
  return absent;
}

}  // namespace bfly::bench
