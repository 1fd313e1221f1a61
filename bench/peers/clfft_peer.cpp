// clFFT 2.x on the caller's OpenCL queue, 1D/2D/3D, fp32 or fp64 (where the
// device has cl_khr_fp64), complex or real (CLFFT_REAL to and from
// CLFFT_HERMITIAN_INTERLEAVED). clFFT does radices 2, 3, 5, 7 (11, 13 since
// 2.12); prepare() refuses other axis lengths up front. clFFT has no DCT or
// DST: an R2R case is "n/a".
#include <clFFT.h>

#include <chrono>
#include <mutex>
#include <stdexcept>
#include <vector>

#include "opencl_peers.hpp"

namespace bfly::bench {
namespace {

std::string status_text(const char* call, clfftStatus s) {
  const char* name = nullptr;
  switch (s) {
    case CLFFT_NOTIMPLEMENTED:
      name = "CLFFT_NOTIMPLEMENTED";
      break;
    case CLFFT_INVALID_VALUE:
      name = "CLFFT_INVALID_VALUE";
      break;
    case CLFFT_INVALID_PLAN:
      name = "CLFFT_INVALID_PLAN";
      break;
    case CLFFT_BUGCHECK:
      name = "CLFFT_BUGCHECK";
      break;
    case CLFFT_BUILD_PROGRAM_FAILURE:
      name = "CLFFT_BUILD_PROGRAM_FAILURE";
      break;
    case CLFFT_OUT_OF_RESOURCES:
      name = "CLFFT_OUT_OF_RESOURCES";
      break;
    case CLFFT_MEM_OBJECT_ALLOCATION_FAILURE:
      name = "CLFFT_MEM_OBJECT_ALLOCATION_FAILURE";
      break;
    case CLFFT_INVALID_BUFFER_SIZE:
      name = "CLFFT_INVALID_BUFFER_SIZE";
      break;
    default:
      break;
  }
  std::string text = std::string(call) + " failed: status " + std::to_string(static_cast<int>(s));
  return name ? text + " (" + name + ")" : text;
}

// "" when clFFT can plan an axis of length n, else why not. clFFT has no
// fallback (Bluestein) for other factors: clfftCreateDefaultPlan answers
// CLFFT_NOTIMPLEMENTED, which says less than this.
std::string unsupported_axis(std::int64_t n, bool radix_11_13) {
  std::int64_t m = n;
  for (std::int64_t p : {2, 3, 5, 7, 11, 13}) {
    if (p > 7 && !radix_11_13) break;
    while (m % p == 0) m /= p;
  }
  if (m == 1) return "";
  return "axis " + std::to_string(n) +
         (radix_11_13 ? ": clFFT needs factors 2,3,5,7,11,13" : ": clFFT needs factors 2,3,5,7");
}

class ClfftPeer final : public Peer {
 public:
  // clFFT's runtime is global: set up while any clFFT peer lives, torn down
  // with the last one (else clFFT warns at exit). Destroy peers before
  // releasing their OpenCL context.
  explicit ClfftPeer(const OpenCLHandles& cl) : cl_(cl) {
    std::lock_guard<std::mutex> lock(runtime_mutex());
    if (live_peers()++ == 0) {
      clfftSetupData data;
      clfftInitSetupData(&data);
      runtime_status() = clfftSetup(&data);
    }
    setup_status_ = runtime_status();
    // The library's own version, not the header's: radices 11 and 13 came in 2.12.
    cl_uint major = 0, minor = 0, patch = 0;
    if (clfftGetVersion(&major, &minor, &patch) == CLFFT_SUCCESS)
      radix_11_13_ = major > 2 || (major == 2 && minor >= 12);
  }
  ~ClfftPeer() override {
    release();
    std::lock_guard<std::mutex> lock(runtime_mutex());
    if (--live_peers() == 0 && runtime_status() == CLFFT_SUCCESS) clfftTeardown();
  }

  std::string name() const override { return "clFFT"; }

  std::string prepare(const PeerCase& c, const void* input) override {
    const QuietBuilds quiet;  // the OpenCL compiler's warning counts
    release();
    if (std::string why = c.problem(); !why.empty()) return why;
    if (c.r2r()) return "n/a (no DCT/DST)";
    if (!cl_.context || !cl_.queue) return "no OpenCL context/queue";
    if (std::string why = precision_unsupported(c, cl_.device); !why.empty()) return why;
    if (setup_status_ != CLFFT_SUCCESS) return status_text("clfftSetup", setup_status_);
    for (std::int64_t n : c.shape)
      if (std::string why = unsupported_axis(n, radix_11_13_); !why.empty()) return why;

    inverse_ = c.inverse;
    in_bytes_ = c.input_bytes();
    bytes_ = c.output_bytes();
    cl_int err = CL_SUCCESS;
    in_ = clCreateBuffer(cl_.context, CL_MEM_READ_WRITE, in_bytes_, nullptr, &err);
    if (err == CL_SUCCESS) out_ = clCreateBuffer(cl_.context, CL_MEM_READ_WRITE, bytes_, nullptr, &err);
    if (err == CL_SUCCESS)
      err = clEnqueueWriteBuffer(cl_.queue, in_, CL_TRUE, 0, in_bytes_, input, 0, nullptr, nullptr);
    if (err != CL_SUCCESS) {
      release();
      return "OpenCL buffer setup failed: " + std::to_string(err);
    }
    if (c.transform == Transform::C2R) {
      const auto* bytes = static_cast<const unsigned char*>(input);
      pristine_.assign(bytes, bytes + in_bytes_);
    }

    // clFFT lists lengths and strides innermost first (X, Y, Z): the shape
    // reversed. Row-major contiguous: stride of axis d is the product of the
    // axes inside it, counted in each side's own elements (a real side's
    // reals, a half spectrum's n/2 + 1 points along X); arrays are one
    // array's elements apart.
    const size_t rank = c.shape.size();
    size_t lens[3] = {1, 1, 1}, real_strides[3] = {1, 1, 1}, spectrum_strides[3] = {1, 1, 1};
    for (size_t d = 0; d < rank; ++d) {
      lens[d] = static_cast<size_t>(c.shape[rank - 1 - d]);
      if (d > 0) {
        real_strides[d] = real_strides[d - 1] * lens[d - 1];
        spectrum_strides[d] = spectrum_strides[d - 1] * (d == 1 && c.real() ? lens[0] / 2 + 1 : lens[d - 1]);
      }
    }
    const size_t real_dist = static_cast<size_t>(c.length()), spectrum_dist = static_cast<size_t>(c.complex_length());
    const bool real_in = c.transform == Transform::R2C, real_out = c.transform == Transform::C2R;
    size_t* in_strides = real_in ? real_strides : spectrum_strides;
    size_t* out_strides = real_out ? real_strides : spectrum_strides;
    const size_t in_dist = real_in ? real_dist : spectrum_dist, out_dist = real_out ? real_dist : spectrum_dist;
    const clfftLayout in_layout = real_in    ? CLFFT_REAL
                                  : c.real() ? CLFFT_HERMITIAN_INTERLEAVED
                                             : CLFFT_COMPLEX_INTERLEAVED;
    const clfftLayout out_layout = real_out   ? CLFFT_REAL
                                   : c.real() ? CLFFT_HERMITIAN_INTERLEAVED
                                              : CLFFT_COMPLEX_INTERLEAVED;
    const clfftDim dim = rank == 1 ? CLFFT_1D : rank == 2 ? CLFFT_2D : CLFFT_3D;
    const auto t0 = std::chrono::steady_clock::now();
    clfftStatus s = clfftCreateDefaultPlan(&plan_, cl_.context, dim, lens);
    if (s != CLFFT_SUCCESS) {
      release();
      return status_text("clfftCreateDefaultPlan", s);
    }
    have_plan_ = true;
    const char* call = "clfftSetPlanPrecision";
    s = clfftSetPlanPrecision(plan_, c.double_precision ? CLFFT_DOUBLE : CLFFT_SINGLE);
    if (s == CLFFT_SUCCESS) {
      call = "clfftSetLayout";
      s = clfftSetLayout(plan_, in_layout, out_layout);
    }
    if (s == CLFFT_SUCCESS) {
      call = "clfftSetResultLocation";
      s = clfftSetResultLocation(plan_, CLFFT_OUTOFPLACE);
    }
    if (s == CLFFT_SUCCESS) {
      call = "clfftSetPlanBatchSize";
      s = clfftSetPlanBatchSize(plan_, static_cast<size_t>(c.batch));
    }
    if (s == CLFFT_SUCCESS) {
      call = "clfftSetPlanInStride";
      s = clfftSetPlanInStride(plan_, dim, in_strides);
    }
    if (s == CLFFT_SUCCESS) {
      call = "clfftSetPlanOutStride";
      s = clfftSetPlanOutStride(plan_, dim, out_strides);
    }
    if (s == CLFFT_SUCCESS) {
      call = "clfftSetPlanDistance";
      s = clfftSetPlanDistance(plan_, in_dist, out_dist);
    }
    // clFFT scales the backward transform by 1/N by default; peers are unnormalised.
    if (s == CLFFT_SUCCESS) {
      call = "clfftSetPlanScale";
      s = clfftSetPlanScale(plan_, CLFFT_BACKWARD, 1.0f);
    }
    if (s == CLFFT_SUCCESS) {
      call = "clfftBakePlan";
      s = clfftBakePlan(plan_, 1, &cl_.queue, nullptr, nullptr);
    }
    plan_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (s != CLFFT_SUCCESS) {
      release();
      return status_text(call, s);
    }

    // Allocate the scratch buffer now so run() never allocates inside the timing.
    size_t tmp_bytes = 0;
    s = clfftGetTmpBufSize(plan_, &tmp_bytes);
    if (s != CLFFT_SUCCESS) {
      release();
      return status_text("clfftGetTmpBufSize", s);
    }
    if (tmp_bytes > 0) {
      tmp_ = clCreateBuffer(cl_.context, CL_MEM_READ_WRITE, tmp_bytes, nullptr, &err);
      if (err != CL_SUCCESS) {
        release();
        return "OpenCL scratch buffer failed: " + std::to_string(err);
      }
    }
    return "";
  }

  void run() override {
    // CLFFT_FORWARD is -1: exp(-2 pi i n k / N), the same as FFTW.
    const clfftStatus s = clfftEnqueueTransform(plan_, inverse_ ? CLFFT_BACKWARD : CLFFT_FORWARD, 1, &cl_.queue, 0,
                                                nullptr, nullptr, &in_, &out_, tmp_);
    if (s != CLFFT_SUCCESS) throw std::runtime_error(status_text("clfftEnqueueTransform", s));
  }
  void finish() override { clFinish(cl_.queue); }
  void refresh() override {
    if (!pristine_.empty())
      clEnqueueWriteBuffer(cl_.queue, in_, CL_TRUE, 0, in_bytes_, pristine_.data(), 0, nullptr, nullptr);
  }
  void result(void* output) override {
    clEnqueueReadBuffer(cl_.queue, out_, CL_TRUE, 0, bytes_, output, 0, nullptr, nullptr);
  }
  double plan_ms() const override { return plan_ms_; }

  void release() override {
    if (in_ || out_ || tmp_ || have_plan_) clFinish(cl_.queue);
    if (have_plan_) clfftDestroyPlan(&plan_);
    for (cl_mem* m : {&in_, &out_, &tmp_}) {
      if (*m) clReleaseMemObject(*m);
      *m = nullptr;
    }
    have_plan_ = false;
    pristine_.clear();
    pristine_.shrink_to_fit();
  }

 private:
  static std::mutex& runtime_mutex() {
    static std::mutex m;
    return m;
  }
  static int& live_peers() {
    static int n = 0;
    return n;
  }
  static clfftStatus& runtime_status() {
    static clfftStatus s = CLFFT_SUCCESS;
    return s;
  }

  OpenCLHandles cl_;
  clfftStatus setup_status_ = CLFFT_SUCCESS;
  clfftPlanHandle plan_ = 0;
  bool have_plan_ = false;
  bool radix_11_13_ = false;
  bool inverse_ = false;
  cl_mem in_ = nullptr, out_ = nullptr, tmp_ = nullptr;
  size_t bytes_ = 0;                     // of the output
  size_t in_bytes_ = 0;                  // of the input
  std::vector<unsigned char> pristine_;  // the input of a C2R case, for refresh()
  double plan_ms_ = 0;
};

}  // namespace

std::unique_ptr<Peer> make_clfft_peer(const OpenCLHandles& cl) { return std::make_unique<ClfftPeer>(cl); }

}  // namespace bfly::bench
