// Peer FFT libraries that `bfly bench` times beside bfly, in the same process
// on the same data. Each peer owns its buffers; the bench hands it a host copy
// of the input and reads the output back for the accuracy column.
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif

#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <CL/cl.h>  // only for the OpenCL handles below

namespace bfly::bench {

// 1D complex-to-complex fp32, out-of-place, unnormalised (inverse without 1/N,
// like FFTW). Forward is exp(-2 pi i n k / N).
struct PeerCase {
  std::int64_t length;
  std::int64_t batch;
  bool inverse;
};

// Borrowed handles: peers never release them, so destroy the peers before
// releasing the queue/context (their destructors clFinish and free buffers).
struct OpenCLHandles {
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  cl_device_id device = nullptr;
};

class Peer {
 public:
  virtual ~Peer() = default;
  // "FFTW (1 thread)", "FFTW (2 threads)", "clFFT", "VkFFT"
  virtual std::string name() const = 0;
  // Prepares the case on the peer's own buffers with a copy of `input`
  // (length*batch points). Returns "" when ready, or a short reason why this
  // size is unsupported / failed (never throws for that).
  virtual std::string prepare(const PeerCase& c, const std::complex<float>* input) = 0;
  // Enqueue/perform one transform of the prepared case (device peers: no wait).
  // Repeatable: the input buffer is never overwritten.
  virtual void run() = 0;
  // Wait until everything run() started is done.
  virtual void finish() = 0;
  // Copies the output of the last run() to host (length*batch points).
  virtual void result(std::complex<float>* output) = 0;
  // Time prepare() spent planning/compiling (ms).
  virtual double plan_ms() const = 0;
  // Frees the case's buffers and plans (also done by the destructor).
  virtual void release() = 0;
};

// Factory functions; each returns nullptr when that peer was not built in
// (library absent at build time).
std::unique_ptr<Peer> make_fftw_peer(int threads);
std::unique_ptr<Peer> make_clfft_peer(const OpenCLHandles& cl);
std::unique_ptr<Peer> make_vkfft_peer(const OpenCLHandles& cl);

// The peers that were NOT compiled in, each with why (empty when all are),
// (e.g. "clFFT: not found at build time").
std::vector<std::string> absent_peers();

}  // namespace bfly::bench
