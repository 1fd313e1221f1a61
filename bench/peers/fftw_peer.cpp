// FFTW (single precision) on the host, with 1 or more threads.
#include <fftw3.h>

#include <chrono>
#include <cstring>
#include <mutex>

#include "peer.hpp"

namespace bfly::bench {
namespace {

class FftwPeer final : public Peer {
 public:
  explicit FftwPeer(int threads) : threads_(threads < 1 ? 1 : threads) {
    // fftwf_init_threads must run once per process, before any planning.
    static std::once_flag once;
    std::call_once(once, [] { fftwf_init_threads(); });
  }
  ~FftwPeer() override { release(); }

  std::string name() const override {
    return threads_ == 1 ? "FFTW (1 thread)" : "FFTW (" + std::to_string(threads_) + " threads)";
  }

  std::string prepare(const PeerCase& c, const std::complex<float>* input) override {
    release();
    if (std::string why = c.problem(); !why.empty()) return why;
    // FFTW takes int sizes: each axis, the distance between arrays (length)
    // and the batch count must fit.
    const std::int64_t length = c.length();
    if (length > INT32_MAX || c.batch > INT32_MAX) return "too large for FFTW's int sizes";
    const std::int64_t total = length * c.batch;
    in_ = fftwf_alloc_complex(static_cast<size_t>(total));
    out_ = fftwf_alloc_complex(static_cast<size_t>(total));
    if (!in_ || !out_) { release(); return "out of host memory"; }
    points_ = total;

    // MEASURE takes seconds to minutes on big cases; ESTIMATE above 2^20 points.
    const unsigned flags = total > (1 << 20) ? FFTW_ESTIMATE : FFTW_MEASURE;
    // FFTW's n[] is row-major, outermost first, as the shape.
    int n[3];
    const int rank = static_cast<int>(c.shape.size());
    for (int d = 0; d < rank; ++d) n[d] = static_cast<int>(c.shape[d]);
    const int dist = static_cast<int>(length);
    const auto t0 = std::chrono::steady_clock::now();
    fftwf_plan_with_nthreads(threads_);
    // Contiguous batches (null embeds): stride 1, distance length, for input and output.
    plan_ = fftwf_plan_many_dft(rank, n, static_cast<int>(c.batch), in_, nullptr, 1, dist, out_,
                                nullptr, 1, dist, c.inverse ? FFTW_BACKWARD : FFTW_FORWARD, flags);
    plan_ms_ = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
    if (!plan_) { release(); return "fftwf_plan_many_dft failed"; }
    // Copy after planning: MEASURE overwrites the arrays while it plans.
    // Out-of-place complex transforms leave the input intact, so run() repeats.
    std::memcpy(in_, input, static_cast<size_t>(total) * sizeof(fftwf_complex));
    return "";
  }

  void run() override { fftwf_execute(plan_); }
  void finish() override {}
  void result(std::complex<float>* output) override {
    std::memcpy(static_cast<void*>(output), out_, static_cast<size_t>(points_) * sizeof(fftwf_complex));
  }
  double plan_ms() const override { return plan_ms_; }

  void release() override {
    if (plan_) fftwf_destroy_plan(plan_);
    if (in_) fftwf_free(in_);
    if (out_) fftwf_free(out_);
    plan_ = nullptr;
    in_ = out_ = nullptr;
    points_ = 0;
  }

 private:
  int threads_;
  fftwf_plan plan_ = nullptr;
  fftwf_complex* in_ = nullptr;
  fftwf_complex* out_ = nullptr;
  std::int64_t points_ = 0;
  double plan_ms_ = 0;
};

}  // namespace

std::unique_ptr<Peer> make_fftw_peer(int threads) { return std::make_unique<FftwPeer>(threads); }

}  // namespace bfly::bench
