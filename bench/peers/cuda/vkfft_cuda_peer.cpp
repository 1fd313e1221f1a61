// VkFFT (header-only) through its CUDA backend (NVRTC + driver API), on the
// shared primary context and the peer's own non-blocking stream, fp32 or fp64
// (config.doublePrecision; every CUDA GPU has fp64), complex or real
// (performR2C). Out-of-place without a copy, as in the OpenCL peer:
// isInputFormatted = 1 makes VkFFT read inputBuffer and write buffer in both
// directions, so run() can repeat. Real transforms use VkFFT's out-of-place
// pairing (see vkfft_peer.cpp): the unpadded real array is inputBuffer, the
// half spectrum buffer; C2R returns to inputBuffer and works in buffer on the
// way, so refresh() restores it. DCTs (performDCT = type) read inputBuffer and
// write buffer, both real arrays of the shape, as in the OpenCL peer.
#define VKFFT_BACKEND 1
#include "cuda_common.hpp"  // before vkFFT.h: cuda.h, cuda_runtime_api.h

#include <vkFFT.h>

#include <chrono>
#include <memory>
#include <stdexcept>
#include <vector>

namespace bfly::bench::cuda {
namespace {

class VkfftCudaPeer final : public Peer {
 public:
  std::string open(int ordinal) {
    std::string why = ctx_.open(ordinal);
    if (!why.empty()) return why;
    device_ = ctx_.device();
    const cudaError_t e = cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking);
    if (e != cudaSuccess) {
      stream_ = nullptr;
      return cuda_error("cudaStreamCreateWithFlags", e);
    }
    return "";
  }
  ~VkfftCudaPeer() override {
    release();
    if (stream_) cudaStreamDestroy(stream_);
  }

  std::string name() const override { return "VkFFT"; }

  std::string prepare(const PeerCase& c, const void* input) override {
    release();
    if (std::string why = c.problem(); !why.empty()) return why;
    // VkFFT's size[] is innermost first (size[0] is the contiguous axis): the
    // shape reversed. VkFFT 1.2 refuses length-1 axes (VKFFT_ERROR_UNSUPPORTED_RADIX);
    // their DFT is the identity, so they are dropped (clFFT does the same inside),
    // except a real transform's innermost axis, whose length the spectrum halves.
    if (c.real() && c.shape.back() == 1) return "no length-1 real axis in VkFFT";
    if (std::string why = vkfft_r2r_unsupported(c); !why.empty()) return why;
    std::vector<std::uint64_t> axes;
    for (auto it = c.shape.rbegin(); it != c.shape.rend(); ++it)
      if (*it > 1) axes.push_back(static_cast<std::uint64_t>(*it));
    if (axes.empty()) return "no length-1 transform in VkFFT";
    ctx_.bind();  // NVRTC modules and VkFFT's cudaMalloc'ed tables land in the current context
    inverse_ = c.inverse;
    in_bytes_ = c.input_bytes();
    bytes_ = c.output_bytes();
    const bool c2r = c.transform == Transform::C2R;
    cudaError_t e = cudaMalloc(&in_, in_bytes_);
    if (e == cudaSuccess) e = cudaMalloc(&out_, bytes_);
    if (e == cudaSuccess && c2r) e = cudaMalloc(&pristine_, in_bytes_);
    if (e == cudaSuccess) e = cudaMemcpyAsync(in_, input, in_bytes_, cudaMemcpyHostToDevice, stream_);
    if (e == cudaSuccess && pristine_)
      e = cudaMemcpyAsync(pristine_, in_, in_bytes_, cudaMemcpyDeviceToDevice, stream_);
    if (e == cudaSuccess) e = cudaStreamSynchronize(stream_);
    if (e != cudaSuccess) {
      release();
      return cuda_error("device buffer setup", e);
    }
    // Which of ours is VkFFT's buffer (the complex one) and its inputBuffer.
    buffer_ = c2r ? in_ : out_;
    input_buffer_ = c2r ? out_ : in_;
    buffer_bytes_ = c2r ? in_bytes_ : bytes_;
    input_buffer_bytes_ = c2r ? bytes_ : in_bytes_;

    // VkFFT keeps these pointers (to members of this object) until deleteVkFFT;
    // kernels get &buffer_ / &input_buffer_ as their pointer arguments.
    VkFFTConfiguration config = {};
    // Unset sizes stay 0, which VkFFT reads as 1. Strides and the distance
    // between the numberBatches arrays default to contiguous (for R2C, the
    // real side padded to 2 * (n/2 + 1): inputBufferStride[0] = n unpads it).
    config.FFTdim = axes.size();
    for (size_t d = 0; d < axes.size(); ++d) config.size[d] = axes[d];
    config.numberBatches = static_cast<std::uint64_t>(c.batch);
    config.device = &device_;
    config.stream = &stream_;  // with num_streams >= 1 VkFFT launches on stream[0]; 0 = legacy default
    config.num_streams = 1;
    config.buffer = &buffer_;
    config.bufferSize = &buffer_bytes_;
    config.isInputFormatted = 1;
    config.inputBuffer = &input_buffer_;
    config.inputBufferSize = &input_buffer_bytes_;
    if (c.real()) {
      config.performR2C = 1;
      config.inputBufferStride[0] = axes[0];
      config.inverseReturnToInputBuffer = c2r ? 1 : 0;
    }
    // The type asked for, run forward: VkFFT's forward DCT of each type is
    // FFTW's REDFT of that type, unscaled (VkFFT's own precision test,
    // sample_16_precision_VkFFT_single_dct.cpp, compares performDCT = t run
    // forward with fftw_plan_r2r of REDFT00, 10, 01, 11 without a factor).
    if (c.r2r()) config.performDCT = static_cast<std::uint64_t>(c.type);
    config.normalize = 0;                                 // the default: inverse without 1/N, like FFTW
    config.doublePrecision = c.double_precision ? 1 : 0;  // fp64 data and arithmetic
    // One direction per case halves the kernels NVRTC must compile.
    if (c.inverse)
      config.makeInversePlanOnly = 1;
    else
      config.makeForwardPlanOnly = 1;

    app_ = new VkFFTApplication();  // value-initialised: VkFFT requires a zeroed app
    const auto t0 = std::chrono::steady_clock::now();
    const VkFFTResult r = initializeVkFFT(app_, config);
    plan_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (r != VKFFT_SUCCESS) {
      // initializeVkFFT has already called deleteVkFFT on failure; a second
      // deleteVkFFT on the zeroed-out parts is harmless (it checks each).
      release();
      // A DCT whose axis takes more than one pass (a kernel) is refused by
      // name: VkFFT 1.2.26 does its DCTs in one upload only.
      if (r == VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH_DCT) return "VkFFT: no DCT of this length (one pass only)";
      return "initializeVkFFT failed: VkFFTResult " + std::to_string(static_cast<int>(r));
    }
    return "";
  }

  void run() override {
    ctx_.bind();
    VkFFTLaunchParams launch = {};
    launch.buffer = &buffer_;
    launch.inputBuffer = &input_buffer_;
    // VkFFT: -1 is forward, exp(-2 pi i n k / N); 1 is inverse.
    const VkFFTResult r = VkFFTAppend(app_, inverse_ ? 1 : -1, &launch);
    if (r != VKFFT_SUCCESS)
      throw std::runtime_error("VkFFTAppend failed: VkFFTResult " + std::to_string(static_cast<int>(r)));
  }
  void finish() override {
    ctx_.bind();
    const cudaError_t e = cudaStreamSynchronize(stream_);
    if (e != cudaSuccess) throw std::runtime_error(cuda_error("cudaStreamSynchronize", e));
  }
  void refresh() override {
    if (!pristine_) return;
    ctx_.bind();
    cudaError_t e = cudaMemcpyAsync(in_, pristine_, in_bytes_, cudaMemcpyDeviceToDevice, stream_);
    if (e == cudaSuccess) e = cudaStreamSynchronize(stream_);
    if (e != cudaSuccess) throw std::runtime_error(cuda_error("VkFFT input refresh", e));
  }
  void result(void* output) override {
    ctx_.bind();
    cudaError_t e = cudaMemcpyAsync(output, out_, bytes_, cudaMemcpyDeviceToHost, stream_);
    if (e == cudaSuccess) e = cudaStreamSynchronize(stream_);
    if (e != cudaSuccess) throw std::runtime_error(cuda_error("VkFFT result download", e));
  }
  double plan_ms() const override { return plan_ms_; }

  void release() override {
    if (!app_ && !in_ && !out_ && !pristine_) return;
    ctx_.bind();
    cudaStreamSynchronize(stream_);
    if (app_) {
      deleteVkFFT(app_);
      delete app_;
      app_ = nullptr;
    }
    for (void** p : {&in_, &out_, &pristine_}) {
      if (*p) cudaFree(*p);
      *p = nullptr;
    }
    buffer_ = input_buffer_ = nullptr;
  }

 private:
  PrimaryContext ctx_;   // first member: released last
  CUdevice device_ = 0;  // VkFFT wants a pointer to it
  cudaStream_t stream_ = nullptr;
  VkFFTApplication* app_ = nullptr;
  void* in_ = nullptr;
  void* out_ = nullptr;
  void* pristine_ = nullptr;  // a C2R case's input, for refresh()
  void* buffer_ = nullptr;    // in_ or out_, as VkFFT names them
  void* input_buffer_ = nullptr;
  std::uint64_t bytes_ = 0, in_bytes_ = 0;  // of out_ and in_
  std::uint64_t buffer_bytes_ = 0, input_buffer_bytes_ = 0;
  bool inverse_ = false;
  double plan_ms_ = 0;
};

}  // namespace

Peer* create_vkfft_cuda_peer(int ordinal, std::string* why) {
  auto peer = std::make_unique<VkfftCudaPeer>();
  *why = peer->open(ordinal);
  if (!why->empty()) return nullptr;
  return peer.release();
}

}  // namespace bfly::bench::cuda
