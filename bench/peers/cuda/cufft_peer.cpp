// cuFFT on the shared primary context, on the peer's own non-blocking stream
// (so it never waits on, or is waited on by, work bfly puts on the legacy
// default stream). Out-of-place C2C (fp32) or Z2Z (fp64): cuFFT leaves the
// input intact.
#include <cufft.h>

#include <chrono>
#include <memory>
#include <stdexcept>

#include "cuda_common.hpp"

namespace bfly::bench::cuda {
namespace {

std::string cufft_error(const char* call, cufftResult r) {
  const char* name = nullptr;
  switch (r) {  // the codes common to CUDA 12 and 13
    case CUFFT_INVALID_PLAN: name = "CUFFT_INVALID_PLAN"; break;
    case CUFFT_ALLOC_FAILED: name = "CUFFT_ALLOC_FAILED"; break;
    case CUFFT_INVALID_TYPE: name = "CUFFT_INVALID_TYPE"; break;
    case CUFFT_INVALID_VALUE: name = "CUFFT_INVALID_VALUE"; break;
    case CUFFT_INTERNAL_ERROR: name = "CUFFT_INTERNAL_ERROR"; break;
    case CUFFT_EXEC_FAILED: name = "CUFFT_EXEC_FAILED"; break;
    case CUFFT_SETUP_FAILED: name = "CUFFT_SETUP_FAILED"; break;
    case CUFFT_INVALID_SIZE: name = "CUFFT_INVALID_SIZE"; break;
    case CUFFT_NOT_SUPPORTED: name = "CUFFT_NOT_SUPPORTED"; break;
    default: break;
  }
  std::string text = std::string(call) + " failed: status " + std::to_string(static_cast<int>(r));
  return name ? text + " (" + name + ")" : text;
}

class CufftPeer final : public Peer {
 public:
  std::string open(int ordinal) {
    std::string why = ctx_.open(ordinal);
    if (!why.empty()) return why;
    const cudaError_t e = cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking);
    if (e != cudaSuccess) {
      stream_ = nullptr;
      return cuda_error("cudaStreamCreateWithFlags", e);
    }
    return "";
  }
  ~CufftPeer() override {
    release();
    if (stream_) cudaStreamDestroy(stream_);
  }

  std::string name() const override { return "cuFFT"; }

  std::string prepare(const PeerCase& c, const void* input) override {
    release();
    if (std::string why = c.problem(); !why.empty()) return why;
    ctx_.bind();
    inverse_ = c.inverse;
    double_ = c.double_precision;
    const long long length = c.length();
    bytes_ = static_cast<size_t>(length * c.batch) * c.point_bytes();
    cudaError_t e = cudaMalloc(&in_, bytes_);
    if (e == cudaSuccess) e = cudaMalloc(&out_, bytes_);
    if (e == cudaSuccess) e = cudaMemcpyAsync(in_, input, bytes_, cudaMemcpyHostToDevice, stream_);
    if (e == cudaSuccess) e = cudaStreamSynchronize(stream_);
    if (e != cudaSuccess) {
      release();
      return cuda_error("device buffer setup", e);
    }

    // cufftPlanMany's 64-bit form: contiguous batches (null embeds, stride 1,
    // distance length) and no int overflow on big length*batch. n[] is
    // row-major, outermost first, as the shape (and FFTW).
    const auto t0 = std::chrono::steady_clock::now();
    cufftResult r = cufftCreate(&plan_);
    if (r != CUFFT_SUCCESS) { release(); return cufft_error("cufftCreate", r); }
    have_plan_ = true;
    long long n[3];
    const int rank = static_cast<int>(c.shape.size());
    for (int d = 0; d < rank; ++d) n[d] = c.shape[d];
    size_t work_bytes = 0;
    r = cufftMakePlanMany64(plan_, rank, n, nullptr, 1, length, nullptr, 1, length,
                            double_ ? CUFFT_Z2Z : CUFFT_C2C, c.batch, &work_bytes);
    plan_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (r != CUFFT_SUCCESS) { release(); return cufft_error("cufftMakePlanMany64", r); }
    r = cufftSetStream(plan_, stream_);
    if (r != CUFFT_SUCCESS) { release(); return cufft_error("cufftSetStream", r); }
    return "";
  }

  void run() override {
    ctx_.bind();
    // CUFFT_FORWARD is -1: exp(-2 pi i n k / N); CUFFT_INVERSE is unnormalised.
    const int direction = inverse_ ? CUFFT_INVERSE : CUFFT_FORWARD;
    const cufftResult r =
        double_ ? cufftExecZ2Z(plan_, static_cast<cufftDoubleComplex*>(in_), static_cast<cufftDoubleComplex*>(out_),
                               direction)
                : cufftExecC2C(plan_, static_cast<cufftComplex*>(in_), static_cast<cufftComplex*>(out_), direction);
    if (r != CUFFT_SUCCESS) throw std::runtime_error(cufft_error(double_ ? "cufftExecZ2Z" : "cufftExecC2C", r));
  }
  void finish() override {
    ctx_.bind();
    // Surfaces a faulting kernel here rather than as a silently fast time.
    const cudaError_t e = cudaStreamSynchronize(stream_);
    if (e != cudaSuccess) throw std::runtime_error(cuda_error("cudaStreamSynchronize", e));
  }
  void result(void* output) override {
    ctx_.bind();
    cudaError_t e = cudaMemcpyAsync(output, out_, bytes_, cudaMemcpyDeviceToHost, stream_);
    if (e == cudaSuccess) e = cudaStreamSynchronize(stream_);
    if (e != cudaSuccess) throw std::runtime_error(cuda_error("cuFFT result download", e));
  }
  double plan_ms() const override { return plan_ms_; }

  void release() override {
    if (!have_plan_ && !in_ && !out_) return;
    ctx_.bind();
    cudaStreamSynchronize(stream_);
    if (have_plan_) cufftDestroy(plan_);
    have_plan_ = false;
    for (void** p : {&in_, &out_}) {
      if (*p) cudaFree(*p);
      *p = nullptr;
    }
  }

 private:
  PrimaryContext ctx_;  // first member: released last
  cudaStream_t stream_ = nullptr;
  cufftHandle plan_ = 0;
  bool have_plan_ = false;
  bool inverse_ = false;
  bool double_ = false;  // Z2Z instead of C2C
  void* in_ = nullptr;
  void* out_ = nullptr;
  size_t bytes_ = 0;
  double plan_ms_ = 0;
};

}  // namespace

Peer* create_cufft_peer(int ordinal, std::string* why) {
  auto peer = std::make_unique<CufftPeer>();
  *why = peer->open(ordinal);
  if (!why->empty()) return nullptr;
  return peer.release();
}

}  // namespace bfly::bench::cuda
