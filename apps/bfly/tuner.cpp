#include "tuner.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <future>
#include <map>
#include <memory>
#include <random>
#include <thread>

#include "inspect/inspect.hpp"
#include "plan/factorize.hpp"
#include "plan/plan.hpp"

namespace bfly::cli {
namespace {

using Clock = std::chrono::steady_clock;
using plan::LaunchChoice;

// One candidate: the table entry that asks for it, its plan, its samples.
struct Variant {
  LaunchChoice launch;
  bool single = true;     // one pass (else the model's split)
  std::string kernel;     // the one-pass kernel's name (dedupes choices that plan alike)
  std::string json;       // PlanOptions::tuning
  plan::KernelSpec spec;  // its one-pass kernel, as planned
  std::unique_ptr<Plan> plan;
  std::string error;
  std::vector<double> samples;
  double median() const {
    if (samples.empty()) return 1e30;
    std::vector<double> s = samples;
    std::sort(s.begin(), s.end());
    return s[s.size() / 2];
  }
};

Problem problem_of(std::int64_t length, std::int64_t batch, Precision precision) {
  Problem p;
  p.shape = {length};
  p.batch = batch;
  p.precision = precision;
  return p;
}

// Every field of the launch a one-pass spec has, so a table entry says what
// was measured even where the model chose it.
LaunchChoice launch_of(const plan::KernelSpec& s) {
  LaunchChoice l;
  l.threads = s.threads_per_transform;
  l.group_threads = s.group_size();
  l.padding = s.local_padding ? 1 : 0;
  l.halves = s.local_halves ? 1 : 0;
  l.two_level = s.stage_twiddle_bits > 0 ? 1 : 0;
  l.occupancy = s.min_groups_per_unit;
  l.staged = s.staged;
  l.radices = s.radices;
  return l;
}

class Tuner {
 public:
  Tuner(const Device& device, std::int64_t length, Precision precision, const TuneSettings& settings,
        const TuneProgress& progress)
      : device_(device), length_(length), precision_(precision), settings_(settings), progress_(progress) {
    limits_ = inspect::planning_limits(device_);
    batch_ = std::max<std::int64_t>(1, settings.points / length);
    check_batch_ = std::max<std::int64_t>(1, std::min(batch_, (std::int64_t{1} << 20) / length));
    const std::size_t point = precision == Precision::Single ? 8 : 16;
    in_ = std::make_unique<Buffer>(device_, static_cast<std::size_t>(batch_ * length) * point);
    out_ = std::make_unique<Buffer>(device_, static_cast<std::size_t>(batch_ * length) * point);
    fill(*in_, batch_ * length);
    check_in_ = std::make_unique<Buffer>(device_, static_cast<std::size_t>(check_batch_ * length) * point);
    check_out_ = std::make_unique<Buffer>(device_, static_cast<std::size_t>(check_batch_ * length) * point);
    fill(*check_in_, check_batch_ * length);
  }

  TuneResult run() {
    TuneResult result;
    result.entry.precision = precision_;
    result.entry.length = length_;
    // The model: no table.
    Variant model;
    model.launch = LaunchChoice{};
    model.json = "off";
    const plan::PlanTree model_tree = plan::make_plan(problem_of(length_, batch_, precision_), limits_);
    model.single = model_tree.passes.size() == 1;
    const std::size_t model_passes = model_tree.passes.size();
    result.model_plan = std::to_string(model_passes) + (model_passes == 1 ? " pass" : " passes");
    if (!build(model))
      throw Error(ErrorCode::Device, "the model's plan of " + std::to_string(length_) + " failed: " + model.error);
    reference_ = output_of(model);
    std::vector<Variant*> field{&model};
    time(field);
    result.model_ms = model.median();
    if (model.single) {
      // (Logged with its launch and kernel; the table's entry stays empty.)
      Variant logged;
      logged.launch = launch_of(model_tree.passes[0].spec);
      logged.kernel = model_tree.passes[0].spec.name();
      logged.samples = model.samples;
      record(result, "model", 0, logged);
    } else {
      record(result, "model", 0, model);
    }

    // The one-pass kernel to start from: the model's, or where the model
    // takes several passes and one fits (in halves), the model's launch for it.
    Variant start;
    start.json = entry_json(LaunchChoice{});
    if (!spec_of(start) || !build(start)) {
      // No one-pass kernel fits: the model's split is the answer.
      result.entry.passes = split_of(model_tree);
      result.best_ms = result.model_ms;
      result.variants = 1;
      return finish(result);
    }
    start.launch = launch_of(start.spec);
    start.json = entry_json(start.launch);
    spec_of(start);
    if (model.single) {
      start.samples = model.samples;
    } else {
      std::vector<Variant*> both{&model, &start};
      model.samples.clear();
      time(both);
      result.model_ms = model.median();
    }
    record(result, "start", 0, start);
    variants_ = 2;
    Variant best = std::move(start);
    for (int round = 0; round < settings_.rounds; ++round) {
      bool moved = false;
      for (const char* dimension :
           {"threads", "group", "occupancy", "halves", "staged", "padding", "two_level", "radices"}) {
        std::vector<LaunchChoice> choices = neighbours(best.launch, dimension);
        std::vector<std::unique_ptr<Variant>> candidates;
        std::map<std::string, bool> seen{{best.kernel, true}};
        for (const LaunchChoice& c : choices) {
          auto v = std::make_unique<Variant>();
          v->launch = c;
          v->json = entry_json(c);
          if (!spec_of(*v) || seen.count(v->kernel)) continue;
          seen[v->kernel] = true;
          // The launch as planned (a choice that does not fit is clamped).
          v->launch = launch_of(v->spec);
          candidates.push_back(std::move(v));
        }
        if (candidates.empty()) continue;
        if (progress_)
          progress_(std::to_string(length_) + " " + dimension + " (" + std::to_string(candidates.size()) + ")");
        build_all(candidates, result);
        std::vector<Variant*> timed{&best};
        for (auto& v : candidates)
          if (v->plan) timed.push_back(v.get());
        if (timed.size() == 1) continue;
        best.samples.clear();
        time(timed);
        variants_ += static_cast<int>(timed.size()) - 1;
        for (std::size_t i = 1; i < timed.size(); ++i) record(result, dimension, round + 1, *timed[i]);
        Variant* winner = &best;
        for (Variant* v : timed)
          if (v->median() < winner->median()) winner = v;
        if (winner != &best) {
          best = std::move(*winner);
          moved = true;
        }
      }
      if (!moved) break;
    }
    // The model and the winner once more, side by side; one pass against
    // the model's split where the model takes several.
    model.samples.clear();
    best.samples.clear();
    std::vector<Variant*> last{&model, &best};
    time(last);
    result.model_ms = model.median();
    if (!model.single && model.median() <= best.median()) {
      result.entry.passes = split_of(model_tree);
      result.best_ms = model.median();
    } else if (model.single && model.median() <= best.median()) {
      // The search's winner lost the rematch: the model's own launch, written
      // out, so the table still says what was measured.
      result.entry.launch = launch_of(model_tree.passes[0].spec);
      result.best_ms = model.median();
    } else {
      result.entry.launch = best.launch;
      result.best_ms = best.median();
    }
    result.variants = variants_;
    return finish(result);
  }

 private:
  static void record(TuneResult& result, const std::string& step, int round, const Variant& v) {
    result.timed.push_back({step, round, v.launch, v.kernel, v.median()});
  }

  TuneResult finish(TuneResult& result) {
    result.entry.ms = result.best_ms;
    result.entry.model_ms = result.model_ms;
    result.entry.variants = result.variants;
    return result;
  }

  static std::vector<std::int64_t> split_of(const plan::PlanTree& tree) {
    std::vector<std::int64_t> passes;
    for (const plan::Pass& p : tree.passes) passes.push_back(p.spec.length);
    return passes;
  }

  std::string entry_json(const LaunchChoice& launch) const {
    plan::TuningTable table;
    const DeviceInfo& info = device_.info();
    table.device = info.name;
    table.compute_capability = info.compute_capability;
    table.version = version();
    plan::TuningEntry e;
    e.precision = precision_;
    e.length = length_;
    e.launch = launch;
    table.entries.push_back(e);
    return plan::to_json(table);
  }

  // Plans `v` on the host (pure): its one-pass kernel's spec into
  // v.spec and name into v.kernel; false when the plan is not one pass.
  bool spec_of(Variant& v) {
    plan::DeviceLimits limits = limits_;
    limits.tuning = std::make_shared<plan::TuningTable>(plan::parse_tuning(v.json, "variant"));
    const plan::PlanTree tree = plan::make_plan(problem_of(length_, batch_, precision_), limits);
    if (tree.passes.size() != 1) return false;
    v.spec = tree.passes[0].spec;
    v.kernel = v.spec.name();
    return true;
  }

  bool build(Variant& v) {
    try {
      PlanOptions options;
      options.tuning = v.json;
      options.tier = Tier::Specialised;  // (the variant's own kernels, timed)
      v.plan = std::make_unique<Plan>(device_, problem_of(length_, batch_, precision_), options);
      // Correct first: the variant's output on fresh data against the model's.
      if (!reference_.empty()) {
        const double error = relative_error(output_of(v), reference_);
        if (!(error <= (precision_ == Precision::Single ? 5e-7 : 2e-15) * 4)) {
          v.error = "relative error " + std::to_string(error) + " against the model's output";
          v.plan.reset();
          return false;
        }
      }
      return true;
    } catch (const Error& e) {
      v.error = e.what();
      v.plan.reset();
      return false;
    }
  }

  // Builds the candidates' plans, compiling on several threads (NVRTC runs
  // one kernel a thread), then checks each in turn.
  void build_all(std::vector<std::unique_ptr<Variant>>& candidates, TuneResult& result) {
    const unsigned threads =
        settings_.compile_threads > 0 ? settings_.compile_threads : std::max(1u, std::thread::hardware_concurrency());
    std::vector<std::future<void>> compiling;
    for (std::size_t i = 0; i < candidates.size(); ++i) {
      Variant* v = candidates[i].get();
      compiling.push_back(std::async(std::launch::async, [this, v] {
        try {
          PlanOptions options;
          options.tuning = v->json;
          options.tier = Tier::Specialised;
          Plan warm(device_, problem_of(length_, check_batch_, precision_), options);  // compiles
        } catch (const std::exception&) {
          // build() below reports it.
        }
      }));
      if (compiling.size() >= threads) {
        for (auto& f : compiling) f.get();
        compiling.clear();
      }
    }
    for (auto& f : compiling) f.get();
    // A launch that spills registers is timed like any other: a one-pass
    // kernel with a few spills can still beat two passes (20000 fp32 on an
    // H100: 1.56x), and the NVRTC sweep lists the ones a table keeps.
    for (auto& v : candidates)
      if (!build(*v)) {
        ++result.rejected;
        result.notes.push_back(v->launch.text() + ": " + v->error);
      }
  }

  void fill(Buffer& buffer, std::int64_t points) {
    std::mt19937_64 engine{std::random_device{}()};
    std::uniform_real_distribution<double> uniform(-1, 1);
    if (precision_ == Precision::Single) {
      std::vector<std::complex<float>> host(static_cast<std::size_t>(points));
      for (auto& v : host) v = {static_cast<float>(uniform(engine)), static_cast<float>(uniform(engine))};
      buffer.write(host.data(), host.size() * sizeof host[0]);
    } else {
      std::vector<std::complex<double>> host(static_cast<std::size_t>(points));
      for (auto& v : host) v = {uniform(engine), uniform(engine)};
      buffer.write(host.data(), host.size() * sizeof host[0]);
    }
  }

  // The variant's output on the check problem (a few transforms), poisoned first.
  std::vector<std::complex<double>> output_of(const Variant& v) {
    PlanOptions options;
    options.tuning = v.json;
    options.tier = Tier::Specialised;  // (the variant's own kernels, timed)
    const Plan small(device_, problem_of(length_, check_batch_, precision_), options);
    const std::size_t points = static_cast<std::size_t>(check_batch_ * length_);
    std::vector<std::complex<double>> out(points);
    if (precision_ == Precision::Single) {
      std::vector<std::complex<float>> host(points, {NAN, NAN});
      check_out_->write(host.data(), points * sizeof host[0]);
      small.execute(*check_in_, *check_out_);
      check_out_->read(host.data(), points * sizeof host[0]);
      for (std::size_t i = 0; i < points; ++i) out[i] = host[i];
    } else {
      std::vector<std::complex<double>> host(points, {NAN, NAN});
      check_out_->write(host.data(), points * sizeof host[0]);
      small.execute(*check_in_, *check_out_);
      check_out_->read(host.data(), points * sizeof host[0]);
      out = host;
    }
    return out;
  }

  static double relative_error(const std::vector<std::complex<double>>& y,
                               const std::vector<std::complex<double>>& ref) {
    double num = 0, den = 0;
    for (std::size_t i = 0; i < y.size(); ++i) {
      num += std::norm(y[i] - ref[i]);
      den += std::norm(ref[i]);
    }
    return std::sqrt(num / std::max(den, 1e-300));
  }

  // Samples of every variant, interleaved (a, b, c, a, b, c, ...), so load
  // that drifts during the run slows all alike; each sample lasts >= 2 ms.
  void time(std::vector<Variant*>& variants) {
    std::vector<int> calls;
    for (Variant* v : variants) {
      for (int i = 0; i < 2; ++i) v->plan->execute(*in_, *out_);
      device_.synchronize();
      const auto start = Clock::now();
      v->plan->execute(*in_, *out_);
      device_.synchronize();
      const double once = std::max(std::chrono::duration<double, std::milli>(Clock::now() - start).count(), 1e-3);
      calls.push_back(static_cast<int>(std::clamp(std::ceil(2.0 / once), 1.0, 1000.0)));
    }
    for (int r = 0; r < settings_.repetitions; ++r)
      for (std::size_t k = 0; k < variants.size(); ++k) {
        const auto start = Clock::now();
        for (int i = 0; i < calls[k]; ++i) variants[k]->plan->execute(*in_, *out_);
        device_.synchronize();
        variants[k]->samples.push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count() /
                                       calls[k]);
      }
  }

  // `best` with one choice varied.
  std::vector<LaunchChoice> neighbours(const LaunchChoice& best, const std::string& dimension) const {
    std::vector<LaunchChoice> out;
    auto with = [&](auto set) {
      LaunchChoice c = best;
      set(c);
      out.push_back(c);
    };
    if (dimension == "threads") {
      for (int per_thread : {2, 4, 8, 12, 16, 20, 24, 32, 48, 64}) {
        const std::int64_t t = (length_ + per_thread - 1) / per_thread;
        if (t < 1 || t > limits_.max_group_size) continue;
        with([&](LaunchChoice& c) {
          c.threads = static_cast<int>(t);
          c.group_threads = std::max<int>(c.group_threads, static_cast<int>(t));
          c.occupancy = -1;  // the model's for the new shape, then tuned below
        });
      }
    } else if (dimension == "group") {
      for (int g : {64, 128, 256, 512, 1024})
        if (g > best.threads)
          with([&](LaunchChoice& c) {
            c.group_threads = g;
            c.occupancy = -1;
          });
    } else if (dimension == "occupancy") {
      for (int o : {1, 2, 3, 4, 6, 8}) with([&](LaunchChoice& c) { c.occupancy = o; });
    } else if (dimension == "halves") {
      with([&](LaunchChoice& c) { c.halves = 1 - std::max(0, best.halves); });
    } else if (dimension == "staged") {
      for (int mode : {0, 1, 2})
        if (mode != std::max(0, best.staged))
          with([&](LaunchChoice& c) {
            c.staged = mode;
            c.occupancy = -1;
          });
    } else if (dimension == "padding") {
      with([&](LaunchChoice& c) { c.padding = 1 - std::max(0, best.padding); });
    } else if (dimension == "two_level") {
      with([&](LaunchChoice& c) { c.two_level = 1 - std::max(0, best.two_level); });
    } else if (dimension == "radices" && best.radices.size() > 1) {
      std::vector<int> r = best.radices;
      std::vector<std::vector<int>> orders;
      std::sort(r.begin(), r.end());
      orders.push_back(r);
      std::reverse(r.begin(), r.end());
      orders.push_back(r);
      r = best.radices;
      std::reverse(r.begin(), r.end());
      orders.push_back(r);
      // Fewer stages with 32-point butterflies, which only a table asks for.
      r = plan::choose_radices_from(length_, plan::tunable_radices());
      if (!r.empty()) {
        orders.push_back(r);
        std::reverse(r.begin(), r.end());
        orders.push_back(r);
      }
      for (const auto& order : orders)
        if (order != best.radices) with([&](LaunchChoice& c) { c.radices = order; });
    }
    return out;
  }

  const Device& device_;
  std::int64_t length_;
  Precision precision_;
  TuneSettings settings_;
  TuneProgress progress_;
  plan::DeviceLimits limits_;
  std::int64_t batch_ = 1, check_batch_ = 1;
  std::unique_ptr<Buffer> in_, out_, check_in_, check_out_;
  std::vector<std::complex<double>> reference_;
  int variants_ = 0;
};

}  // namespace

TuneResult tune_length(const Device& device, std::int64_t length, Precision precision, const TuneSettings& settings,
                       const TuneProgress& progress) {
  return Tuner(device, length, precision, settings, progress).run();
}

}  // namespace bfly::cli
