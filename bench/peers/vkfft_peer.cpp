// VkFFT (header-only) through its OpenCL backend, on the caller's queue, fp32
// or fp64 (where the device has cl_khr_fp64), complex or real (performR2C).
// Out-of-place without a copy: isInputFormatted = 1 makes VkFFT read from
// inputBuffer and write to buffer in both directions (inverseReturnToInputBuffer
// stays 0), so the input survives and run() can repeat. Real transforms use
// VkFFT's out-of-place pairing instead: the unpadded real array is
// inputBuffer, the half spectrum buffer; R2C reads inputBuffer and writes
// buffer, C2R (inverseReturnToInputBuffer = 1) reads buffer and writes
// inputBuffer, working in buffer on the way (refresh() restores it). VkFFT
// allocates its own temp buffer for four-step (large) sizes at initializeVkFFT.
// DCTs (performDCT = type) read inputBuffer and write buffer, both real
// arrays of the shape: see r2r_unsupported() in opencl_peers.hpp.
#define VKFFT_BACKEND 3
#include "opencl_peers.hpp"  // defines CL_TARGET_OPENCL_VERSION before <CL/cl.h>

#include <vkFFT.h>

#include <chrono>
#include <stdexcept>
#include <vector>

namespace bfly::bench {
namespace {

class VkfftPeer final : public Peer {
 public:
  explicit VkfftPeer(const OpenCLHandles& cl) : context_(cl.context), queue_(cl.queue), device_(cl.device) {}
  ~VkfftPeer() override { release(); }

  std::string name() const override { return "VkFFT"; }

  std::string prepare(const PeerCase& c, const void* input) override {
    const QuietBuilds quiet;  // the OpenCL compiler's warning counts
    release();
    if (std::string why = c.problem(); !why.empty()) return why;
    if (std::string why = precision_unsupported(c, device_); !why.empty()) return why;
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
    if (!context_ || !queue_ || !device_) return "no OpenCL context/queue/device";
    inverse_ = c.inverse;
    in_bytes_ = c.input_bytes();
    bytes_ = c.output_bytes();
    cl_int err = CL_SUCCESS;
    in_ = clCreateBuffer(context_, CL_MEM_READ_WRITE, in_bytes_, nullptr, &err);
    if (err == CL_SUCCESS) out_ = clCreateBuffer(context_, CL_MEM_READ_WRITE, bytes_, nullptr, &err);
    if (err == CL_SUCCESS) err = clEnqueueWriteBuffer(queue_, in_, CL_TRUE, 0, in_bytes_, input, 0, nullptr, nullptr);
    if (err != CL_SUCCESS) {
      release();
      return "OpenCL buffer setup failed: " + std::to_string(err);
    }
    // Which of ours is VkFFT's buffer (the complex one) and its inputBuffer.
    const bool c2r = c.transform == Transform::C2R;
    buffer_ = c2r ? in_ : out_;
    input_buffer_ = c2r ? out_ : in_;
    buffer_bytes_ = c2r ? in_bytes_ : bytes_;
    input_buffer_bytes_ = c2r ? bytes_ : in_bytes_;
    if (c2r) {
      const auto* bytes = static_cast<const unsigned char*>(input);
      pristine_.assign(bytes, bytes + in_bytes_);
    }

    // VkFFT keeps these pointers (to members of this object) until deleteVkFFT.
    VkFFTConfiguration config = {};
    // Unset sizes stay 0, which VkFFT reads as 1. Strides and the distance
    // between the numberBatches arrays default to contiguous (for R2C, the
    // real side padded to 2 * (n/2 + 1): inputBufferStride[0] = n unpads it).
    config.FFTdim = axes.size();
    for (size_t d = 0; d < axes.size(); ++d) config.size[d] = axes[d];
    config.numberBatches = static_cast<std::uint64_t>(c.batch);
    config.device = &device_;
    config.context = &context_;
    config.commandQueue = &queue_;
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
    // One direction per case halves the kernels PoCL/the driver must compile.
    if (c.inverse)
      config.makeInversePlanOnly = 1;
    else
      config.makeForwardPlanOnly = 1;

    app_ = new VkFFTApplication();  // value-initialised: VkFFT requires a zeroed app
    const auto t0 = std::chrono::steady_clock::now();
    const VkFFTResult r = initializeVkFFT(app_, config);
    plan_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (r != VKFFT_SUCCESS) {
      release();
      // A DCT whose axis takes more than one pass (a kernel) is refused by
      // name: VkFFT 1.2.26 does its DCTs in one upload only.
      if (r == VKFFT_ERROR_UNSUPPORTED_FFT_LENGTH_DCT) return "VkFFT: no DCT of this length (one pass only)";
      return "initializeVkFFT failed: VkFFTResult " + std::to_string(static_cast<int>(r));
    }
    return "";
  }

  void run() override {
    VkFFTLaunchParams launch = {};
    launch.commandQueue = &queue_;
    launch.buffer = &buffer_;
    launch.inputBuffer = &input_buffer_;
    // VkFFT: -1 is forward, exp(-2 pi i n k / N); 1 is inverse.
    const VkFFTResult r = VkFFTAppend(app_, inverse_ ? 1 : -1, &launch);
    if (r != VKFFT_SUCCESS)
      throw std::runtime_error("VkFFTAppend failed: VkFFTResult " + std::to_string(static_cast<int>(r)));
  }
  void finish() override { clFinish(queue_); }
  void refresh() override {
    if (!pristine_.empty())
      clEnqueueWriteBuffer(queue_, in_, CL_TRUE, 0, in_bytes_, pristine_.data(), 0, nullptr, nullptr);
  }
  void result(void* output) override {
    clEnqueueReadBuffer(queue_, out_, CL_TRUE, 0, bytes_, output, 0, nullptr, nullptr);
  }
  double plan_ms() const override { return plan_ms_; }

  void release() override {
    if (app_ || in_ || out_) clFinish(queue_);
    if (app_) {
      deleteVkFFT(app_);
      delete app_;
      app_ = nullptr;
    }
    for (cl_mem* m : {&in_, &out_}) {
      if (*m) clReleaseMemObject(*m);
      *m = nullptr;
    }
    buffer_ = input_buffer_ = nullptr;
    pristine_.clear();
    pristine_.shrink_to_fit();
  }

 private:
  // Copies of the borrowed handles: VkFFT wants pointers to them.
  cl_context context_;
  cl_command_queue queue_;
  cl_device_id device_;
  VkFFTApplication* app_ = nullptr;
  cl_mem in_ = nullptr, out_ = nullptr;
  cl_mem buffer_ = nullptr, input_buffer_ = nullptr;  // in_ and out_ as VkFFT names them
  std::uint64_t bytes_ = 0, in_bytes_ = 0;            // of out_ and in_
  std::uint64_t buffer_bytes_ = 0, input_buffer_bytes_ = 0;
  std::vector<unsigned char> pristine_;  // the input of a C2R case, for refresh()
  bool inverse_ = false;
  double plan_ms_ = 0;
};

}  // namespace

std::unique_ptr<Peer> make_vkfft_peer(const OpenCLHandles& cl) { return std::make_unique<VkfftPeer>(cl); }

}  // namespace bfly::bench
