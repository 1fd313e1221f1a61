#include "bench_runner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <thread>

#include "backends/device_impl.hpp"
#include "codegen/copy_kernel.hpp"
#include "peer.hpp"
#include "problem/text.hpp"
#ifdef BFLY_HAVE_OPENCL_PEERS
#include "backends/opencl/opencl_device.hpp"
#include "opencl_peers.hpp"
#endif

#ifdef BFLY_HAVE_FFTW_DOUBLE
#include <fftw3.h>
#endif

#include <random>

namespace bfly::cli {
namespace {

using Clock = std::chrono::steady_clock;

double ms_between(Clock::time_point a, Clock::time_point b) {
  return std::chrono::duration<double, std::milli>(b - a).count();
}

// One implementation under test: how to start a transform and wait for it.
struct Contender {
  std::function<void()> enqueue, wait;
  int calls = 1;  // transforms per sample, so each sample lasts >= 2 ms
  std::vector<double> samples = {};
  double median() const {
    std::vector<double> sorted = samples;
    std::sort(sorted.begin(), sorted.end());
    return sorted[sorted.size() / 2];
  }
  double min() const { return *std::min_element(samples.begin(), samples.end()); }
};

double sample(Contender& c) {
  const auto start = Clock::now();
  for (int i = 0; i < c.calls; ++i) c.enqueue();
  c.wait();
  return ms_between(start, Clock::now()) / c.calls;
}

// Times every contender with their repetitions interleaved (bfly, peer 1,
// peer 2, ..., bfly, ...), so a machine whose load drifts during the run
// slows all of them alike and the ratios stay meaningful.
void time_interleaved(std::vector<Contender*>& contenders, const BenchSettings& s) {
  for (Contender* c : contenders) {
    for (int i = 0; i < s.warmup; ++i) c->enqueue(), c->wait();
    const double once = std::max(sample(*c), 1e-3);
    c->calls = static_cast<int>(std::clamp(std::ceil(2.0 / once), 1.0, 1000.0));
  }
  for (int r = 0; r < s.repetitions; ++r)
    for (Contender* c : contenders) c->samples.push_back(sample(*c));
}

// The reference's element type: wide enough for either precision's check.
using Exact = std::complex<long double>;

// Host data in the working precision (complex<float> or complex<double>), as
// bfly and every peer upload it and read it back. operator new aligns it for
// either type.
using HostData = std::vector<unsigned char>;

template <typename Real>
void fill_random(HostData& data) {
  std::mt19937_64 engine{std::random_device{}()};
  std::uniform_real_distribution<Real> uniform(-1, 1);
  auto* v = reinterpret_cast<std::complex<Real>*>(data.data());
  for (std::size_t i = 0; i < data.size() / sizeof *v; ++i) v[i] = {uniform(engine), uniform(engine)};
}

// Fresh points in [-1, 1) each run (never zeros), drawn in the working precision.
HostData random_input(std::size_t points, Precision precision) {
  HostData data(points * (precision == Precision::Double ? 16 : 8));
  if (precision == Precision::Double) fill_random<double>(data);
  else fill_random<float>(data);
  return data;
}

template <typename Real>
std::vector<Exact> widen_as(const HostData& data, std::size_t points) {
  const auto* v = reinterpret_cast<const std::complex<Real>*>(data.data());
  return std::vector<Exact>(v, v + points);
}

// The first `points` points of `data`, exactly, in the reference's type.
std::vector<Exact> widen(const HostData& data, std::size_t points, Precision precision) {
  return precision == Precision::Double ? widen_as<double>(data, points) : widen_as<float>(data, points);
}

// FFTW on the same input (`arrays` arrays of c.shape): the reference every
// output is checked against. Long double for fp64 cases where libfftw3l was
// found, so the reference's own error (~1e-19) stays far below the 2e-15
// limit (FFTW double's ~2e-16 would eat into it); double for fp32 ones.
// The guru interface takes any set of axes: the transformed ones as dims, the
// others and the batch as howmany dims (fftw_iodim64 is one struct for every
// precision).
std::vector<Exact> reference(std::vector<Exact> in, const BenchCase& c, std::int64_t arrays) {
#ifdef BFLY_HAVE_FFTW_DOUBLE
  const std::vector<int> axes = c.problem().transform_axes();
  std::vector<fftw_iodim64> dims, loops;
  std::int64_t stride = 1;
  for (int k = static_cast<int>(c.shape.size()); k-- > 0;) {
    const fftw_iodim64 d{static_cast<ptrdiff_t>(c.shape[k]), static_cast<ptrdiff_t>(stride),
                         static_cast<ptrdiff_t>(stride)};
    bool transformed = false;
    for (int a : axes) transformed = transformed || a == k;
    std::vector<fftw_iodim64>& target = transformed ? dims : loops;
    target.insert(target.begin(), d);
    stride *= c.shape[k];
  }
  loops.insert(loops.begin(), fftw_iodim64{static_cast<ptrdiff_t>(arrays), static_cast<ptrdiff_t>(stride),
                                           static_cast<ptrdiff_t>(stride)});
  const int sign = c.inverse ? FFTW_BACKWARD : FFTW_FORWARD;
  const int rank = static_cast<int>(dims.size()), loop_rank = static_cast<int>(loops.size());
#ifdef BFLY_HAVE_FFTW_LONG_DOUBLE
  if (c.precision == Precision::Double) {
    std::vector<Exact> out(in.size());
    fftwl_plan plan = fftwl_plan_guru64_dft(rank, dims.data(), loop_rank, loops.data(),
                                            reinterpret_cast<fftwl_complex*>(in.data()),
                                            reinterpret_cast<fftwl_complex*>(out.data()), sign, FFTW_ESTIMATE);
    if (!plan) return {};
    fftwl_execute(plan);
    fftwl_destroy_plan(plan);
    return out;
  }
#endif
  std::vector<std::complex<double>> narrow(in.begin(), in.end()), out(in.size());  // exact: data are fp32 or fp64
  fftw_plan plan = fftw_plan_guru64_dft(rank, dims.data(), loop_rank, loops.data(),
                                        reinterpret_cast<fftw_complex*>(narrow.data()),
                                        reinterpret_cast<fftw_complex*>(out.data()), sign, FFTW_ESTIMATE);
  if (!plan) return {};
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  return std::vector<Exact>(out.begin(), out.end());
#else
  (void)in;
  (void)c;
  (void)arrays;
  return {};
#endif
}

template <typename Real>
double relative_error_as(const HostData& y, const std::vector<Exact>& ref) {
  const auto* v = reinterpret_cast<const std::complex<Real>*>(y.data());
  long double diff = 0, norm = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    diff += std::norm(Exact(v[i]) - ref[i]);
    norm += std::norm(ref[i]);
  }
  return std::isfinite(diff) ? static_cast<double>(std::sqrt(diff / norm)) : INFINITY;
}

// Relative L2 error of the first ref.size() points of `y` (in `precision`).
double relative_error(const HostData& y, Precision precision, const std::vector<Exact>& ref) {
  if (ref.empty()) return -1;
  return precision == Precision::Double ? relative_error_as<double>(y, ref) : relative_error_as<float>(y, ref);
}

std::vector<std::unique_ptr<bench::Peer>> make_peers(const Device& device, std::vector<std::string>& notes) {
  std::vector<std::unique_ptr<bench::Peer>> peers;
  const DeviceInfo& info = device.info();
  if (info.is_cpu) {
    // FFTW is the CPU's reference speed; beside a GPU it only slows the run
    // (seconds per 2^27-point case) and says nothing about the device.
    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    peers.push_back(bench::make_fftw_peer(1));
    if (cores > 1) peers.push_back(bench::make_fftw_peer(static_cast<int>(cores)));
  }
  if (info.backend == "opencl") {
#ifdef BFLY_HAVE_OPENCL_PEERS
    const auto h = detail::opencl::handles(*device.impl());
    const bench::OpenCLHandles handles{h.context, h.queue, h.device};
    peers.push_back(bench::make_clfft_peer(handles));
    peers.push_back(bench::make_vkfft_peer(handles));
#else
    notes.push_back("clFFT and VkFFT (OpenCL): not built in");
#endif
  } else if (info.backend == "cuda") {
    std::string why;
    const int ordinal = std::stoi(info.spec.substr(info.spec.find(':') + 1));
    for (auto& peer : bench::make_cuda_peers(ordinal, &why)) peers.push_back(std::move(peer));
    if (!why.empty()) notes.push_back(why);
  }
  peers.erase(std::remove(peers.begin(), peers.end(), nullptr), peers.end());
  return peers;
}

// The copy kernel every case is measured against, compiled once per device.
std::shared_ptr<detail::KernelImpl> copy_kernel(const Device& device) {
  detail::DeviceImpl& impl = *device.impl();
  return impl.memo<detail::KernelImpl>("kernel:bfly_copy", [&] {
    return impl.compile(codegen::generate_copy(impl.dialect()), "bfly_copy").kernel;
  });
}

}  // namespace

const char* const kTransposePeer = "bfly (transpose)";

std::int64_t BenchCase::array_points() const {
  std::int64_t n = 1;
  for (std::int64_t s : shape) n *= s;
  return n;
}

std::size_t BenchCase::point_bytes() const { return precision == Precision::Double ? 16 : 8; }

Problem BenchCase::problem() const {
  Problem p;
  p.precision = precision;
  p.shape = shape;
  p.axes = axes;
  p.batch = batch;
  p.direction = inverse ? Direction::Inverse : Direction::Forward;
  return p;
}

std::int64_t BenchCase::length() const { return problem().length(); }

int BenchCase::transformed_axes() const { return static_cast<int>(problem().transform_axes().size()); }

std::string BenchCase::label() const {
  std::string out = text::shape(shape);
  if (!axes.empty()) {
    out += " ax";
    for (std::size_t i = 0; i < axes.size(); ++i) out += (i ? "." : "") + std::to_string(axes[i]);
  }
  return out + " b" + std::to_string(batch) + (inverse ? " inv" : "");
}

double CaseResult::gflops(double ms) const {
  const double n = static_cast<double>(bench_case.length());
  const double transforms = points() / n;
  return n > 1 ? 5.0 * n * std::log2(n) * transforms / (ms * 1e6) : 0;
}

double CaseResult::gbytes(double ms) const { return 2.0 * bench_case.point_bytes() * points() / (ms * 1e6); }

std::string reference_name(Precision precision) {
#ifdef BFLY_HAVE_FFTW_LONG_DOUBLE
  if (precision == Precision::Double) return "FFTW long double";
#endif
  (void)precision;
  return "FFTW double";
}

double error_limit(Precision precision) { return precision == Precision::Double ? 2e-15 : 5e-7; }

std::string error_limit_text(Precision precision) {
  char text[32];
  std::snprintf(text, sizeof text, "%.0e", error_limit(precision));
  std::string out = text;
  // "5e-07" -> "5e-7", as the limits are written everywhere else.
  if (const auto zero = out.find("e-0"); zero != std::string::npos) out.erase(zero + 2, 1);
  return out;
}

const char* precision_name(Precision precision) { return precision == Precision::Double ? "double" : "single"; }

std::vector<CaseResult> run_bench(const Device& device, const std::vector<BenchCase>& cases,
                                  const BenchSettings& settings, const Progress& progress,
                                  const OnResult& on_result, std::vector<std::string>* notes) {
  std::vector<CaseResult> results;
  std::vector<std::unique_ptr<bench::Peer>> peers;
  std::vector<std::string> peer_notes;
  if (settings.peers) peers = make_peers(device, peer_notes);
  if (notes) *notes = peer_notes;  // before the first on_result, which may print them
  // Every row has the same columns: the transpose strategy gets one when any
  // case has two or more axes (and reads n/a on the others).
  bool transpose_column = false;
  if (settings.strategy == Strategy::Auto)
    for (const BenchCase& c : cases) transpose_column = transpose_column || c.transformed_axes() >= 2;
  const auto copy = copy_kernel(device);
  const std::size_t steps = cases.size() * (1 + peers.size() + (transpose_column ? 1 : 0));
  std::size_t done = 0;
  for (const BenchCase& c : cases) {
    CaseResult r;
    r.bench_case = c;
    if (progress) progress(done, steps, "bfly " + c.label());
    const Problem problem = c.problem();
    const PlanOptions options{settings.strategy};
    // A case bfly cannot plan (a length its planner does not reach, fp64 on a
    // device without it) is a row that says why, not the end of the run: the
    // copy and the peers are still timed on it.
    std::unique_ptr<Plan> plan;
    try {
      const auto plan_start = Clock::now();
      plan = std::make_unique<Plan>(device, problem, options);
      r.plan_ms = ms_between(plan_start, Clock::now());
      r.kernels = plan->build_stats().kernels;
      r.cache_hits = plan->build_stats().cache_hits;
      r.passes = plan->passes();
      // A new context shares nothing in memory with `device`, so this is what
      // a new process pays once the disk cache holds the kernels.
      const Device fresh = Device::open(device.info().spec);
      const auto warm_start = Clock::now();
      const Plan again(fresh, problem, options);
      r.warm_plan_ms = ms_between(warm_start, Clock::now());
    } catch (const Error& e) {
      plan.reset();
      r.unsupported = e.what();
    }

    const HostData input = random_input(static_cast<std::size_t>(r.points()), c.precision);
    std::vector<Buffer> ins, outs;
    for (int b = 0; b < settings.buffers; ++b) {
      ins.emplace_back(device, problem.bytes());
      outs.emplace_back(device, problem.bytes());
      ins.back().write(input.data(), problem.bytes());
    }
    int next = 0;
    Contender mine{[&] {
                     plan->execute(ins[next], outs[next]);
                     next = (next + 1) % settings.buffers;
                   },
                   [&] { device.synchronize(); }};
    // The device's copy bandwidth on the same buffers: one read and one write.
    const std::uint64_t wide_elements = problem.bytes() / 16;
    Contender copying{[&] {
                        device.impl()->launch(*copy, (wide_elements + codegen::kCopyGroupSize - 1) / codegen::kCopyGroupSize,
                                              codegen::kCopyGroupSize, 0,
                                              {detail::KernelArg::of(ins[0].impl()), detail::KernelArg::of(outs[0].impl()),
                                               detail::KernelArg::of_u64(wide_elements)});
                      },
                      [&] { device.synchronize(); }};
    std::vector<Contender*> contenders{&copying};
    if (plan) contenders.insert(contenders.begin(), &mine);

    // bfly's explicit-transpose strategy, timed like a peer on the same buffers.
    std::unique_ptr<Plan> transposing;
    Contender theirs_transposing;
    int next_transposing = 0;
    if (transpose_column) {
      PeerResult p;
      p.name = kTransposePeer;
      if (c.transformed_axes() < 2) {
        p.unsupported = "n/a (one axis)";
      } else {
        if (progress) progress(done, steps, std::string("preparing ") + kTransposePeer + " " + c.label());
        try {
          const auto start = Clock::now();
          transposing = std::make_unique<Plan>(device, problem, PlanOptions{Strategy::Transpose});
          p.plan_ms = ms_between(start, Clock::now());
          p.passes = transposing->passes();
          const Plan* t = transposing.get();
          theirs_transposing = Contender{[&, t] {
                                           t->execute(ins[next_transposing], outs[next_transposing]);
                                           next_transposing = (next_transposing + 1) % settings.buffers;
                                         },
                                         [&] { device.synchronize(); }};
          contenders.push_back(&theirs_transposing);
        } catch (const Error& e) {
          p.unsupported = e.what();
        }
      }
      r.peers.push_back(p);
      ++done;
    }
    const std::size_t first_peer = r.peers.size();  // peers[k] is r.peers[first_peer + k]
    std::vector<Contender> theirs(peers.size());
    const bool every_axis = c.transformed_axes() == static_cast<int>(c.shape.size());
    const bench::PeerCase peer_case{c.shape, c.batch, c.inverse, c.precision == Precision::Double};
    for (std::size_t k = 0; k < peers.size(); ++k) {
      if (progress) progress(done, steps, "preparing " + peers[k]->name() + " " + c.label());
      PeerResult p;
      p.name = peers[k]->name();
      if (every_axis) {
        p.unsupported = peers[k]->prepare(peer_case, input.data());
        p.plan_ms = peers[k]->plan_ms();
      } else {
        p.unsupported = "n/a (the peers transform every axis)";
      }
      r.peers.push_back(p);
      if (p.unsupported.empty()) {
        bench::Peer* peer = peers[k].get();
        theirs[k] = Contender{[peer] { peer->run(); }, [peer] { peer->finish(); }};
        contenders.push_back(&theirs[k]);
      }
      ++done;
    }
    if (progress) progress(done, steps, "timing " + c.label());
    time_interleaved(contenders, settings);
    if (plan) {
      r.median_ms = mine.median();
      r.min_ms = mine.min();
    }
    r.copy_ms = copying.median();
    if (transposing) r.peers.front().median_ms = theirs_transposing.median();
    ++done;

    if (settings.check) {
      // Checked on the first arrays of the batch (at least one, up to 2^22
      // points), so a 2^27-point case checks quickly.
      const std::int64_t per_array = c.array_points();
      const std::int64_t arrays =
          std::max<std::int64_t>(1, std::min<std::int64_t>(c.batch, (std::int64_t{1} << 22) / per_array));
      const std::size_t points = static_cast<std::size_t>(arrays * per_array);
      const std::vector<Exact> ref = reference(widen(input, points, c.precision), c, arrays);
      // Every output is poisoned first (all-ones bytes: NaN in either
      // precision), so points a plan leaves unwritten fail the check instead
      // of passing with an earlier run's values (the copy kernel's, bfly's).
      HostData output;
      auto check_plan = [&](const Plan& p) {
        output.assign(input.size(), 0xff);
        outs[0].write(output.data(), problem.bytes());
        p.execute(ins[0], outs[0]);
        outs[0].read(output.data(), problem.bytes());
        return relative_error(output, c.precision, ref);
      };
      if (plan) r.error = check_plan(*plan);
      if (transposing) r.peers.front().error = check_plan(*transposing);
      for (std::size_t k = 0; k < peers.size(); ++k)
        if (r.peers[first_peer + k].unsupported.empty()) {
          output.assign(input.size(), 0xff);
          peers[k]->result(output.data());
          r.peers[first_peer + k].error = relative_error(output, c.precision, ref);
        }
    }
    for (std::size_t k = 0; k < peers.size(); ++k) {
      PeerResult& p = r.peers[first_peer + k];
      if (p.unsupported.empty()) p.median_ms = theirs[k].median();
      peers[k]->release();
    }
    results.push_back(r);
    if (on_result) on_result(r);
  }
  if (progress) progress(steps, steps, "");
  return results;
}

std::vector<BenchCase> suite(const std::string& name, std::int64_t points) {
  std::vector<std::vector<std::int64_t>> shapes;
  if (name == "pocl") {
    // The core issue's CPU table: powers of two and the Mali seed's mixed radices.
    for (std::int64_t n : {64, 256, 1024, 4096, 16384, 65536, 1 << 20, 120, 1000, 3000, 2187, 3125, 2401, 1536})
      shapes.push_back({n});
  } else if (name == "demo") {
    for (std::int64_t n : {256, 1000, 4096, 65536}) shapes.push_back({n});
  } else if (name == "gpu") {
    // The CUDA issue's table: powers of two 2^6..2^24 and mixed radix sizes.
    for (int log2n = 6; log2n <= 24; ++log2n) shapes.push_back({std::int64_t{1} << log2n});
    for (std::int64_t n : {120, 1000, 1536, 2187, 2401, 3000, 3125, 4000, 10000, 100000}) shapes.push_back({n});
  } else if (name == "2d") {
    // The multi-dimensional issue's 2D sizes: the seeds' images, non-square ones, 4096^2.
    shapes = {{120, 120},   {512, 512}, {1000, 1000}, {2048, 2048}, {3000, 3000},
              {480, 640},   {7, 4096},  {4096, 7},    {4096, 4096}};
  } else if (name == "3d") {
    shapes = {{64, 64, 64}, {100, 100, 100}, {96, 128, 80}, {7, 5, 3}, {128, 128, 128}, {256, 256, 256}};
  } else if (name == "prime") {
    // Lengths only Bluestein (or a large-prime pass) reaches: primes, 2^k+1
    // (4097 = 17*241, 1048577 = 17*61681) and 10403 = 101*103, each after a
    // power of two of about its size, so the rows show Bluestein's cost over a
    // fast length (DESIGN.md: cuFFT moves 65537 at 0.19 TB/s, two-pass powers of
    // two at 0.94-1.41).
    for (std::int64_t n : {17, 127, 1024, 1009, 2039, 4096, 4093, 4097, 10403, 65536, 65521, 65537, 1 << 20, 1000003,
                           (1 << 20) + 1})
      shapes.push_back({n});
  } else if (name == "prime-nd") {
    // Prime axes in 2D and 3D: every axis through Bluestein; the small 3D one is batched.
    shapes = {{1009, 1013}, {17, 19, 23}};
  } else {
    throw Error(ErrorCode::InvalidArgument,
                "unknown suite '" + name + "' (expected pocl, gpu, demo, 2d, 3d, prime or prime-nd)");
  }
  std::vector<BenchCase> cases;
  for (const auto& shape : shapes) {
    BenchCase c;
    c.shape = shape;
    c.batch = std::max<std::int64_t>(1, points / c.array_points());
    cases.push_back(c);
  }
  return cases;
}

}  // namespace bfly::cli
