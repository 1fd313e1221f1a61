// Proves each peer wrapper computes the transform bfly means (direction,
// axis order, batch layout, no 1/N on the inverse): compares every ready peer
// against a double-precision reference computed here (naive DFT along each
// axis; double FFTW for cases too big for that). Real transforms too: R2C of
// real arrays against the first n/2 + 1 points (last axis) of their complex
// DFT, and C2R of that half spectrum against N times the arrays (after
// runs that may have worked in the input, and refresh()). Usage:
//   bfly_peer_selftest [--cuda] [shape...]   shape: N, AxB or AxBxC (outermost first)
// Default: FFTW and the OpenCL peers (first OpenCL device), plus a check that
// the CUDA plugin loader answers (a machine without CUDA prints why and does
// not fail). --cuda: FFTW and the CUDA peers on CUDA device 0 instead of the
// OpenCL ones; then a missing plugin/driver/device is a setup failure.
// Exits 1 if a ready peer is above 1e-5 relative L2 error, 2 on setup failure.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <random>
#include <string>
#include <vector>

#include "peer.hpp"
#ifdef BFLY_HAVE_OPENCL_PEERS
#include "opencl_peers.hpp"
#endif

#ifdef BFLY_SELFTEST_FFTW_DOUBLE
#include <fftw3.h>
#endif

using bfly::bench::Peer;
using cf = std::complex<float>;
using cd = std::complex<double>;

namespace {

// The shape as written on the command line: "64x48".
std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string t;
  for (std::int64_t s : shape) t += (t.empty() ? "" : "x") + std::to_string(s);
  return t;
}

// y[k] = sum_n x[n] exp(sign 2 pi i n k / N) along each axis in turn (a
// multi-dimensional DFT is the 1D DFT over every axis), for all batch arrays
// at once; exact twiddle table indexed by (n*k) mod N keeps the reference near
// 1e-15. Costs size * sum(shape) multiply-adds.
std::vector<cd> naive_dft(const std::vector<cf>& x, const std::vector<std::int64_t>& shape, bool inverse) {
  const double sign = inverse ? 1.0 : -1.0;
  std::vector<cd> y(x.begin(), x.end()), line;
  const std::int64_t size = static_cast<std::int64_t>(y.size());
  std::int64_t inner = 1;  // stride of the axis: the product of the axes inside it (row-major)
  for (size_t d = shape.size(); d-- > 0;) {
    const std::int64_t n = shape[d];
    std::vector<cd> w(n);
    for (std::int64_t j = 0; j < n; ++j) w[j] = std::polar(1.0, sign * 2.0 * M_PI * double(j) / double(n));
    line.assign(n, 0);
    for (std::int64_t o = 0; o < size / (n * inner); ++o)
      for (std::int64_t i = 0; i < inner; ++i) {
        cd* a = y.data() + o * n * inner + i;
        for (std::int64_t k = 0; k < n; ++k) {
          cd acc = 0;
          for (std::int64_t j = 0, idx = 0; j < n; ++j) {
            acc += a[j * inner] * w[idx];
            idx += k;  // (j*k) mod n, k < n
            if (idx >= n) idx -= n;
          }
          line[k] = acc;
        }
        for (std::int64_t k = 0; k < n; ++k) a[k * inner] = line[k];
      }
    inner *= n;
  }
  return y;
}

#ifdef BFLY_SELFTEST_FFTW_DOUBLE
// Double FFTW over every axis (n[] row-major as the shape), contiguous batches.
// False when the sizes do not fit FFTW's ints.
bool fftw_double(const std::vector<cf>& x, const std::vector<std::int64_t>& shape, std::int64_t batch, bool inverse,
                 std::vector<cd>& ref) {
  const std::int64_t length = static_cast<std::int64_t>(x.size()) / batch;
  if (length > INT32_MAX || batch > INT32_MAX) return false;
  int n[3];
  const int rank = static_cast<int>(shape.size());
  for (int d = 0; d < rank; ++d) n[d] = static_cast<int>(shape[d]);
  std::vector<cd> in(x.begin(), x.end());
  ref.assign(x.size(), 0);
  const int dist = static_cast<int>(length);
  fftw_plan plan = fftw_plan_many_dft(rank, n, static_cast<int>(batch), reinterpret_cast<fftw_complex*>(in.data()),
                                      nullptr, 1, dist, reinterpret_cast<fftw_complex*>(ref.data()), nullptr, 1, dist,
                                      inverse ? FFTW_BACKWARD : FFTW_FORWARD, FFTW_ESTIMATE);
  if (!plan) return false;
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  return true;
}
#endif

// The naive DFT while it is cheap; double FFTW beyond that, when it was found.
// *cross is the relative L2 gap between the two when both ran (checks the
// reference itself, FFTW's axis order included), else -1.
bool reference(const std::vector<cf>& x, const std::vector<std::int64_t>& shape, std::int64_t batch, bool inverse,
               std::vector<cd>& ref, double* cross) {
  *cross = -1;
  std::int64_t axes_sum = 0;
  for (std::int64_t s : shape) axes_sum += s;
  const bool naive = static_cast<std::int64_t>(x.size()) * axes_sum <= (std::int64_t(1) << 28);
  if (naive) ref = naive_dft(x, shape, inverse);
#ifdef BFLY_SELFTEST_FFTW_DOUBLE
  std::vector<cd> f;
  if (fftw_double(x, shape, batch, inverse, f)) {
    if (!naive) {
      ref = std::move(f);
      return true;
    }
    double num = 0, den = 0;
    for (size_t i = 0; i < f.size(); ++i) {
      num += std::norm(f[i] - ref[i]);
      den += std::norm(ref[i]);
    }
    *cross = std::sqrt(num / den);
  }
#else
  (void)batch;
#endif
  return naive;
}

double rel_l2(const std::vector<cf>& y, const std::vector<cd>& ref) {
  double num = 0, den = 0;
  for (size_t i = 0; i < y.size(); ++i) {
    num += std::norm(cd(y[i]) - ref[i]);
    den += std::norm(ref[i]);
  }
  return std::sqrt(num / den);  // NaN (poison left in place) compares false below: handled by caller
}

// Tests one prepared peer: one run, then two runs, to catch peers that
// destroy their input (the bench repeats run() on one prepared case).
// Returns the worst relative L2 error (NaN/inf when broken); throws what the peer throws.
double check_runs(Peer& p, std::vector<cf>& y, const std::vector<cd>& ref) {
  double err_max = 0;
  for (int reps : {1, 2}) {
    for (auto& v : y) v = cf(NAN, NAN);  // poison: unwritten elements show as NaN
    for (int r = 0; r < reps; ++r) p.run();
    p.finish();
    p.result(y.data());
    const double e = rel_l2(y, ref);
    if (!(e <= err_max)) err_max = e;  // keeps NaN
  }
  return err_max;
}

// Relative L2 error of `count` scalars (float) against `ref` (double).
double rel_l2_scalars(const float* y, const double* ref, std::size_t count) {
  double num = 0, den = 0;
  for (std::size_t i = 0; i < count; ++i) {
    num += (double(y[i]) - ref[i]) * (double(y[i]) - ref[i]);
    den += ref[i] * ref[i];
  }
  return std::sqrt(num / den);
}

// The first n/2 + 1 points along the last axis of each row of `full`.
std::vector<cd> half_spectrum(const std::vector<cd>& full, std::int64_t n) {
  const std::int64_t kept = n / 2 + 1;
  std::vector<cd> half;
  for (std::size_t row = 0; row < full.size() / n; ++row)
    half.insert(half.end(), full.begin() + row * n, full.begin() + row * n + kept);
  return half;
}

}  // namespace

int main(int argc, char** argv) {
  struct Case {
    std::vector<std::int64_t> shape;
    std::int64_t batch;
  };
  bool cuda = false;
  std::vector<Case> cases;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--cuda") == 0) {
      cuda = true;
      continue;
    }
    // "AxBxC": 1 to 3 axes, each >= 1.
    std::vector<std::int64_t> shape;
    for (const char* p = argv[i];;) {
      char* end = nullptr;
      shape.push_back(std::strtoll(p, &end, 10));
      if (end == p || shape.back() < 1) break;
      if (*end == 'x') {
        p = end + 1;
        continue;
      }
      if (*end != '\0') shape.back() = 0;
      break;
    }
    if (shape.size() > 3 || shape.back() < 1) {
      std::fprintf(stderr, "bad shape '%s' (want N, AxB or AxBxC)\n", argv[i]);
      return 2;
    }
    cases.push_back({shape, shape.size() == 1 ? 4 : 2});
  }
  if (cases.empty()) {
    // 1D: powers of 2, 3 and a mixed radix. 2D/3D: non-square, a tiny outer
    // axis over a long inner one, and three distinct axes, so a swapped axis
    // order or stride shows. 17x64: an axis clFFT refuses (reason, not failure).
    for (std::int64_t n : {64, 1000, 4096, 2187}) cases.push_back({{n}, 4});
    for (auto shape : std::vector<std::vector<std::int64_t>>{{64, 48}, {7, 4096}, {16, 12, 10}, {17, 64}})
      cases.push_back({shape, 2});
  }
#ifdef BFLY_SELFTEST_CUDA_PLUGIN
  // This binary is not beside the plugin (bfly is); an explicit setting wins.
  setenv("BFLY_CUDA_PEERS", BFLY_SELFTEST_CUDA_PLUGIN, 0);
#endif

  bfly::bench::enlarge_thread_stacks();  // before the first OpenCL call (see peer.hpp)
  for (const auto& a : bfly::bench::absent_peers()) std::printf("absent: %s\n", a.c_str());
  std::vector<std::unique_ptr<Peer>> peers;
  peers.push_back(bfly::bench::make_fftw_peer(1));
  peers.push_back(bfly::bench::make_fftw_peer(2));

#ifdef BFLY_HAVE_OPENCL_PEERS
  cl_context context = nullptr;
  cl_command_queue queue = nullptr;
  if (!cuda) {
    // First device of the first platform (PoCL's CPU device on the dev machine).
    cl_platform_id platform = nullptr;
    cl_device_id device = nullptr;
    cl_int err = clGetPlatformIDs(1, &platform, nullptr);
    if (err == CL_SUCCESS) err = clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device, nullptr);
    if (err != CL_SUCCESS) {
      std::fprintf(stderr, "no OpenCL device: %d\n", err);
      return 2;
    }
    char dev_name[256] = {};
    clGetDeviceInfo(device, CL_DEVICE_NAME, sizeof dev_name, dev_name, nullptr);
    context = clCreateContext(nullptr, 1, &device, nullptr, nullptr, &err);
    queue = err == CL_SUCCESS ? clCreateCommandQueue(context, device, 0, &err) : nullptr;
    if (err != CL_SUCCESS) {
      std::fprintf(stderr, "OpenCL context/queue failed: %d\n", err);
      return 2;
    }
    std::printf("OpenCL device: %s\n", dev_name);
    const bfly::bench::OpenCLHandles cl{context, queue, device};
    peers.push_back(bfly::bench::make_clfft_peer(cl));
    peers.push_back(bfly::bench::make_vkfft_peer(cl));
  }
#endif

  {
    std::string why;
    auto cuda_peers = bfly::bench::make_cuda_peers(0, &why);
    std::string names;
    for (const auto& p : cuda_peers) names += (names.empty() ? "" : ", ") + p->name();
    if (!names.empty()) std::printf("CUDA peers on device 0: %s\n", names.c_str());
    if (!why.empty()) std::printf("CUDA peers unavailable: %s\n", why.c_str());
    if (cuda) {
      if (cuda_peers.empty()) {
        std::fprintf(stderr, "--cuda: no CUDA peer could be created\n");
        return 2;
      }
      for (auto& p : cuda_peers) peers.push_back(std::move(p));
    } else if (cuda_peers.empty()) {
      std::printf("  (not a failure without --cuda: the loader answered with a reason)\n");
    } else {
      std::printf("  (run with --cuda to test them)\n");
    }
  }
  peers.erase(std::remove(peers.begin(), peers.end(), nullptr), peers.end());  // not built in

  std::mt19937 rng(12345);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  bool failed = false;
  std::printf("%-18s %-10s %5s %-8s %12s %10s  %s\n", "peer", "shape", "batch", "dir", "rel L2 err", "plan ms",
              "status");
  for (const Case& tc : cases) {
    const std::string shape = shape_text(tc.shape);
    const std::int64_t batch = tc.batch;
    std::int64_t length = 1;
    for (std::int64_t s : tc.shape) length *= s;
    for (bool inverse : {false, true}) {
      const char* dir = inverse ? "inverse" : "forward";
      std::vector<cf> x(length * batch), y(length * batch);
      for (auto& v : x) v = cf(dist(rng), dist(rng));  // fresh input, never zeros
      std::vector<cd> ref;
      double cross = -1;
      if (!reference(x, tc.shape, batch, inverse, ref, &cross)) {
        std::printf("shape %s: too large for the naive DFT and no double FFTW: skipped\n", shape.c_str());
        continue;
      }
      if (cross >= 0 || std::isnan(cross)) {
        // Both references ran: they must agree far below the peers' bound.
        const bool ok = cross <= 1e-12;
        failed |= !ok;
        std::printf("%-18s %-10s %5lld %-8s %12.3e %10s  %s\n", "(ref: naive/FFTW)", shape.c_str(), (long long)batch,
                    dir, cross, "-", ok ? "ok" : "FAIL (> 1e-12)");
      }
      for (auto& p : peers) {
        std::string why, status;
        double err = NAN;
        try {
          why = p->prepare({tc.shape, batch, inverse}, x.data());
          if (why.empty()) err = check_runs(*p, y, ref);
        } catch (const std::exception& e) {
          status = std::string("FAIL (threw: ") + e.what() + ")";
        }
        if (status.empty() && !why.empty()) {
          std::printf("%-18s %-10s %5lld %-8s %12s %10s  unsupported: %s\n", p->name().c_str(), shape.c_str(),
                      (long long)batch, dir, "-", "-", why.c_str());
          continue;
        }
        if (status.empty()) status = err <= 1e-5 ? "ok" : "FAIL (> 1e-5)";  // NaN fails too
        failed |= status != "ok";
        std::printf("%-18s %-10s %5lld %-8s %12.3e %10.1f  %s\n", p->name().c_str(), shape.c_str(), (long long)batch,
                    dir, err, p->plan_ms(), status.c_str());
        std::fflush(stdout);
        p->release();
      }
    }
  }
  // Real transforms on the same shapes: one R2C and one C2R per peer.
  for (const Case& tc : cases) {
    const std::string shape = shape_text(tc.shape);
    const std::int64_t batch = tc.batch, n = tc.shape.back();
    std::int64_t length = 1;
    for (std::int64_t s : tc.shape) length *= s;
    std::vector<cf> x(length * batch);
    for (auto& v : x) v = cf(dist(rng), 0.0f);
    std::vector<cd> full;
    double cross = -1;
    if (!reference(x, tc.shape, batch, false, full, &cross)) continue;  // said above
    const std::vector<cd> half = half_spectrum(full, n);
    std::vector<float> real_x(x.size());
    for (size_t i = 0; i < x.size(); ++i) real_x[i] = x[i].real();
    std::vector<cf> spectrum(half.begin(), half.end());  // C2R's input: a real array's half spectrum
    std::vector<double> scaled(x.size());                // C2R's answer: N x
    for (size_t i = 0; i < x.size(); ++i) scaled[i] = double(length) * x[i].real();
    for (auto& p : peers) {
      for (bool inverse : {false, true}) {
        const char* dir = inverse ? "c2r" : "r2c";
        const bfly::bench::PeerCase pc{tc.shape, batch, inverse, false,
                                       inverse ? bfly::bench::Transform::C2R : bfly::bench::Transform::R2C};
        std::string why, status;
        double err = NAN;
        try {
          why = p->prepare(pc, inverse ? static_cast<const void*>(spectrum.data()) : real_x.data());
          if (why.empty()) {
            std::vector<float> y(pc.output_bytes() / sizeof(float), NAN);  // poison
            p->run();
            if (inverse) {  // runs that may work in the input, then the input put back
              p->run();
              p->finish();
              p->refresh();
              p->run();
            }
            p->finish();
            p->result(y.data());
            err = inverse ? rel_l2_scalars(y.data(), scaled.data(), scaled.size())
                          : rel_l2_scalars(y.data(), reinterpret_cast<const double*>(half.data()), 2 * half.size());
          }
        } catch (const std::exception& e) {
          status = std::string("FAIL (threw: ") + e.what() + ")";
        }
        if (status.empty() && !why.empty()) {
          std::printf("%-18s %-10s %5lld %-8s %12s %10s  unsupported: %s\n", p->name().c_str(), shape.c_str(),
                      (long long)batch, dir, "-", "-", why.c_str());
          continue;
        }
        if (status.empty()) status = err <= 1e-5 ? "ok" : "FAIL (> 1e-5)";
        failed |= status != "ok";
        std::printf("%-18s %-10s %5lld %-8s %12.3e %10.1f  %s\n", p->name().c_str(), shape.c_str(), (long long)batch,
                    dir, err, p->plan_ms(), status.c_str());
        std::fflush(stdout);
        p->release();
      }
    }
  }
  peers.clear();  // before the OpenCL queue/context they borrow
#ifdef BFLY_HAVE_OPENCL_PEERS
  if (queue) clReleaseCommandQueue(queue);
  if (context) clReleaseContext(context);
#endif
  std::printf(failed ? "FAILED\n" : "all ready peers within 1e-5\n");
  return failed ? 1 : 0;
}
