// FFTW on the host, with 1 or more threads: fftwf_* for fp32 cases, fftw_*
// for fp64 ones (when libfftw3_threads was found: BFLY_HAVE_FFTW_FP64);
// complex (dft), r2c, c2r and r2r (DCT / DST) plans.
#include <fftw3.h>

#include <chrono>
#include <cstring>
#include <mutex>
#include <vector>

#include "peer.hpp"

namespace bfly::bench {
namespace {

// The few FFTW calls the peer makes, one table per precision: the two
// libraries differ only in their prefix and complex type, so the peer holds
// untyped pointers and calls through the table of the case's precision.
struct FftwApi {
  const char* missing;  // non-null: why this precision is not built in
  void (*init_threads)();
  void (*plan_with_nthreads)(int threads);  // per library: fftw_ and fftwf_ keep their own
  void* (*alloc)(std::size_t points);
  void (*free)(void* data);
  void* (*plan_many)(int rank, const int* n, int batch, void* in, void* out, int dist, int sign, unsigned flags);
  // Real to half spectrum and back: in_dist / out_dist count each side's own elements.
  void* (*plan_many_r2c)(int rank, const int* n, int batch, void* in, void* out, int in_dist, int out_dist,
                         unsigned flags);
  void* (*plan_many_c2r)(int rank, const int* n, int batch, void* in, void* out, int in_dist, int out_dist,
                         unsigned flags);
  // Reals to reals, one kind per axis (fftw_r2r_kind is one enum for every precision).
  void* (*plan_many_r2r)(int rank, const int* n, int batch, void* in, void* out, int dist, const fftw_r2r_kind* kinds,
                         unsigned flags);
  void (*execute)(void* plan);
  void (*destroy)(void* plan);
};

// Contiguous batches (null embeds): stride 1, distance `dist`, for input and output.
const FftwApi kSingle{
    nullptr,
    [] { fftwf_init_threads(); },
    fftwf_plan_with_nthreads,
    [](std::size_t points) -> void* { return fftwf_alloc_complex(points); },
    [](void* data) { fftwf_free(data); },
    [](int rank, const int* n, int batch, void* in, void* out, int dist, int sign, unsigned flags) -> void* {
      return fftwf_plan_many_dft(rank, n, batch, static_cast<fftwf_complex*>(in), nullptr, 1, dist,
                                 static_cast<fftwf_complex*>(out), nullptr, 1, dist, sign, flags);
    },
    [](int rank, const int* n, int batch, void* in, void* out, int in_dist, int out_dist, unsigned flags) -> void* {
      return fftwf_plan_many_dft_r2c(rank, n, batch, static_cast<float*>(in), nullptr, 1, in_dist,
                                     static_cast<fftwf_complex*>(out), nullptr, 1, out_dist, flags);
    },
    [](int rank, const int* n, int batch, void* in, void* out, int in_dist, int out_dist, unsigned flags) -> void* {
      return fftwf_plan_many_dft_c2r(rank, n, batch, static_cast<fftwf_complex*>(in), nullptr, 1, in_dist,
                                     static_cast<float*>(out), nullptr, 1, out_dist, flags);
    },
    [](int rank, const int* n, int batch, void* in, void* out, int dist, const fftw_r2r_kind* kinds,
       unsigned flags) -> void* {
      return fftwf_plan_many_r2r(rank, n, batch, static_cast<float*>(in), nullptr, 1, dist, static_cast<float*>(out),
                                 nullptr, 1, dist, kinds, flags);
    },
    [](void* plan) { fftwf_execute(static_cast<fftwf_plan>(plan)); },
    [](void* plan) { fftwf_destroy_plan(static_cast<fftwf_plan>(plan)); },
};

#ifdef BFLY_HAVE_FFTW_FP64
const FftwApi kDouble{
    nullptr,
    [] { fftw_init_threads(); },
    fftw_plan_with_nthreads,
    [](std::size_t points) -> void* { return fftw_alloc_complex(points); },
    [](void* data) { fftw_free(data); },
    [](int rank, const int* n, int batch, void* in, void* out, int dist, int sign, unsigned flags) -> void* {
      return fftw_plan_many_dft(rank, n, batch, static_cast<fftw_complex*>(in), nullptr, 1, dist,
                                static_cast<fftw_complex*>(out), nullptr, 1, dist, sign, flags);
    },
    [](int rank, const int* n, int batch, void* in, void* out, int in_dist, int out_dist, unsigned flags) -> void* {
      return fftw_plan_many_dft_r2c(rank, n, batch, static_cast<double*>(in), nullptr, 1, in_dist,
                                    static_cast<fftw_complex*>(out), nullptr, 1, out_dist, flags);
    },
    [](int rank, const int* n, int batch, void* in, void* out, int in_dist, int out_dist, unsigned flags) -> void* {
      return fftw_plan_many_dft_c2r(rank, n, batch, static_cast<fftw_complex*>(in), nullptr, 1, in_dist,
                                    static_cast<double*>(out), nullptr, 1, out_dist, flags);
    },
    [](int rank, const int* n, int batch, void* in, void* out, int dist, const fftw_r2r_kind* kinds,
       unsigned flags) -> void* {
      return fftw_plan_many_r2r(rank, n, batch, static_cast<double*>(in), nullptr, 1, dist, static_cast<double*>(out),
                                nullptr, 1, dist, kinds, flags);
    },
    [](void* plan) { fftw_execute(static_cast<fftw_plan>(plan)); },
    [](void* plan) { fftw_destroy_plan(static_cast<fftw_plan>(plan)); },
};
#else
const FftwApi kDouble{"FFTW double (libfftw3, libfftw3_threads) not found at build time"};
#endif

// FFTW's kind for each DCT and DST type: REDFT for the DCT, RODFT for the
// DST, its two digits the input's and the output's shift by half a sample
// (type I 00, II 10, III 01, IV 11).
fftw_r2r_kind r2r_kind(R2RFamily family, int type) {
  static const fftw_r2r_kind kinds[2][4] = {{FFTW_REDFT00, FFTW_REDFT10, FFTW_REDFT01, FFTW_REDFT11},
                                            {FFTW_RODFT00, FFTW_RODFT10, FFTW_RODFT01, FFTW_RODFT11}};
  return kinds[family == R2RFamily::DST][type - 1];
}

class FftwPeer final : public Peer {
 public:
  explicit FftwPeer(int threads) : threads_(threads < 1 ? 1 : threads) {}
  ~FftwPeer() override { release(); }

  std::string name() const override {
    return threads_ == 1 ? "FFTW (1 thread)" : "FFTW (" + std::to_string(threads_) + " threads)";
  }

  std::string prepare(const PeerCase& c, const void* input) override {
    release();
    if (std::string why = c.problem(); !why.empty()) return why;
    const FftwApi& api = c.double_precision ? kDouble : kSingle;
    if (api.missing) return api.missing;
    // Each library's fftw*_init_threads must run once per process, before any planning.
    static std::once_flag once[2];
    std::call_once(once[c.double_precision], api.init_threads);
    // FFTW takes int sizes: each axis, the distance between arrays (length)
    // and the batch count must fit.
    const std::int64_t length = c.length(), spectrum = c.complex_length();
    if (length > INT32_MAX || c.batch > INT32_MAX) return "too large for FFTW's int sizes";
    api_ = &api;
    // Buffers in bytes, allocated as complex points (SIMD-aligned either way).
    const std::size_t in_bytes = c.input_bytes(), out_bytes = c.output_bytes();
    in_ = api.alloc((in_bytes + c.point_bytes() - 1) / c.point_bytes());
    out_ = api.alloc((out_bytes + c.point_bytes() - 1) / c.point_bytes());
    if (!in_ || !out_) {
      release();
      return "out of host memory";
    }
    in_bytes_ = in_bytes;
    bytes_ = out_bytes;

    // MEASURE takes seconds to minutes on big cases; ESTIMATE above 2^20 points.
    // c2r keeps FFTW's default FFTW_DESTROY_INPUT (its fastest algorithms;
    // multi-dimensional c2r has no other): refresh() restores the input.
    const unsigned flags = length * c.batch > (1 << 20) ? FFTW_ESTIMATE : FFTW_MEASURE;
    // FFTW's n[] is row-major, outermost first, as the shape; r2c / c2r halve the last.
    int n[3];
    const int rank = static_cast<int>(c.shape.size());
    for (int d = 0; d < rank; ++d) n[d] = static_cast<int>(c.shape[d]);
    const int batch = static_cast<int>(c.batch);
    const auto t0 = std::chrono::steady_clock::now();
    api.plan_with_nthreads(threads_);
    switch (c.transform) {
      case Transform::C2C:
        plan_ = api.plan_many(rank, n, batch, in_, out_, static_cast<int>(length),
                              c.inverse ? FFTW_BACKWARD : FFTW_FORWARD, flags);
        break;
      case Transform::R2C:
        plan_ =
            api.plan_many_r2c(rank, n, batch, in_, out_, static_cast<int>(length), static_cast<int>(spectrum), flags);
        break;
      case Transform::C2R:
        plan_ =
            api.plan_many_c2r(rank, n, batch, in_, out_, static_cast<int>(spectrum), static_cast<int>(length), flags);
        break;
      case Transform::R2R: {
        const fftw_r2r_kind kind = r2r_kind(c.family, c.type);
        const fftw_r2r_kind kinds[3] = {kind, kind, kind};
        plan_ = api.plan_many_r2r(rank, n, batch, in_, out_, static_cast<int>(length), kinds, flags);
        break;
      }
    }
    plan_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (!plan_) {
      release();
      return c.transform == Transform::C2C   ? "fftw_plan_many_dft failed"
             : c.transform == Transform::R2C ? "fftw_plan_many_dft_r2c failed"
             : c.transform == Transform::C2R ? "fftw_plan_many_dft_c2r failed"
                                             : "fftw_plan_many_r2r failed";
    }
    // Copy after planning: MEASURE overwrites the arrays while it plans.
    // Out-of-place complex, r2c and r2r transforms leave the input intact
    // (FFTW_DESTROY_INPUT is the default of c2r only), so run() repeats; c2r
    // keeps a copy for refresh().
    std::memcpy(in_, input, in_bytes_);
    if (c.transform == Transform::C2R) {
      const auto* bytes = static_cast<const unsigned char*>(input);
      pristine_.assign(bytes, bytes + in_bytes_);
    }
    return "";
  }

  void run() override { api_->execute(plan_); }
  void finish() override {}
  void refresh() override {
    if (!pristine_.empty()) std::memcpy(in_, pristine_.data(), in_bytes_);
  }
  void result(void* output) override { std::memcpy(output, out_, bytes_); }
  double plan_ms() const override { return plan_ms_; }

  void release() override {
    if (!api_) return;
    if (plan_) api_->destroy(plan_);
    if (in_) api_->free(in_);
    if (out_) api_->free(out_);
    plan_ = in_ = out_ = nullptr;
    api_ = nullptr;
    bytes_ = in_bytes_ = 0;
    pristine_.clear();
    pristine_.shrink_to_fit();
  }

 private:
  int threads_;
  const FftwApi* api_ = nullptr;  // the prepared case's precision; null: nothing prepared
  void* plan_ = nullptr;
  void* in_ = nullptr;
  void* out_ = nullptr;
  std::size_t bytes_ = 0;                // of the output
  std::size_t in_bytes_ = 0;             // of the input
  std::vector<unsigned char> pristine_;  // the input of a c2r case, for refresh()
  double plan_ms_ = 0;
};

}  // namespace

std::unique_ptr<Peer> make_fftw_peer(int threads) { return std::make_unique<FftwPeer>(threads); }

}  // namespace bfly::bench
