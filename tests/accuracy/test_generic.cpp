// The generic tier (issue 40; runtime/generic_plan.hpp, BFLY_LIMITS=generic=1):
// every kind, shape, layout and length run by the fixed kernels against
// FFTW, outputs poisoned first; and a new size compiles nothing once the
// device has them.
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <thread>

#include "accuracy/fixture.hpp"
#include "backends/cuda/shipped_kernels.hpp"

namespace bfly::test {
namespace {

using Shape = std::vector<std::int64_t>;

PlanOptions generic() {
  PlanOptions o;
  o.limits = "generic=1";
  return o;
}

struct Case {
  Kind kind;
  Shape shape;
  std::int64_t batch;
  std::vector<int> axes;
  Placement placement;
  Norm norm;
  Direction direction;
  const char* what;  // the feature it meets
};

Problem make(const Case& c, Precision precision) {
  Problem p;
  p.kind = c.kind;
  p.shape = c.shape;
  p.batch = c.batch;
  p.axes = c.axes;
  p.placement = c.placement;
  p.norm = c.norm;
  p.precision = precision;
  p.direction = c.kind == Kind::R2C ? Direction::Forward : c.kind == Kind::C2R ? Direction::Inverse : c.direction;
  return p;
}

class Generic : public Accuracy {};

// Lengths of every path: rows in local memory (radices 2, 4 and the odd
// primes to 13), four-step splits of one and two levels, Bluestein (primes,
// a prime factor past 13, Bluestein's own length split four-step), and
// the layouts around them.
TEST_P(Generic, EveryPathAgainstFftw) {
  const auto O = Placement::OutOfPlace, I = Placement::InPlace;
  const auto F = Direction::Forward, B = Direction::Inverse;
  const std::vector<Case> all = {
      {Kind::C2C, {1}, 3, {}, O, Norm::None, F, "length 1"},
      {Kind::C2C, {2}, 5, {}, O, Norm::None, B, "radix 2"},
      {Kind::C2C, {8}, 7, {}, O, Norm::None, F, "radices 4 and 2"},
      {Kind::C2C, {1000}, 3, {}, O, Norm::None, F, "radices 4, 2, 5"},
      {Kind::C2C, {3 * 7 * 11 * 13}, 2, {}, I, Norm::None, B, "radices 3, 7, 11, 13"},
      {Kind::C2C, {1024}, 4, {}, O, Norm::Ortho, B, "a power of two, ortho"},
      {Kind::C2C, {6144}, 2, {}, O, Norm::None, F, "four-step"},
      {Kind::C2C, {1 << 21}, 1, {}, O, Norm::None, F, "four-step of two levels"},
      {Kind::C2C, {5000, 3}, 2, {0}, I, Norm::None, B, "four-step of an outer axis, in place"},
      {Kind::C2C, {17}, 6, {}, O, Norm::None, F, "a prime: Bluestein"},
      {Kind::C2C, {997}, 2, {}, I, Norm::Forward, B, "a prime, inverse, in place"},
      {Kind::C2C, {2 * 3 * 1009}, 2, {}, O, Norm::None, F, "Bluestein over a four-step length"},
      {Kind::C2C, {12, 17, 10}, 2, {}, O, Norm::None, F, "3D with a Bluestein axis"},
      {Kind::C2C, {6, 5, 8, 9}, 1, {0, 2}, O, Norm::None, B, "4D, two axes"},
      {Kind::C2C, {96, 128}, 3, {0}, O, Norm::None, F, "the outer axis alone"},
      {Kind::R2C, {1024}, 3, {}, O, Norm::None, F, "R2C even"},
      {Kind::R2C, {1025}, 2, {}, I, Norm::None, F, "R2C odd, in place"},
      {Kind::R2C, {30, 49}, 2, {}, O, Norm::Ortho, F, "2D R2C"},
      {Kind::C2R, {1000}, 2, {}, O, Norm::None, B, "C2R even"},
      {Kind::C2R, {4097}, 1, {}, O, Norm::Backward, B, "C2R odd past the capacity"},
      {Kind::C2R, {14, 9, 16}, 2, {}, I, Norm::None, B, "3D C2R in place"},
      {Kind::C2R, {12, 18}, 1, {0, 1}, O, Norm::None, B, "2D C2R, every axis named"},
  };
  for (const Case& c :
       cover("generic tier paths", all, 12, [](const Case& c) { return std::vector<std::string>{c.what}; }))
    for (Precision precision : {Precision::Single, Precision::Double}) {
      const Problem p = make(c, precision);
      SCOPED_TRACE(std::string(c.what) + ": " + p.token());
      expect_accurate(p, generic());
    }
}

// Every length to 600 through the tier, complex and real, against FFTW:
// smooth rows in every shape of the row kernel's loads (a group of short
// rows, rows longer than the group), Bluestein for the rest. A new size
// compiles nothing here, so the sweep is cheap enough for the quick tier.
TEST_P(Generic, EveryLengthTo600) {
  PrecisionDraw draw("Generic.EveryLengthTo600");
  double worst = 0;
  std::string at;
  for (std::int64_t n = 1; n <= 600; ++n)
    for (Kind kind : {Kind::C2C, Kind::R2C})
      for (Precision precision : {Precision::Single, Precision::Double}) {
        if (!draw.take(precision)) continue;
        Problem p;
        p.kind = kind;
        p.shape = {n};
        p.batch = 3;
        p.precision = precision;
        p.direction = n % 2 == 0 || kind == Kind::R2C ? Direction::Forward : Direction::Inverse;
        const Errors e = check(p, generic());
        ASSERT_TRUE(e.finite) << p.token() << ": unwritten or non-finite output";
        ASSERT_LE(e.relative_l2, tolerance(p)) << p.token();
        const double relative = e.relative_l2 / tolerance(p);
        if (relative > worst) worst = relative, at = p.token();
      }
  std::printf("[ generic  ] lengths 1..600: worst error %.2f of the tolerance at %s\n", worst, at.c_str());
}

// Strided layouts: points a stride apart, batches a distance apart.
TEST_P(Generic, StridedLayouts) {
  Problem p;
  p.shape = {60};
  p.batch = 3;
  p.input.strides = {2};
  p.input.distance = 130;
  p.output.strides = {3};
  p.output.distance = 200;
  p.direction = Direction::Inverse;
  expect_accurate(p, generic());
  p.kind = Kind::R2C;
  p.direction = Direction::Forward;
  p.shape = {61};
  expect_accurate(p, generic());
}

// Once the tier's kernels are made on a device, a plan of any new length
// compiles nothing: its build counts no kernel built (they come from the
// device's memory), and it describes itself as the generic tier.
TEST_P(Generic, ANewSizeCompilesNothing) {
  Problem warm;
  warm.shape = {17};  // Bluestein: every kernel the tier has
  Plan first(device(), warm, generic());
  for (std::int64_t n : {4099, 1536, 2 * 3 * 5 * 7 * 11 * 13}) {
    Problem p;
    p.shape = {n};
    p.batch = 2;
    const Plan plan(device(), p, generic());
    EXPECT_EQ(plan.build_stats().built, 0) << p.token() << ": a kernel was built for a new size";
    EXPECT_NE(plan.describe().find("generic tier"), std::string::npos) << plan.describe();
    expect_accurate(p, generic());
  }
}

// Tiered (Tier::Tiered): executions run the generic plan until the
// specialised one, made on a thread, is ready, then run it; two threads
// executing all along (each its own buffers on the device's queue) get
// results within the tolerance of the specialised plan's every time, and
// the plan ends up describing the specialised one.
TEST_P(Generic, TieredSwapsUnderConcurrentExecutions) {
  Problem p;
  p.shape = {2 * 3 * 5 * 7 * 11};
  p.batch = 3;
  PlanOptions specialised;
  specialised.tier = Tier::Specialised;
  PlanOptions tiered;
  tiered.tier = Tier::Tiered;
  const std::size_t points = static_cast<std::size_t>(p.length() * p.batch);
  const Plan plan(device(), p, tiered);
  const bool began_generic = plan.describe().find("generic tier") != std::string::npos;
  std::atomic<bool> swapped{false};
  std::atomic<int> runs{0}, bad{0};
  auto worker = [&](unsigned seed) {
    std::mt19937 engine(seed);
    std::uniform_real_distribution<float> uniform(-1, 1);
    std::vector<std::complex<float>> x(points), want(points), got(points);
    for (auto& v : x) v = {uniform(engine), uniform(engine)};
    Plan(device(), p, specialised).execute_host(x.data(), want.data());
    Buffer in(device(), points * sizeof x[0]), out(device(), points * sizeof x[0]);
    in.write(x.data(), points * sizeof x[0]);
    const auto stop = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    for (int after = 0; after < 3 && std::chrono::steady_clock::now() < stop;) {
      std::fill(got.begin(), got.end(), std::complex<float>(NAN, NAN));
      out.write(got.data(), points * sizeof got[0]);
      plan.execute(in, out);
      out.read(got.data(), points * sizeof got[0]);
      double num = 0, den = 0;
      for (std::size_t i = 0; i < points; ++i)
        num += std::norm(std::complex<double>(got[i] - want[i])), den += std::norm(std::complex<double>(want[i]));
      if (!(std::sqrt(num / den) <= kTolerance)) ++bad;
      ++runs;
      if (plan.describe().find("generic tier") == std::string::npos) swapped = true;
      if (swapped) ++after;
    }
  };
  std::thread a(worker, 1), b(worker, 2);
  a.join();
  b.join();
  EXPECT_EQ(bad.load(), 0) << "of " << runs.load() << " executions";
  EXPECT_TRUE(swapped.load()) << "the specialised plan never ran: " << plan.describe();
  std::printf("[ tiered   ] %d executions, began %s\n", runs.load(), began_generic ? "generic" : "specialised");
}

// The default tier (Tier::Auto) and Tier::AtHand on a device whose disk
// cache starts empty: a size whose kernels are nowhere runs the generic
// tier (AtHand) or starts with it and swaps (Auto); once its kernels are
// made, Auto plans them at once; and on a new device, where only the disk
// cache has them, AtHand plans them at once too.
TEST_P(Generic, AutoAndAtHandPlanWhatIsAtHand) {
  const char* was = std::getenv("BFLY_CACHE_DIR");
  const std::string saved = was ? was : "";
  char dir[] = "/tmp/bfly_at_hand_XXXXXX";
  ASSERT_NE(mkdtemp(dir), nullptr);
  setenv("BFLY_CACHE_DIR", dir, 1);  // read as a device opens
  Problem p;
  p.shape = {2 * 3 * 5 * 7 * 13};
  p.batch = 3;
  PlanOptions auto_tier, at_hand;
  auto_tier.tier = Tier::Auto;
  at_hand.tier = Tier::AtHand;
  auto generic = [](const Plan& plan) { return plan.describe().find("generic tier") != std::string::npos; };
  {
    const Device fresh = Device::open(device().info().spec);
    const Plan quick(fresh, p, at_hand);
    EXPECT_TRUE(generic(quick)) << "AtHand compiled a new size";
    // On a CUDA device of a shipped architecture even the tier's own
    // kernels compile nothing there: the library's cubins load.
    std::string arch = fresh.info().compute_capability;
    arch.erase(std::remove(arch.begin(), arch.end(), '.'), arch.end());
    const auto& shipped = cuda::shipped_kernels();
    if (fresh.info().backend == "cuda" &&
        std::any_of(shipped.begin(), shipped.end(), [&](const auto& k) { return "sm_" + arch == k.arch; })) {
      EXPECT_GT(quick.build_stats().built, 0);
      EXPECT_EQ(quick.build_stats().shipped, quick.build_stats().built) << "a generic kernel was compiled";
    }
    const Plan tiered(fresh, p, auto_tier);
    {
      // A plan of the same size made while the first's kernels compile
      // does not wait for them (a kernel being made is not at hand).
      std::this_thread::sleep_for(std::chrono::milliseconds(10));  // (its compile under way)
      const bool swapped_before = !generic(tiered);
      const auto start = std::chrono::steady_clock::now();
      const Plan meanwhile(fresh, p, auto_tier);
      const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
      EXPECT_TRUE(generic(meanwhile) || swapped_before || ms < 20)
          << "a second plan waited " << ms << " ms for the first's background compile";
    }
    const auto stop = std::chrono::steady_clock::now() + std::chrono::seconds(120);
    while (generic(tiered) && std::chrono::steady_clock::now() < stop)
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_FALSE(generic(tiered)) << "Auto never swapped: " << tiered.describe();
    const Plan again(fresh, p, auto_tier);
    EXPECT_FALSE(generic(again)) << "Auto ran the generic tier for kernels made already";
    EXPECT_EQ(again.build_stats().built, 0);
  }
  {
    const Device other = Device::open(device().info().spec);
    const Plan cached(other, p, at_hand);
    EXPECT_FALSE(generic(cached)) << "AtHand ran the generic tier for kernels in the disk cache";
    EXPECT_EQ(cached.build_stats().built, cached.build_stats().cache_hits + cached.build_stats().shipped);
    expect_accurate(p, at_hand);
  }
  if (was)
    setenv("BFLY_CACHE_DIR", saved.c_str(), 1);
  else
    unsetenv("BFLY_CACHE_DIR");
  std::filesystem::remove_all(dir);
}

INSTANTIATE_TEST_SUITE_P(Backends, Generic, ::testing::Values("cuda", "opencl"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace bfly::test
