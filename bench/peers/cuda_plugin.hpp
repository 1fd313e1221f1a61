// The C entry points of the CUDA peer plugin libbfly_cuda_peers.so. The plugin
// holds cuFFT and VkFFT's CUDA backend, so the bfly executable never links
// libcuda/libcufft/libcudart: make_cuda_peers() (cuda_plugin_loader.cpp)
// dlopens the plugin and calls these. No CUDA headers here on purpose.
#pragma once

#include "peer.hpp"

// The plugin builds with hidden visibility; only these are exported.
#define BFLY_CUDA_PEERS_EXPORT __attribute__((visibility("default")))

// Bumped whenever Peer's layout or these signatures change, so a stale plugin
// left next to a newer bfly is refused instead of called through a wrong vtable.
// 2: PeerCase holds a shape (std::vector) instead of one length.
// 3: PeerCase.double_precision; prepare/result take untyped (fp32 or fp64) data.
// 4: PeerCase.transform (R2C / C2R); Peer::refresh.
#define BFLY_CUDA_PEERS_ABI 4

extern "C" {

// Creates the peer `which` ("cuFFT" or "VkFFT") on CUDA device `device_ordinal`
// (its primary context). Returns nullptr and writes a NUL-terminated reason
// into why[0..why_size) when it is unavailable (no driver, no device, not
// built in). Never throws. Delete the result through Peer*.
BFLY_CUDA_PEERS_EXPORT bfly::bench::Peer* bfly_cuda_peer_create(const char* which, int device_ordinal, char* why,
                                                                unsigned long why_size);

// Returns BFLY_CUDA_PEERS_ABI as the plugin was built.
BFLY_CUDA_PEERS_EXPORT int bfly_cuda_peers_abi(void);

}  // extern "C"

namespace bfly::bench {
using CudaPeerCreateFn = Peer* (*)(const char*, int, char*, unsigned long);
using CudaPeersAbiFn = int (*)();
inline constexpr const char* kCudaPeersPlugin = "libbfly_cuda_peers.so";
}  // namespace bfly::bench
