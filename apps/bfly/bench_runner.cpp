#include "bench_runner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
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

std::vector<std::complex<float>> random_input(std::size_t count) {
  std::mt19937_64 engine{std::random_device{}()};
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<std::complex<float>> data(count);
  for (auto& v : data) v = {uniform(engine), uniform(engine)};
  return data;
}

// FFTW in double on the same input (`arrays` arrays of c.shape): the
// reference every output is checked against. The guru interface takes any
// set of axes: the transformed ones as dims, the others and the batch as
// howmany dims.
std::vector<std::complex<double>> reference(const std::vector<std::complex<float>>& input, const BenchCase& c,
                                            std::int64_t arrays) {
#ifdef BFLY_HAVE_FFTW_DOUBLE
  std::vector<std::complex<double>> in(input.begin(), input.end()), out(input.size());
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
  fftw_plan plan = fftw_plan_guru64_dft(static_cast<int>(dims.size()), dims.data(), static_cast<int>(loops.size()),
                                        loops.data(), reinterpret_cast<fftw_complex*>(in.data()),
                                        reinterpret_cast<fftw_complex*>(out.data()),
                                        c.inverse ? FFTW_BACKWARD : FFTW_FORWARD, FFTW_ESTIMATE);
  if (!plan) return {};
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  return out;
#else
  (void)input;
  (void)c;
  (void)arrays;
  return {};
#endif
}

double relative_error(const std::vector<std::complex<float>>& y, const std::vector<std::complex<double>>& ref) {
  if (ref.empty()) return -1;
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < y.size(); ++i) {
    const std::complex<double> v(y[i].real(), y[i].imag());
    diff += std::norm(v - ref[i]);
    norm += std::norm(ref[i]);
  }
  return std::isfinite(diff) ? std::sqrt(diff / norm) : INFINITY;
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

Problem BenchCase::problem() const {
  Problem p;
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

double CaseResult::gbytes(double ms) const { return 16.0 * points() / (ms * 1e6); }

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
    const auto plan_start = Clock::now();
    const Plan plan(device, problem, options);
    r.plan_ms = ms_between(plan_start, Clock::now());
    r.kernels = plan.build_stats().kernels;
    r.cache_hits = plan.build_stats().cache_hits;
    r.passes = plan.passes();
    {
      // A new context shares nothing in memory with `device`, so this is what
      // a new process pays once the disk cache holds the kernels.
      const Device fresh = Device::open(device.info().spec);
      const auto warm_start = Clock::now();
      const Plan again(fresh, problem, options);
      r.warm_plan_ms = ms_between(warm_start, Clock::now());
    }

    const std::vector<std::complex<float>> input = random_input(static_cast<std::size_t>(r.points()));
    std::vector<Buffer> ins, outs;
    for (int b = 0; b < settings.buffers; ++b) {
      ins.emplace_back(device, problem.bytes());
      outs.emplace_back(device, problem.bytes());
      ins.back().write(input.data(), problem.bytes());
    }
    int next = 0;
    Contender mine{[&] {
                     plan.execute(ins[next], outs[next]);
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
    std::vector<Contender*> contenders{&mine, &copying};

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
    for (std::size_t k = 0; k < peers.size(); ++k) {
      if (progress) progress(done, steps, "preparing " + peers[k]->name() + " " + c.label());
      PeerResult p;
      p.name = peers[k]->name();
      if (every_axis) {
        p.unsupported = peers[k]->prepare(bench::PeerCase{c.shape, c.batch, c.inverse}, input.data());
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
    r.median_ms = mine.median();
    r.min_ms = mine.min();
    r.copy_ms = copying.median();
    if (transposing) r.peers.front().median_ms = theirs_transposing.median();
    ++done;

    if (settings.check) {
      // Checked against FFTW double on the first arrays of the batch (at
      // least one, up to 2^22 points), so a 2^27-point case checks quickly.
      const std::int64_t per_array = c.array_points();
      const std::int64_t arrays =
          std::max<std::int64_t>(1, std::min<std::int64_t>(c.batch, (std::int64_t{1} << 22) / per_array));
      const std::size_t points = static_cast<std::size_t>(arrays * per_array);
      const std::vector<std::complex<float>> head(input.begin(), input.begin() + points);
      const std::vector<std::complex<double>> ref = reference(head, c, arrays);
      std::vector<std::complex<float>> output(input.size());
      // The copy kernel overwrote outs[0]: transform once more to check it.
      plan.execute(ins[0], outs[0]);
      outs[0].read(output.data(), problem.bytes());
      output.resize(points);
      r.error = relative_error(output, ref);
      if (transposing) {
        // Zeros first, so a plan that wrote nothing cannot pass with bfly's output.
        output.assign(input.size(), {});
        outs[0].write(output.data(), problem.bytes());
        transposing->execute(ins[0], outs[0]);
        outs[0].read(output.data(), problem.bytes());
        output.resize(points);
        r.peers.front().error = relative_error(output, ref);
      }
      for (std::size_t k = 0; k < peers.size(); ++k)
        if (r.peers[first_peer + k].unsupported.empty()) {
          output.resize(input.size());
          peers[k]->result(output.data());
          output.resize(points);
          r.peers[first_peer + k].error = relative_error(output, ref);
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
  } else {
    throw Error(ErrorCode::InvalidArgument, "unknown suite '" + name + "' (expected pocl, gpu, demo, 2d or 3d)");
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
