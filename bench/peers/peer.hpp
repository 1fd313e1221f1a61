// Peer FFT libraries that `bfly bench` times beside bfly, in the same process
// on the same data. Each peer owns its buffers; the bench hands it a host copy
// of the input and reads the output back for the accuracy column.
// No device API headers here: the OpenCL peers are declared in
// opencl_peers.hpp, the CUDA peers live in a plugin (cuda_plugin.hpp).
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace bfly::bench {

// What a case transforms: complex to complex, real data and the
// non-redundant half of its spectrum (FFTW's r2c / c2r, cuFFT's R2C / C2R),
// or reals to reals of the same shape (a DCT or DST: FFTW's r2r).
enum class Transform { C2C, R2C, C2R, R2R };

// Which real-to-real transform (Transform::R2R).
enum class R2RFamily { DCT, DST };

// A transform over every axis of `shape` (1D, 2D or 3D, row-major,
// contiguous), `batch` arrays one after another, out-of-place, unnormalised
// (inverse without 1/N, like FFTW). Forward is exp(-2 pi i n k / N). Data are
// complex<float> and float (fp32), or complex<double> and double (fp64) when
// double_precision. Real transforms (R2C forward, C2R inverse): `shape` is the
// real array's; the complex side holds n/2 + 1 points along the innermost
// (last) axis, as FFTW, cuFFT, clFFT and VkFFT all lay it out; both sides
// contiguous, arrays length() reals or complex_length() points apart.
// A DCT or DST (R2R): reals in and out, `shape` on both sides, every axis
// transformed with the same type, FFTW's unnormalised definitions (REDFT00,
// 10, 01, 11 for DCT-I..IV, RODFT.. for the DST), which are scipy.fft's
// norm=None forward transforms. Always forward: an inverse is asked for as
// the forward transform of the type it computes (scipy's idct of type 2 is
// an unscaled type 3, and of type 3 a type 2; types 1 and 4 are their own).
struct PeerCase {
  std::vector<std::int64_t> shape;  // outermost first, as NumPy; the real shape for R2C / C2R
  std::int64_t batch = 1;
  bool inverse = false;  // true for C2R
  bool double_precision = false;
  Transform transform = Transform::C2C;
  R2RFamily family = R2RFamily::DCT;  // R2R only
  int type = 2;                       // R2R only: 1..4

  // A transform with a real side and a half spectrum (R2C, C2R); not R2R.
  bool real() const { return transform == Transform::R2C || transform == Transform::C2R; }
  bool r2r() const { return transform == Transform::R2R; }
  // Bytes of one complex point, and of one real.
  std::size_t point_bytes() const {
    return double_precision ? sizeof(std::complex<double>) : sizeof(std::complex<float>);
  }
  std::size_t real_bytes() const { return point_bytes() / 2; }
  // Points of one array: the product of shape.
  std::int64_t length() const {
    std::int64_t n = 1;
    for (std::int64_t s : shape) n *= s;
    return n;
  }
  // Complex points of one array's spectrum: length() for C2C; for a real
  // transform the product of shape with the last axis n/2 + 1.
  std::int64_t complex_length() const {
    if (!real()) return length();
    std::int64_t n = shape.back() / 2 + 1;
    for (std::size_t d = 0; d + 1 < shape.size(); ++d) n *= shape[d];
    return n;
  }
  // Bytes of all batch arrays on the input and the output side.
  std::size_t input_bytes() const {
    return static_cast<std::size_t>(batch) * (transform == Transform::R2C || r2r()
                                                  ? static_cast<std::size_t>(length()) * real_bytes()
                                                  : static_cast<std::size_t>(complex_length()) * point_bytes());
  }
  std::size_t output_bytes() const {
    return static_cast<std::size_t>(batch) * (transform == Transform::C2R || r2r()
                                                  ? static_cast<std::size_t>(length()) * real_bytes()
                                                  : static_cast<std::size_t>(complex_length()) * point_bytes());
  }
  // "dct2", "dst4" (R2R only).
  std::string r2r_name() const { return (family == R2RFamily::DCT ? "dct" : "dst") + std::to_string(type); }
  // "" when the case is well formed: 1 to 3 axes, every axis and batch >= 1,
  // and length()*batch points (in bytes) fit int64, so peers may multiply
  // freely; R2C forward, C2R inverse, R2R forward of type 1..4 (DCT-I with
  // at least 2 points an axis). Else a short reason, which prepare()
  // returns as is.
  std::string problem() const {
    if (shape.empty() || shape.size() > 3) return "bad case: needs 1 to 3 axes";
    if (batch < 1) return "bad case: batch < 1";
    if (transform == Transform::R2C && inverse) return "bad case: an R2C transform is forward";
    if (transform == Transform::C2R && !inverse) return "bad case: a C2R transform is inverse";
    if (r2r() && inverse) return "bad case: an R2R transform is forward (the inverse's type instead)";
    if (r2r() && (type < 1 || type > 4)) return "bad case: R2R type is 1..4";
    if (r2r() && family == R2RFamily::DCT && type == 1)
      for (std::int64_t s : shape)
        if (s < 2) return "bad case: a DCT-I axis needs 2 points";
    std::int64_t points = batch;
    const std::int64_t max_points = INT64_MAX / static_cast<std::int64_t>(point_bytes());
    for (std::int64_t s : shape) {
      if (s < 1) return "bad case: axis < 1";
      if (points > max_points / s) return "bad case: too many points";
      points *= s;
    }
    return "";
  }
};

// "" when VkFFT (1.2.26 in Debian's libvkfft-dev; either backend) can take
// the case as far as R2R goes, else why not: it has the DCT (performDCT,
// types 1-4) and no DST (performDST came in later releases), and the peers
// drop length-1 axes, which is right for a DFT only (a DCT-II of one point
// doubles it).
//
// Its DCT-III and DCT-IV kernels for an axis whose length has a prime
// factor above 13 (its Bluestein lengths) crash: a segfault inside the
// kernel on PoCL 3.1 (every length 2..160 and 194, 289, 1009, 2039, 4093,
// in place or out, any stack size, useLUT or disableMergeSequencesR2C), and
// cudaErrorIllegalAddress on an H200 (1025 = 5^2 41, 2026-11-26: bfly alone
// ran it), which ends the process's use of the device. They are refused
// instead of run. DCT-I and DCT-II of those lengths run and agree with FFTW.
inline std::string vkfft_r2r_unsupported(const PeerCase& c) {
  if (!c.r2r()) return "";
  if (c.family == R2RFamily::DST) return "n/a (no DST in VkFFT 1.2.26)";
  for (std::int64_t s : c.shape)
    if (s == 1) return "no length-1 DCT axis in VkFFT";
  if (c.type == 3 || c.type == 4)
    for (std::int64_t n : c.shape) {
      std::int64_t m = n;
      for (std::int64_t p : {2, 3, 5, 7, 11, 13})
        while (m % p == 0) m /= p;
      if (m > 1) return "VkFFT 1.2.26: its DCT-III/IV of a length with a prime factor above 13 crashes";
    }
  return "";
}

class Peer {
 public:
  // Peers from the CUDA plugin are created and deleted inside it; deleting
  // one through this base from the main program is fine (virtual, and both
  // sides use the same libstdc++ and operator delete).
  virtual ~Peer() = default;
  // "FFTW (1 thread)", "FFTW (2 threads)", "clFFT", "VkFFT", "cuFFT"
  virtual std::string name() const = 0;
  // Prepares the case on the peer's own buffers with a copy of `input`
  // (c.input_bytes(): complex<float> / complex<double> points, or float /
  // double for R2C and R2R). Returns "" when ready, or a short reason why this size,
  // precision or kind is unsupported / failed (never throws for that).
  virtual std::string prepare(const PeerCase& c, const void* input) = 0;
  // Enqueue/perform one transform of the prepared case (device peers: no wait).
  // C2C, R2C and R2R never overwrite their input, so run() repeats on it. A C2R
  // may (FFTW's multi-dimensional c2r and cuFFT's C2R say they do, VkFFT's and
  // clFFT's multi-axis inverses work in their input): repeated C2R runs then
  // transform what the last one left, which takes the same time; refresh()
  // puts the input back before a run whose result is checked.
  virtual void run() = 0;
  // Wait until everything run() started is done.
  virtual void finish() = 0;
  // Restores the prepared input on the peer's buffers (blocking; a no-op
  // where run() cannot have changed it).
  virtual void refresh() = 0;
  // Copies the output of the last run() to host (c.output_bytes(), in the
  // prepared case's precision).
  virtual void result(void* output) = 0;
  // Time prepare() spent planning/compiling (ms).
  virtual double plan_ms() const = 0;
  // Frees the case's buffers and plans (also done by the destructor).
  virtual void release() = 0;
};

// nullptr when FFTW was not found at build time.
std::unique_ptr<Peer> make_fftw_peer(int threads);

// Peers running on CUDA device `ordinal` from the plugin libbfly_cuda_peers.so
// (looked up next to the running executable via /proc/self/exe, then via
// $BFLY_CUDA_PEERS (the file, or its directory), then the loader's search
// path). Empty with *why set when the plugin or a peer is unavailable; *why
// also names a missing peer when the others load. The plugin stays loaded for
// the life of the process (the peers' code lives in it). Every peer call makes
// the device's primary context (the one bfly's CUDA backend uses) current on
// the calling thread, so any thread may drive them.
std::vector<std::unique_ptr<Peer>> make_cuda_peers(int ordinal, std::string* why);

// Gives the threads created from now on a stack of at least 64 MiB (glibc's
// default is RLIMIT_STACK, usually 8 MiB). PoCL runs each work-group on such a
// thread, with every work-item's private arrays on its stack: VkFFT's kernels
// for primes of about 3e4..6.6e4 (4096 work-items) overflow 8 MiB and kill
// the process (measured, PoCL 3.1: 30011, 32749, 40009, 65521 segfault; all
// pass with 64 MiB). Call before the first OpenCL call, so PoCL's threads get it.
void enlarge_thread_stacks();

// The peers that were NOT compiled in, each with why (empty when all are),
// (e.g. "clFFT: not found at build time").
std::vector<std::string> absent_peers();

}  // namespace bfly::bench
