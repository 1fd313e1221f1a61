// Proves each peer wrapper computes the transform bfly means (direction,
// batch layout, no 1/N on the inverse): compares every ready peer against a
// naive double-precision DFT. Usage: bfly_peer_selftest [--cuda] [length...]
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

// y[k] = sum_n x[n] exp(sign 2 pi i n k / N), per batch; exact twiddle table
// indexed by (n*k) mod N keeps the reference near 1e-15.
std::vector<cd> naive_dft(const std::vector<cf>& x, std::int64_t n, std::int64_t batch, bool inverse) {
  const double sign = inverse ? 1.0 : -1.0;
  std::vector<cd> w(n), y(x.size());
  for (std::int64_t j = 0; j < n; ++j) w[j] = std::polar(1.0, sign * 2.0 * M_PI * double(j) / double(n));
  for (std::int64_t b = 0; b < batch; ++b)
    for (std::int64_t k = 0; k < n; ++k) {
      cd acc = 0;
      for (std::int64_t i = 0, idx = 0; i < n; ++i, idx = (idx + k) % n) acc += cd(x[b * n + i]) * w[idx];
      y[b * n + k] = acc;
    }
  return y;
}

// Naive DFT while it is cheap; FFTW in double beyond that, when it was found.
bool reference(const std::vector<cf>& x, std::int64_t n, std::int64_t batch, bool inverse, std::vector<cd>& ref) {
  if (n * n * batch <= (std::int64_t(1) << 28)) {
    ref = naive_dft(x, n, batch, inverse);
    return true;
  }
#ifdef BFLY_SELFTEST_FFTW_DOUBLE
  std::vector<cd> in(x.begin(), x.end());
  ref.assign(x.size(), 0);
  const int len = static_cast<int>(n);
  fftw_plan plan = fftw_plan_many_dft(1, &len, static_cast<int>(batch), reinterpret_cast<fftw_complex*>(in.data()),
                                      nullptr, 1, len, reinterpret_cast<fftw_complex*>(ref.data()), nullptr, 1, len,
                                      inverse ? FFTW_BACKWARD : FFTW_FORWARD, FFTW_ESTIMATE);
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  return true;
#else
  return false;
#endif
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

}  // namespace

int main(int argc, char** argv) {
  bool cuda = false;
  std::vector<std::int64_t> lengths;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--cuda") == 0) cuda = true;
    else lengths.push_back(std::atoll(argv[i]));
  }
  if (lengths.empty()) lengths = {64, 1000, 4096, 2187};
  const std::int64_t batch = 4;
#ifdef BFLY_SELFTEST_CUDA_PLUGIN
  // This binary is not beside the plugin (bfly is); an explicit setting wins.
  setenv("BFLY_CUDA_PEERS", BFLY_SELFTEST_CUDA_PLUGIN, 0);
#endif

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
  std::printf("%-18s %6s %5s %-8s %12s %10s  %s\n", "peer", "length", "batch", "dir", "rel L2 err", "plan ms", "status");
  for (std::int64_t n : lengths) {
    for (bool inverse : {false, true}) {
      std::vector<cf> x(n * batch), y(n * batch);
      for (auto& v : x) v = cf(dist(rng), dist(rng));  // fresh input, never zeros
      std::vector<cd> ref;
      if (!reference(x, n, batch, inverse, ref)) {
        std::printf("length %lld: too large for the naive DFT and no double FFTW: skipped\n", (long long)n);
        continue;
      }
      for (auto& p : peers) {
        const char* dir = inverse ? "inverse" : "forward";
        std::string why, status;
        double err = NAN;
        try {
          why = p->prepare({n, batch, inverse}, x.data());
          if (why.empty()) err = check_runs(*p, y, ref);
        } catch (const std::exception& e) {
          status = std::string("FAIL (threw: ") + e.what() + ")";
        }
        if (status.empty() && !why.empty()) {
          std::printf("%-18s %6lld %5lld %-8s %12s %10s  unsupported: %s\n", p->name().c_str(), (long long)n,
                      (long long)batch, dir, "-", "-", why.c_str());
          continue;
        }
        if (status.empty()) status = err <= 1e-5 ? "ok" : "FAIL (> 1e-5)";  // NaN fails too
        failed |= status != "ok";
        std::printf("%-18s %6lld %5lld %-8s %12.3e %10.1f  %s\n", p->name().c_str(), (long long)n,
                    (long long)batch, dir, err, p->plan_ms(), status.c_str());
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
