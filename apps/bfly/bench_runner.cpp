#include "bench_runner.hpp"
#include "bench_reference.hpp"
#include "size_lists.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <thread>

#include "inspect/inspect.hpp"
#include "io/memory_budget.hpp"
#include "peer.hpp"
#include "problem/text.hpp"
#ifdef BFLY_HAVE_OPENCL_PEERS
#include "opencl_peers.hpp"
#endif

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

std::int64_t product(const std::vector<std::int64_t>& shape) {
  std::int64_t n = 1;
  for (std::int64_t s : shape) n *= s;
  return n;
}

// The peers' description of a case. A DCT or DST is asked for as the
// forward transform of the type it computes (PeerCase).
bench::PeerCase peer_case(const BenchCase& c) {
  bench::PeerCase p{c.shape, c.batch, c.inverse, c.precision == Precision::Double, bench::Transform::C2C};
  if (c.kind == Kind::R2C) p.transform = bench::Transform::R2C;
  if (c.kind == Kind::C2R) p.transform = bench::Transform::C2R;
  if (c.kind == Kind::R2R) {
    p.transform = bench::Transform::R2R;
    p.inverse = false;
    p.family = c.family == Family::DST ? bench::R2RFamily::DST : bench::R2RFamily::DCT;
    p.type = c.r2r_type();
  }
  return p;
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
    const inspect::OpenCLHandles h = inspect::opencl_handles(device);
    const bench::OpenCLHandles handles{static_cast<cl_context>(h.context), static_cast<cl_command_queue>(h.queue),
                                       static_cast<cl_device_id>(h.device)};
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

}  // namespace

const char* const kTransposePeer = "bfly (transpose)";

std::int64_t BenchCase::array_points() const {
  std::int64_t n = 1;
  for (std::int64_t s : shape) n *= s;
  return n;
}

std::size_t BenchCase::point_bytes() const { return problem().element_bytes(); }

BenchCase BenchCase::native() const {
  BenchCase c = *this;
  c.storage = Storage::Native;
  return c;
}

std::size_t BenchCase::input_bytes() const {
  const Problem p = problem();
  return static_cast<std::size_t>(product(p.input_shape()) * batch) * p.input_element_bytes();
}

std::size_t BenchCase::output_bytes() const {
  const Problem p = problem();
  return static_cast<std::size_t>(product(p.output_shape()) * batch) * p.output_element_bytes();
}

std::string BenchCase::kind_name() const {
  return kind == Kind::R2R ? to_string(family) + std::to_string(type) : std::string(to_string(kind));
}

std::optional<BenchCase> BenchCase::yardstick() const {
  if (storage != Storage::Native) return native();
  if (kind == Kind::C2C) return std::nullopt;
  BenchCase y = *this;
  y.kind = kind == Kind::R2R ? Kind::R2C : Kind::C2C;
  y.inverse = kind == Kind::C2R;
  return y;
}

Problem BenchCase::problem() const {
  Problem p;
  p.kind = kind;
  p.family = family;
  p.type = type;
  p.precision = precision;
  p.storage = storage;
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
  out += " b" + std::to_string(batch);
  if (storage != Storage::Native) out += std::string(" ") + to_string(storage);
  if (kind == Kind::R2C || kind == Kind::C2R) return out + " " + kind_name();  // the kind says the direction
  if (kind == Kind::R2R) out += " " + kind_name();
  return out + (inverse ? " inv" : "");
}

double CaseResult::gflops(double ms) const {
  const double n = static_cast<double>(bench_case.length());
  const double transforms = points() / n;
  // FFTW's convention: 5 N log2 N per complex transform, half that per real one.
  const double per_point = bench_case.real() ? 2.5 : 5.0;
  return n > 1 ? per_point * n * std::log2(n) * transforms / (ms * 1e6) : 0;
}

double CaseResult::gbytes(double ms) const { return moved_bytes() / (ms * 1e6); }

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

const char* precision_name(Precision precision, Storage storage) {
  if (storage != Storage::Native) return storage == Storage::Half ? "half" : "bfloat16";
  return precision == Precision::Double ? "double" : "single";
}

std::vector<CaseResult> run_bench(const Device& device, const std::vector<BenchCase>& cases,
                                  const BenchSettings& settings, const Progress& progress, const OnResult& on_result,
                                  std::vector<std::string>* notes) {
  // A case whose data the host or the device cannot hold (its input and
  // output, on each) is refused before anything is allocated.
  const io::HostMemory host = io::host_memory();
  for (const BenchCase& c : cases) {
    io::MemoryNeeds needs;
    needs.what = "bench case " + c.label();
    const std::uint64_t both = io::saturating_sum(c.input_bytes(), c.output_bytes());
    needs.at(both, both, std::max(c.input_bytes(), c.output_bytes()));
    io::check_memory(needs, host, &device.info());
  }
  std::vector<CaseResult> results;
  std::vector<std::unique_ptr<bench::Peer>> peers;
  std::vector<std::string> peer_notes;
  if (settings.peers) peers = make_peers(device, peer_notes);
  if (notes) *notes = peer_notes;  // before the first on_result, which may print them
  // Every row has the same columns: the transpose strategy gets one when any
  // complex case has two or more axes (and reads n/a on the others; it is
  // the seeds' complex row-column scheme, so real cases read n/a too).
  bool transpose_column = false;
  if (settings.strategy == Strategy::Auto)
    for (const BenchCase& c : cases) transpose_column = transpose_column || (!c.real() && c.transformed_axes() >= 2);
  const inspect::CopyKernel copy(device);  // every case is measured against it
  std::size_t steps = cases.size() * (1 + peers.size() + (transpose_column ? 1 : 0));
  for (const BenchCase& c : cases) steps += c.yardstick() ? 1 : 0;  // bfly's C2C or R2C beside
  std::size_t done = 0;
  for (const BenchCase& c : cases) {
    CaseResult r;
    r.bench_case = c;
    if (progress) progress(done, steps, "bfly " + c.label());
    const Problem problem = c.problem();
    PlanOptions options;
    options.strategy = settings.strategy;
    options.tuning = settings.tuning;
    options.tier = settings.tier;
    options.load.ops = settings.load;
    options.store.ops = settings.store;
    // A case bfly cannot plan (a length its planner does not reach, fp64 on a
    // device without it) is a row that says why, not the end of the run: the
    // copy and the peers are still timed on it.
    std::unique_ptr<Plan> plan;
    try {
      const auto plan_start = Clock::now();
      plan = std::make_unique<Plan>(device, problem, options);
      r.plan_ms = ms_between(plan_start, Clock::now());
      r.kernels = plan->build_stats().kernels;
      r.cache_hits = plan->build_stats().cache_hits + plan->build_stats().shipped;  // not compiled: at hand
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

    // A half-storage case's values rounded to its format: bfly reads them
    // as 16 bits, the peers and FFTW as the fp32 values they are.
    const bool half = c.storage != Storage::Native;
    HostData wide = random_input(c.native());
    const HostData input = half ? narrowed(wide, c.storage) : wide;
    const std::size_t in_bytes = c.input_bytes(), out_bytes = c.output_bytes();
    std::vector<Buffer> ins, outs;
    for (int b = 0; b < settings.buffers; ++b) {
      ins.emplace_back(device, in_bytes);
      outs.emplace_back(device, out_bytes);
      ins.back().write(input.data(), in_bytes);
    }
    if (plan) {
      // The first answer of a new size: this process's first plan (above)
      // and its first execution, waited for.
      const auto first_start = Clock::now();
      plan->execute(ins[0], outs[0]);
      device.synchronize();
      r.first_result_ms = r.plan_ms + ms_between(first_start, Clock::now());
    }
    int next = 0;
    Contender mine{[&] {
                     plan->execute(ins[next], outs[next]);
                     next = (next + 1) % settings.buffers;
                   },
                   [&] { device.synchronize(); }};
    // The device's copy bandwidth on the same buffers: one read and one write
    // (of the smaller side of a real case: both buffers hold that much).
    r.copy_bytes = static_cast<double>(std::min(in_bytes, out_bytes));
    const std::uint64_t wide_elements = std::min(in_bytes, out_bytes) / 16;
    Contender copying{[&] { copy.run(ins[0], outs[0], wide_elements); }, [&] { device.synchronize(); }};
    std::vector<Contender*> contenders{&copying};
    if (plan) contenders.insert(contenders.begin(), &mine);

    // The yardstick (BenchCase::yardstick): bfly's C2C beside a real case,
    // its R2C beside a DCT or DST, on buffers of its own, timed in the same
    // interleaved run.
    std::unique_ptr<Plan> yardstick_plan;
    std::vector<Buffer> yardstick_ins, yardstick_outs;
    Contender yardstick_contender;
    int next_yardstick = 0;
    if (const std::optional<BenchCase> y = c.yardstick()) {
      if (progress) progress(done, steps, "preparing bfly " + y->kind_name() + " " + c.label());
      try {
        PlanOptions bare = options;  // (the yardstick runs no callbacks)
        bare.load = {};
        bare.store = {};
        yardstick_plan = std::make_unique<Plan>(device, y->problem(), bare);
        const HostData yardstick_input = random_input(*y);
        const std::size_t in = y->input_bytes(), out = y->output_bytes();
        for (int b = 0; b < settings.buffers; ++b) {
          yardstick_ins.emplace_back(device, in);
          yardstick_outs.emplace_back(device, out);
          yardstick_ins.back().write(yardstick_input.data(), in);
        }
        const Plan* yp = yardstick_plan.get();
        yardstick_contender = Contender{[&, yp] {
                                          yp->execute(yardstick_ins[next_yardstick], yardstick_outs[next_yardstick]);
                                          next_yardstick = (next_yardstick + 1) % settings.buffers;
                                        },
                                        [&] { device.synchronize(); }};
        contenders.push_back(&yardstick_contender);
      } catch (const Error& e) {
        yardstick_plan.reset();
        r.yardstick_unsupported = e.what();
      }
      ++done;
    }

    // bfly's explicit-transpose strategy, timed like a peer on the same buffers.
    std::unique_ptr<Plan> transposing;
    Contender theirs_transposing;
    int next_transposing = 0;
    if (transpose_column) {
      PeerResult p;
      p.name = kTransposePeer;
      if (c.transformed_axes() < 2) {
        p.unsupported = "n/a (one axis)";
      } else if (c.real()) {
        p.unsupported = "n/a (complex only)";
      } else {
        if (progress) progress(done, steps, std::string("preparing ") + kTransposePeer + " " + c.label());
        try {
          const auto start = Clock::now();
          PlanOptions transpose;
          transpose.strategy = Strategy::Transpose;
          transpose.tuning = settings.tuning;
          transposing = std::make_unique<Plan>(device, problem, transpose);
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
    // The peers halve the innermost axis of a real case.
    const bool innermost_real = !problem.is_real() || problem.real_axis() == static_cast<int>(c.shape.size()) - 1;
    const bench::PeerCase their_case = peer_case(c);
    for (std::size_t k = 0; k < peers.size(); ++k) {
      if (progress) progress(done, steps, "preparing " + peers[k]->name() + " " + c.label());
      PeerResult p;
      p.name = peers[k]->name();
      if (!every_axis) {
        p.unsupported = "n/a (the peers transform every axis)";
      } else if (!innermost_real) {
        p.unsupported = "n/a (the peers halve the innermost axis)";
      } else {
        p.unsupported = peers[k]->prepare(their_case, wide.data());
        p.plan_ms = peers[k]->plan_ms();
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
    if (yardstick_plan) r.yardstick_ms = yardstick_contender.median();
    if (transposing) r.peers.front().median_ms = theirs_transposing.median();
    ++done;

    if (settings.check) {
      // Checked on the first arrays of the batch (at least one, up to 2^22
      // points), so a 2^27-point case checks quickly.
      const std::int64_t per_array = c.array_points();
      const std::int64_t arrays =
          std::max<std::int64_t>(1, std::min<std::int64_t>(c.batch, (std::int64_t{1} << 22) / per_array));
      const std::vector<long double> ref = reference(wide, c.native(), arrays);
      // Every output is poisoned first (all-ones bytes: NaN in either
      // precision), so points a plan leaves unwritten fail the check instead
      // of passing with an earlier run's values (the copy kernel's, bfly's).
      // bfly's input is the one its timed runs read: a C2R must leave it as
      // it was (Problem's contract), and this shows it when it does not.
      HostData output;
      auto check_plan = [&](const Plan& p) {
        output.assign(out_bytes, 0xff);
        outs[0].write(output.data(), out_bytes);
        p.execute(ins[0], outs[0]);
        outs[0].read(output.data(), out_bytes);
        return relative_error(half ? widened(output, c.storage) : output, c.precision, ref);
      };
      if (plan && settings.load.empty() && settings.store.empty()) r.error = check_plan(*plan);
      if (transposing) r.peers.front().error = check_plan(*transposing);
      for (std::size_t k = 0; k < peers.size(); ++k)
        if (r.peers[first_peer + k].unsupported.empty()) {
          output.assign(c.native().output_bytes(), 0xff);
          if (c.kind == Kind::C2R) {
            // Their timed runs may have worked in their input (see Peer::run).
            peers[k]->refresh();
            peers[k]->run();
            peers[k]->finish();
          }
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
  const std::vector<std::vector<std::int64_t>> shapes = suite_shapes(name);
  if (shapes.empty()) {
    std::string names;
    const std::vector<std::string> known = suite_names();
    for (std::size_t i = 0; i < known.size(); ++i)
      names += (i == 0 ? "" : i + 1 == known.size() ? " or " : ", ") + known[i];
    throw Error(ErrorCode::InvalidArgument, "unknown suite '" + name + "' (expected " + names + ")");
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
