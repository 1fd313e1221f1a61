// cuFFT on the shared primary context, on the peer's own non-blocking stream
// (so it never waits on, or is waited on by, work bfly puts on the legacy
// default stream). Out-of-place C2C (fp32) or Z2Z (fp64), and the real
// R2C / C2R (D2Z / Z2D): cuFFT leaves the input of all but C2R / Z2D intact
// ("out-of-place complex-to-real FFT will always overwrite input buffer",
// the cuFFT guide), so refresh() restores that one. cuFFT has no DCT or DST:
// an R2R case is "n/a".
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
    case CUFFT_INVALID_PLAN:
      name = "CUFFT_INVALID_PLAN";
      break;
    case CUFFT_ALLOC_FAILED:
      name = "CUFFT_ALLOC_FAILED";
      break;
    case CUFFT_INVALID_TYPE:
      name = "CUFFT_INVALID_TYPE";
      break;
    case CUFFT_INVALID_VALUE:
      name = "CUFFT_INVALID_VALUE";
      break;
    case CUFFT_INTERNAL_ERROR:
      name = "CUFFT_INTERNAL_ERROR";
      break;
    case CUFFT_EXEC_FAILED:
      name = "CUFFT_EXEC_FAILED";
      break;
    case CUFFT_SETUP_FAILED:
      name = "CUFFT_SETUP_FAILED";
      break;
    case CUFFT_INVALID_SIZE:
      name = "CUFFT_INVALID_SIZE";
      break;
    case CUFFT_NOT_SUPPORTED:
      name = "CUFFT_NOT_SUPPORTED";
      break;
    default:
      break;
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
    if (c.r2r()) return "n/a (no DCT/DST)";
    ctx_.bind();
    inverse_ = c.inverse;
    double_ = c.double_precision;
    transform_ = c.transform;
    const long long length = c.length(), spectrum = c.complex_length();
    in_bytes_ = c.input_bytes();
    bytes_ = c.output_bytes();
    cudaError_t e = cudaMalloc(&in_, in_bytes_);
    if (e == cudaSuccess) e = cudaMalloc(&out_, bytes_);
    if (e == cudaSuccess && transform_ == Transform::C2R) e = cudaMalloc(&pristine_, in_bytes_);
    if (e == cudaSuccess) e = cudaMemcpyAsync(in_, input, in_bytes_, cudaMemcpyHostToDevice, stream_);
    if (e == cudaSuccess && pristine_)
      e = cudaMemcpyAsync(pristine_, in_, in_bytes_, cudaMemcpyDeviceToDevice, stream_);
    if (e == cudaSuccess) e = cudaStreamSynchronize(stream_);
    if (e != cudaSuccess) {
      release();
      return cuda_error("device buffer setup", e);
    }

    // cufftPlanMany's 64-bit form: contiguous batches (null embeds, stride 1,
    // distance one array's elements on each side) and no int overflow on big
    // length*batch. n[] is row-major, outermost first, as the shape (and
    // FFTW); R2C / C2R halve the last.
    const auto t0 = std::chrono::steady_clock::now();
    cufftResult r = cufftCreate(&plan_);
    if (r != CUFFT_SUCCESS) {
      release();
      return cufft_error("cufftCreate", r);
    }
    have_plan_ = true;
    long long n[3];
    const int rank = static_cast<int>(c.shape.size());
    for (int d = 0; d < rank; ++d) n[d] = c.shape[d];
    size_t work_bytes = 0;
    cufftType type = double_ ? CUFFT_Z2Z : CUFFT_C2C;
    long long in_dist = length, out_dist = length;
    if (transform_ == Transform::R2C) {
      type = double_ ? CUFFT_D2Z : CUFFT_R2C;
      out_dist = spectrum;
    } else if (transform_ == Transform::C2R) {
      type = double_ ? CUFFT_Z2D : CUFFT_C2R;
      in_dist = spectrum;
    }
    r = cufftMakePlanMany64(plan_, rank, n, nullptr, 1, in_dist, nullptr, 1, out_dist, type, c.batch, &work_bytes);
    plan_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (r != CUFFT_SUCCESS) {
      release();
      return cufft_error("cufftMakePlanMany64", r);
    }
    r = cufftSetStream(plan_, stream_);
    if (r != CUFFT_SUCCESS) {
      release();
      return cufft_error("cufftSetStream", r);
    }
    return "";
  }

  void run() override {
    ctx_.bind();
    // CUFFT_FORWARD is -1: exp(-2 pi i n k / N); CUFFT_INVERSE is unnormalised.
    const int direction = inverse_ ? CUFFT_INVERSE : CUFFT_FORWARD;
    cufftResult r = CUFFT_SUCCESS;
    const char* call = "";
    switch (transform_) {
      case Transform::C2C:
        call = double_ ? "cufftExecZ2Z" : "cufftExecC2C";
        r = double_ ? cufftExecZ2Z(plan_, static_cast<cufftDoubleComplex*>(in_), static_cast<cufftDoubleComplex*>(out_),
                                   direction)
                    : cufftExecC2C(plan_, static_cast<cufftComplex*>(in_), static_cast<cufftComplex*>(out_), direction);
        break;
      case Transform::R2C:
        call = double_ ? "cufftExecD2Z" : "cufftExecR2C";
        r = double_ ? cufftExecD2Z(plan_, static_cast<cufftDoubleReal*>(in_), static_cast<cufftDoubleComplex*>(out_))
                    : cufftExecR2C(plan_, static_cast<cufftReal*>(in_), static_cast<cufftComplex*>(out_));
        break;
      case Transform::C2R:
        call = double_ ? "cufftExecZ2D" : "cufftExecC2R";
        r = double_ ? cufftExecZ2D(plan_, static_cast<cufftDoubleComplex*>(in_), static_cast<cufftDoubleReal*>(out_))
                    : cufftExecC2R(plan_, static_cast<cufftComplex*>(in_), static_cast<cufftReal*>(out_));
        break;
      case Transform::R2R:  // refused by prepare()
        break;
    }
    if (r != CUFFT_SUCCESS) throw std::runtime_error(cufft_error(call, r));
  }
  void finish() override {
    ctx_.bind();
    // Surfaces a faulting kernel here rather than as a silently fast time.
    const cudaError_t e = cudaStreamSynchronize(stream_);
    if (e != cudaSuccess) throw std::runtime_error(cuda_error("cudaStreamSynchronize", e));
  }
  void refresh() override {
    if (!pristine_) return;
    ctx_.bind();
    cudaError_t e = cudaMemcpyAsync(in_, pristine_, in_bytes_, cudaMemcpyDeviceToDevice, stream_);
    if (e == cudaSuccess) e = cudaStreamSynchronize(stream_);
    if (e != cudaSuccess) throw std::runtime_error(cuda_error("cuFFT input refresh", e));
  }
  void result(void* output) override {
    ctx_.bind();
    cudaError_t e = cudaMemcpyAsync(output, out_, bytes_, cudaMemcpyDeviceToHost, stream_);
    if (e == cudaSuccess) e = cudaStreamSynchronize(stream_);
    if (e != cudaSuccess) throw std::runtime_error(cuda_error("cuFFT result download", e));
  }
  double plan_ms() const override { return plan_ms_; }

  void release() override {
    if (!have_plan_ && !in_ && !out_ && !pristine_) return;
    ctx_.bind();
    cudaStreamSynchronize(stream_);
    if (have_plan_) cufftDestroy(plan_);
    have_plan_ = false;
    for (void** p : {&in_, &out_, &pristine_}) {
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
  bool double_ = false;  // Z2Z, D2Z, Z2D instead of C2C, R2C, C2R
  Transform transform_ = Transform::C2C;
  void* in_ = nullptr;
  void* out_ = nullptr;
  void* pristine_ = nullptr;  // a C2R case's input, for refresh()
  size_t bytes_ = 0;          // of the output
  size_t in_bytes_ = 0;       // of the input
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
