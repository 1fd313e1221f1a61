// VkFFT (header-only) through its OpenCL backend, on the caller's queue, fp32
// or fp64 (where the device has cl_khr_fp64).
// Out-of-place without a copy: isInputFormatted = 1 makes VkFFT read from
// inputBuffer and write to buffer in both directions (inverseReturnToInputBuffer
// stays 0), so the input survives and run() can repeat. VkFFT allocates its own
// temp buffer for four-step (large) sizes at initializeVkFFT.
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
  explicit VkfftPeer(const OpenCLHandles& cl)
      : context_(cl.context), queue_(cl.queue), device_(cl.device) {}
  ~VkfftPeer() override { release(); }

  std::string name() const override { return "VkFFT"; }

  std::string prepare(const PeerCase& c, const void* input) override {
    release();
    if (std::string why = c.problem(); !why.empty()) return why;
    if (std::string why = precision_unsupported(c, device_); !why.empty()) return why;
    // VkFFT's size[] is innermost first (size[0] is the contiguous axis): the
    // shape reversed. VkFFT 1.2 refuses length-1 axes (VKFFT_ERROR_UNSUPPORTED_RADIX);
    // their DFT is the identity, so they are dropped (clFFT does the same inside).
    std::vector<std::uint64_t> axes;
    for (auto it = c.shape.rbegin(); it != c.shape.rend(); ++it)
      if (*it > 1) axes.push_back(static_cast<std::uint64_t>(*it));
    if (axes.empty()) return "no length-1 transform in VkFFT";
    if (!context_ || !queue_ || !device_) return "no OpenCL context/queue/device";
    inverse_ = c.inverse;
    bytes_ = static_cast<std::uint64_t>(c.length() * c.batch) * c.point_bytes();
    cl_int err = CL_SUCCESS;
    in_ = clCreateBuffer(context_, CL_MEM_READ_WRITE, bytes_, nullptr, &err);
    if (err == CL_SUCCESS) out_ = clCreateBuffer(context_, CL_MEM_READ_WRITE, bytes_, nullptr, &err);
    if (err == CL_SUCCESS)
      err = clEnqueueWriteBuffer(queue_, in_, CL_TRUE, 0, bytes_, input, 0, nullptr, nullptr);
    if (err != CL_SUCCESS) {
      release();
      return "OpenCL buffer setup failed: " + std::to_string(err);
    }

    // VkFFT keeps these pointers (to members of this object) until deleteVkFFT.
    VkFFTConfiguration config = {};
    // Unset sizes stay 0, which VkFFT reads as 1. Strides and the distance
    // between the numberBatches arrays default to contiguous.
    config.FFTdim = axes.size();
    for (size_t d = 0; d < axes.size(); ++d) config.size[d] = axes[d];
    config.numberBatches = static_cast<std::uint64_t>(c.batch);
    config.device = &device_;
    config.context = &context_;
    config.commandQueue = &queue_;
    config.buffer = &out_;
    config.bufferSize = &bytes_;
    config.isInputFormatted = 1;
    config.inputBuffer = &in_;
    config.inputBufferSize = &bytes_;
    config.normalize = 0;  // the default: inverse without 1/N, like FFTW
    config.doublePrecision = c.double_precision ? 1 : 0;  // fp64 data and arithmetic
    // One direction per case halves the kernels PoCL/the driver must compile.
    if (c.inverse) config.makeInversePlanOnly = 1; else config.makeForwardPlanOnly = 1;

    app_ = new VkFFTApplication();  // value-initialised: VkFFT requires a zeroed app
    const auto t0 = std::chrono::steady_clock::now();
    const VkFFTResult r = initializeVkFFT(app_, config);
    plan_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (r != VKFFT_SUCCESS) {
      release();
      return "initializeVkFFT failed: VkFFTResult " + std::to_string(static_cast<int>(r));
    }
    return "";
  }

  void run() override {
    VkFFTLaunchParams launch = {};
    launch.commandQueue = &queue_;
    launch.buffer = &out_;
    launch.inputBuffer = &in_;
    // VkFFT: -1 is forward, exp(-2 pi i n k / N); 1 is inverse.
    const VkFFTResult r = VkFFTAppend(app_, inverse_ ? 1 : -1, &launch);
    if (r != VKFFT_SUCCESS) throw std::runtime_error("VkFFTAppend failed: VkFFTResult " + std::to_string(static_cast<int>(r)));
  }
  void finish() override { clFinish(queue_); }
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
  }

 private:
  // Copies of the borrowed handles: VkFFT wants pointers to them.
  cl_context context_;
  cl_command_queue queue_;
  cl_device_id device_;
  VkFFTApplication* app_ = nullptr;
  cl_mem in_ = nullptr, out_ = nullptr;
  std::uint64_t bytes_ = 0;
  bool inverse_ = false;
  double plan_ms_ = 0;
};

}  // namespace

std::unique_ptr<Peer> make_vkfft_peer(const OpenCLHandles& cl) { return std::make_unique<VkfftPeer>(cl); }

}  // namespace bfly::bench
