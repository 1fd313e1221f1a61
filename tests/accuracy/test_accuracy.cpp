// Every transform against FFTW in double on fresh random data in [-1, 1),
// outputs poisoned with NaN first so unwritten elements show. Each test runs
// once per backend (CUDA, OpenCL) and is skipped, saying why, where the
// backend has no device.
#include <atomic>
#include <cstdlib>
#include <initializer_list>
#include <mutex>
#include <set>
#include <thread>
#include <vector>

#include "accuracy/fixture.hpp"
#include "plan/factorize.hpp"

namespace bfly::test {
namespace {

Problem make(std::int64_t n, std::int64_t batch, Direction direction, Placement placement, Norm norm = Norm::None) {
  Problem p;
  p.shape = {n};
  p.batch = batch;
  p.direction = direction;
  p.placement = placement;
  p.norm = norm;
  return p;
}

// The 7-smooth lengths up to 4096 (a sample of 16 in the quick tier: every
// size bucket, powers of two and not), each forward and inverse, batches of
// 1 and 3, in and out of place.
TEST_P(Accuracy, EverySmoothLengthUpTo4096) {
  const auto all = smooth_lengths(4096);
  ASSERT_EQ(all.size(), 248u);  // the 7-smooth numbers up to 4096
  const auto lengths = sample_lengths("7-smooth lengths to 4096", all, 16);
  double worst = 0;
  std::string worst_token;
  for (std::int64_t n : lengths)
    for (Direction d : {Direction::Forward, Direction::Inverse})
      for (std::int64_t batch : {1, 3})
        for (Placement placement : {Placement::OutOfPlace, Placement::InPlace}) {
          const Problem p = make(n, batch, d, placement);
          const Errors e = check(p);
          ASSERT_TRUE(e.finite) << p.token() << ": unwritten or non-finite output";
          ASSERT_LE(e.relative_l2, kTolerance) << p.token();
          if (e.relative_l2 > worst) worst = e.relative_l2, worst_token = p.token();
        }
  std::printf("%zu lengths, worst relative L2 error %.3g at %s\n", lengths.size(), worst, worst_token.c_str());
}

// Radix 11 and 13: every 13-smooth length up to 4096 that the test above
// does not cover (a factor 11 or 13; a sample of 12 in the quick tier),
// forward and inverse.
TEST_P(Accuracy, Every13SmoothLengthUpTo4096) {
  std::vector<std::int64_t> all;
  for (std::int64_t n : smooth_lengths(4096, 13))
    if (n % 11 == 0 || n % 13 == 0) all.push_back(n);
  ASSERT_GT(all.size(), 200u);
  const auto lengths = sample_lengths("13-smooth lengths to 4096 with a factor 11 or 13", all, 12);
  double worst = 0;
  std::string worst_token;
  int i = 0;
  for (std::int64_t n : lengths)
    for (Direction d : {Direction::Forward, Direction::Inverse}) {
      const Problem p = make(n, 2, d, ++i % 3 == 0 ? Placement::InPlace : Placement::OutOfPlace);
      const Errors e = check(p);
      ASSERT_TRUE(e.finite) << p.token() << ": unwritten or non-finite output";
      ASSERT_LE(e.relative_l2, kTolerance) << p.token();
      if (e.relative_l2 > worst) worst = e.relative_l2, worst_token = p.token();
    }
  std::printf("%zu lengths, worst relative L2 error %.3g at %s\n", lengths.size(), worst, worst_token.c_str());
}

// Radices 29 and 31 (plan/factorize.hpp largest_codelet): the lengths
// from 2049 to 4096 whose largest prime factor is 29 or 31 (each compiles
// its own kernels, 1-2 s on PoCL; the Bluestein sweep has those below;
// every 4th of them exhaustively, 4 in the quick tier),
// then in both precisions the codelets alone, as
// the first pass and with pass twiddles (29791 = 31^3, 31744 = 31 x 1024,
// 118784 = 29 x 4096, 62000), on the axes of arrays and batched.
TEST_P(Accuracy, Radices29And31) {
  std::vector<std::int64_t> lengths;
  for (std::int64_t n = 2049; n <= 4096; ++n)
    if (const std::int64_t f = plan::largest_prime_factor(n); f == 29 || f == 31) lengths.push_back(n);
  ASSERT_EQ(lengths.size(), 84u);
  std::vector<std::int64_t> every_fourth;
  for (std::size_t k = 0; k < lengths.size(); k += 4) every_fourth.push_back(lengths[k]);
  int i = 0;
  for (std::int64_t n : sample("radix 29 and 31 lengths 2049..4096", every_fourth, 4,
                               [](std::int64_t m) { return std::to_string(plan::largest_prime_factor(m)); })) {
    const Problem p = make(n, 2, ++i % 2 ? Direction::Forward : Direction::Inverse,
                           i % 3 == 0 ? Placement::InPlace : Placement::OutOfPlace);
    expect_accurate(p);
  }
  // The quick tier: 6 of the 18 lengths (each precision in one pass and
  // past it) and 2 of the 6 arrays.
  std::vector<Problem> codelets, arrays;
  for (Precision precision : {Precision::Single, Precision::Double}) {
    for (std::int64_t n : {29, 31, 961, 3100, 4092, 29791, 31744, 118784, 62000}) {
      Problem p = make(n, n < 10000 ? 3 : 1, ++i % 2 ? Direction::Forward : Direction::Inverse,
                       i % 3 == 0 ? Placement::InPlace : Placement::OutOfPlace);
      p.precision = precision;
      codelets.push_back(p);
    }
    for (const std::vector<std::int64_t>& shape :
         std::vector<std::vector<std::int64_t>>{{31, 31}, {62, 29, 3}, {29, 4096}}) {
      Problem p = make(1, 2, Direction::Inverse, Placement::OutOfPlace);
      p.shape = shape;
      p.precision = precision;
      arrays.push_back(p);
    }
  }
  for (const Problem& p : sample("radix 29 and 31 codelets", codelets, 6, [](const Problem& q) {
         return std::string(q.precision == Precision::Double ? "fp64" : "fp32") +
                (q.shape[0] <= 4096 ? " one pass" : " passes");
       }))
    expect_accurate(p);
  for (const Problem& p :
       sample("radix 29 and 31 arrays", arrays, 2, [](const Problem& q) { return q.token().substr(0, 7); }))
    expect_accurate(p);
}

TEST_P(Accuracy, LargeSmoothLengths) {
  struct Case {
    std::int64_t n, batch;
  };
  // Powers of each radix, mixed codelets from the Mali seed, single-pass
  // limits and multi-pass sizes up to 2^24.
  const Case cases[] = {{8192, 3},
                        {16384, 2},
                        {16807, 1},
                        {19683, 2},
                        {65536, 2},
                        {78125, 1},
                        {248832, 1},
                        {390625, 1},
                        {531441, 1},
                        {823543, 1},
                        {1 << 20, 1},
                        {3000 * 7, 2},
                        {1000000, 1},
                        {1 << 24, 1},
                        {18000, 2},
                        {24000, 1},
                        {24576, 1},  // one pass past 16384 on Hopper
                        {14641, 2} /* 11^4 */,
                        {28561, 1} /* 13^4 */,
                        {161051, 1} /* 11^5 */,
                        {371293, 1} /* 13^5 */,
                        {11 * 13 * 4096, 1}};
  // The quick tier: 6 of them, each size range (one pass, two, more) with
  // and without radices past 7.
  const std::vector<Case> chosen =
      sample("large smooth lengths", std::vector<Case>(std::begin(cases), std::end(cases)), 6, [](const Case& c) {
        const char* size = c.n <= 32768 ? "one pass" : c.n <= (1 << 20) ? "two" : "more";
        return std::string(size) + (plan::largest_prime_factor(c.n) > 7 ? " wide" : "");
      });
  int i = 0;
  for (const Case& c : chosen) {
    const Direction d = i % 2 ? Direction::Inverse : Direction::Forward;
    const Placement placement = (i / 2) % 2 ? Placement::InPlace : Placement::OutOfPlace;
    expect_accurate(make(c.n, c.batch, d, placement));
    ++i;
  }
}

TEST_P(Accuracy, NormalisationsMatchNumPy) {
  for (Norm norm : {Norm::Backward, Norm::Ortho, Norm::Forward})
    for (Direction d : {Direction::Forward, Direction::Inverse}) {
      expect_accurate(make(1000, 2, d, Placement::OutOfPlace, norm));
      expect_accurate(make(65536, 1, d, Placement::InPlace, norm));  // scaling on the last of two passes
    }
}

// Plans made from many threads at once on one (fresh) device: the same
// problems give bit-identical results to a plan made alone, and every
// distinct kernel is built once (the others wait for it).
TEST_P(Accuracy, PlansFromManyThreads) {
  const Device fresh = Device::open(device().info().spec);
  const std::vector<Problem> problems = {make(64, 3, Direction::Forward, Placement::OutOfPlace, Norm::Backward),
                                         make(1000, 2, Direction::Inverse, Placement::OutOfPlace, Norm::Backward),
                                         make(29, 5, Direction::Forward, Placement::InPlace, Norm::Backward),
                                         make(4096, 1, Direction::Forward, Placement::OutOfPlace, Norm::Ortho),
                                         // several passes: their kernels build on threads of their own
                                         make(1 << 18, 1, Direction::Inverse, Placement::InPlace, Norm::Backward)};
  std::vector<std::vector<std::complex<float>>> inputs;
  for (const Problem& p : problems) inputs.push_back(random_data(static_cast<std::size_t>(p.input_extent())));
  constexpr int kThreads = 8, kRounds = 3;
  std::vector<std::vector<std::vector<std::complex<float>>>> results(kThreads);
  std::atomic<int> built{0};
  std::set<std::string> kernels;
  std::mutex kernels_mutex;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      for (int round = 0; round < kRounds; ++round)
        for (std::size_t i = 0; i < problems.size(); ++i) {
          const std::size_t which = (i + static_cast<std::size_t>(t)) % problems.size();  // threads start apart
          const Plan plan(fresh, problems[which]);
          built += plan.build_stats().built;
          {
            std::lock_guard<std::mutex> lock(kernels_mutex);
            std::string text = plan.describe();
            for (std::size_t at = text.find("kernel "); at != std::string::npos; at = text.find("kernel ", at + 1))
              kernels.insert(text.substr(at + 7, text.find('\n', at) - at - 7));
          }
          std::vector<std::complex<float>> output(static_cast<std::size_t>(problems[which].output_extent()));
          poison(output);
          if (problems[which].placement == Placement::InPlace) output = inputs[which];
          plan.execute_host(problems[which].placement == Placement::InPlace ? output.data() : inputs[which].data(),
                            output.data());
          if (round == 0) {
            results[t].resize(problems.size());
            results[t][which] = output;
          } else if (output != results[t][which]) {
            results[t][which].clear();  // differs between rounds: caught below
          }
        }
    });
  for (std::thread& thread : threads) thread.join();
  EXPECT_EQ(built.load(), static_cast<int>(kernels.size())) << "each distinct kernel built once";
  for (std::size_t i = 0; i < problems.size(); ++i) {
    const Plan alone(device(), problems[i]);
    std::vector<std::complex<float>> expected(static_cast<std::size_t>(problems[i].output_extent()));
    if (problems[i].placement == Placement::InPlace) expected = inputs[i];
    alone.execute_host(problems[i].placement == Placement::InPlace ? expected.data() : inputs[i].data(),
                       expected.data());
    for (int t = 0; t < kThreads; ++t) EXPECT_TRUE(results[t][i] == expected) << problems[i].token() << " thread " << t;
  }
}

TEST_P(Accuracy, RoundTripRestoresInput) {
  for (std::int64_t n : {1, 2, 7, 120, 4096, 65536, 1 << 20}) {
    const Plan forward(device(), make(n, 2, Direction::Forward, Placement::OutOfPlace, Norm::Backward));
    const Plan inverse(device(), make(n, 2, Direction::Inverse, Placement::OutOfPlace, Norm::Backward));
    const auto x = random_data(static_cast<std::size_t>(2 * n));
    std::vector<std::complex<float>> spectrum(x.size()), back(x.size());
    poison(spectrum);
    poison(back);
    forward.execute_host(x.data(), spectrum.data());
    inverse.execute_host(spectrum.data(), back.data());
    const std::vector<std::complex<double>> expected(x.begin(), x.end());
    const Errors e = compare(back, expected);
    EXPECT_LE(e.relative_l2, kTolerance) << "ifft(fft(x)) for n = " << n;
  }
}

// Multi-pass plans on small lengths: with one group limited to 16 points,
// 4096 takes three passes and 65536 four, exercising every pass position,
// the pass twiddles and the workspace rotation of in-place plans.
TEST_P(Accuracy, ForcedMultiPass) {
  PlanOptions forced = test_options();
  forced.limits = "max_pass_length=16";
  for (std::int64_t n : {32, 100, 256, 1000, 2187, 2401, 4096, 65536})
    for (Placement placement : {Placement::OutOfPlace, Placement::InPlace})
      for (Direction d : {Direction::Forward, Direction::Inverse}) {
        const Problem p = make(n, 3, d, placement, Norm::Backward);
        const Plan plan(device(), p, forced);
        EXPECT_GE(plan.passes(), 2) << p.token();
        expect_accurate(p, forced);
      }
}

// Two passes in one chained launch through L2 (Pass::chain_elements; CUDA
// on Hopper). l2_chain=2 (MiB) chains batch elements of up to 1 MiB,
// so small lengths split in two passes reach it: lookaheads of 1 to 8
// elements, batches just past them, equal and unequal group sizes, both
// precisions, placements and directions. Elsewhere the same problems run
// unchained and must be as accurate.
TEST_P(Accuracy, ChainedPasses) {
  PlanOptions forced = test_options();
  forced.limits = "l2_chain=2,chain_unequal=1,max_pass_length=256";
  struct Case {
    std::int64_t n, batch;
    Precision precision;
    bool chained;  // on Hopper (powers of two only: 1000 and 12288 stay two launches)
  };
  const Precision f32 = Precision::Single, f64 = Precision::Double;
  int i = 0;
  for (const Case c :
       {Case{4096, 2, f32, true}, Case{16384, 9, f32, true}, Case{65536, 3, f32, true}, Case{8192, 17, f32, true},
        Case{1000, 40, f32, false}, Case{65536, 2, f64, true}, Case{12288, 7, f64, false}, Case{4096, 33, f64, true}}) {
    Problem p = make(c.n, c.batch, i % 2 ? Direction::Inverse : Direction::Forward,
                     (i / 2) % 2 ? Placement::InPlace : Placement::OutOfPlace, Norm::Backward);
    p.precision = c.precision;
    const Plan plan(device(), p, forced);
    if (device().info().backend == "cuda" && std::atof(device().info().compute_capability.c_str()) >= 9 && c.chained)
      EXPECT_NE(plan.describe().find("chained"), std::string::npos) << p.token() << "\n" << plan.describe();
    expect_accurate(p, forced);
    // Again: the launch must leave its counters as it found them.
    expect_accurate(p, forced);
    ++i;
  }
}

// Pass twiddles computed (KernelSpec::pass_sincos: a GPU's choice where the
// pass's twiddle count is a power of two, forced here on every device, and
// at 2 where it is a multiple of 8, the quadrant a quotient) in both
// precisions, placements and directions, every pass position (passes of
// at most 64 points), and lengths whose passes mix computed twiddles and
// the table (1000 = 10^3: 100 twiddles, then 1000; 3 x 4096; 3^7 x 8).
// The quick tier: each length in one precision (still both placements and
// directions).
TEST_P(Accuracy, ComputedPassTwiddles) {
  PrecisionDraw draw("Accuracy.ComputedPassTwiddles");
  PlanOptions forced = test_options();
  forced.limits = "pass_sincos=2,max_pass_length=64";
  int i = 0;
  for (Precision precision : {Precision::Single, Precision::Double})
    for (std::int64_t n : {std::int64_t{128}, std::int64_t{1000}, std::int64_t{4096}, std::int64_t{12288},
                           std::int64_t{17496}, std::int64_t{65536}, std::int64_t{1} << 20}) {
      if (!draw.take(precision)) continue;
      Problem p = make(n, n > 65536 ? 1 : 3, i % 2 ? Direction::Inverse : Direction::Forward,
                       (i / 2) % 2 ? Placement::InPlace : Placement::OutOfPlace, Norm::Backward);
      p.precision = precision;
      const Plan plan(device(), p, forced);
      if ((n & (n - 1)) == 0) EXPECT_NE(plan.describe().find("_twsc"), std::string::npos) << p.token();
      expect_accurate(p, forced);
      ++i;
    }
}

// Inner-stage twiddles as products of looked-up powers of two
// (KernelSpec::stage_twiddle_powers: the GPUs' choice, forced here on every
// device), from the one-level table and, with direct_twiddles=64, the
// two-level one: stages of radix 16, 12, 25, 11 and 7 after the first, one
// pass and several, both precisions, directions and placements (the quick
// tier: each length in one precision).
TEST_P(Accuracy, StageTwiddlePowers) {
  PrecisionDraw draw("Accuracy.StageTwiddlePowers");
  int i = 0;
  for (const char* limits : {"twiddle_powers=2", "twiddle_powers=2,direct_twiddles=64"}) {
    PlanOptions forced = test_options();
    forced.limits = limits;
    for (Precision precision : {Precision::Single, Precision::Double})
      for (std::int64_t n : {std::int64_t{4096}, std::int64_t{2000}, std::int64_t{4235}, std::int64_t{7500},
                             std::int64_t{13824}, std::int64_t{1} << 20}) {
        if (!draw.take(precision)) continue;
        Problem p = make(n, n > 65536 ? 1 : 2, i % 2 ? Direction::Inverse : Direction::Forward,
                         (i / 2) % 2 ? Placement::InPlace : Placement::OutOfPlace);
        p.precision = precision;
        const std::string text = Plan(device(), p, forced).describe();
        // (Not where every pass is a long column pass of 32 words a thread:
        // launch_model.cpp leaves powers out there, even when forced, as on
        // a GPU's fp64 2^20, 16 points a thread in both 1024-point passes.)
        const bool full_columns = n > 65536 && precision == Precision::Double && text.find("_cm") != std::string::npos;
        if (!full_columns) EXPECT_NE(text.find("_pw"), std::string::npos) << p.token() << "\n" << text;
        expect_accurate(p, forced);
        ++i;
      }
  }
}

namespace {

// A limits override's rule under test (tuning off) and its problems: each
// length in one precision (the quick tier's draw `name`), batch 3,
// directions and placements alternating.
PlanOptions rule_options(const char* limits) {
  PlanOptions rule = test_options();
  rule.limits = limits;
  rule.tuning = "off";
  return rule;
}

std::vector<Problem> rule_problems(const char* name, std::initializer_list<std::int64_t> lengths) {
  PrecisionDraw draw(name);
  std::vector<Problem> problems;
  for (Precision precision : {Precision::Single, Precision::Double})
    for (std::int64_t n : lengths) {
      if (!draw.take(precision)) continue;
      const int i = static_cast<int>(problems.size());
      Problem p = make(n, 3, i % 2 ? Direction::Inverse : Direction::Forward,
                       (i / 2) % 2 ? Placement::InPlace : Placement::OutOfPlace, Norm::Backward);
      p.precision = precision;
      problems.push_back(p);
    }
  return problems;
}

}  // namespace

// VkFFT's rule for one-pass rows (DeviceLimits::row_values, issue 39's
// knob): N / m threads, radices of at most 16, stages of radix above m run
// on part of the threads; one pass forced up to 16384 points so the long
// rows take it on a CPU too. Both precisions, directions and placements
// (the quick tier: each length in one precision).
TEST_P(Accuracy, RowValuesRule) {
  const PlanOptions rule = rule_options("row_values=12,single_pass=16384");
  for (const Problem& p : rule_problems("Accuracy.RowValuesRule", {120, 200, 1536, 3000, 7056, 11025, 16200})) {
    // (Long doubles may take two passes: local memory holds half as many.)
    if (p.precision == Precision::Single) EXPECT_EQ(Plan(device(), p, rule).passes(), 1) << p.token();
    expect_accurate(p, rule);
  }
}

// Composite radices 18-28 where they save a one-pass row a stage
// (DeviceLimits::composite_radices, issue 39's knob; fp32 only): each of
// them in a kernel of its own, and two real rows, forced to one pass so a CPU takes it too,
// directions and placements alternating.
TEST_P(Accuracy, CompositeRadices) {
  const PlanOptions rule = rule_options("composite_radices=1,single_pass=16384");
  const std::vector<std::pair<std::int64_t, const char*>> cases = {
      {1458, "_r18x9x9_"},  {3969, "_r21x21x9_"},  {4536, "_r18x18x14_"}, {5040, "_r20x18x14_"},
      {5103, "_r27x21x9_"}, {9072, "_r24x21x18_"}, {8232, "_r28x21x14_"}};
  int i = 0;
  for (const auto& [n, radices] : cases) {
    Problem p = make(n, 3, i % 2 ? Direction::Inverse : Direction::Forward,
                     (i / 2) % 2 ? Placement::InPlace : Placement::OutOfPlace, Norm::Backward);
    ++i;
    const std::string text = Plan(device(), p, rule).describe();
    EXPECT_NE(text.find(radices), std::string::npos) << p.token() << "\n" << text;
    expect_accurate(p, rule);
  }
  // Real rows: the packed half-length transform (7938 -> 3969, 4536 ->
  // 2268 = 18 x 14 x 9), R2C then C2R.
  for (const auto& [n, kind, radices] :
       {std::make_tuple(7938, Kind::R2C, "_r21x21x9_packed_"), std::make_tuple(4536, Kind::C2R, "_r18x14x9_packed_")}) {
    Problem p =
        make(n, 2, kind == Kind::R2C ? Direction::Forward : Direction::Inverse, Placement::OutOfPlace, Norm::Backward);
    p.kind = kind;
    const std::string text = Plan(device(), p, rule).describe();
    EXPECT_NE(text.find(radices), std::string::npos) << p.token() << "\n" << text;
    expect_accurate(p, rule);
  }
}

// The same rule for one-kernel convolutions (DeviceLimits::
// convolution_values, issue 39's knob): Bluestein's and Rader's two FFTs at
// m values a thread, radices of at most 16, the fewest stages within it.
// Primes by Bluestein (223, 557, 1031, 1109, 2221: 1030 has 103) and
// Rader (97), both precisions, directions and placements.
TEST_P(Accuracy, ConvolutionValuesRule) {
  const PlanOptions rule = rule_options("convolution_values=10");
  for (const Problem& p : rule_problems("Accuracy.ConvolutionValuesRule", {97, 223, 557, 1031, 1109, 2221}))
    expect_accurate(p, rule);
}

// Short rows as one block through local memory (KernelSpec::block_rows; a
// GPU's choice for rows of few threads, forced here on every device):
// every row length from 2 to 24 and a few longer, batches that leave the
// last group part full, both precisions, placements and directions.
TEST_P(Accuracy, BlockRows) {
  PlanOptions forced = test_options();
  forced.limits = "block_rows=100000";
  int i = 0;
  std::vector<Problem> problems;
  for (Precision precision : {Precision::Single, Precision::Double})
    for (std::int64_t n :
         {2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 27, 32, 48}) {
      Problem p = make(n, 1 + 37 * (i % 5), i % 2 ? Direction::Inverse : Direction::Forward,
                       (i / 2) % 2 ? Placement::InPlace : Placement::OutOfPlace, Norm::Backward);
      p.precision = precision;
      problems.push_back(p);
      ++i;
    }
  // The quick tier: 16 of the 52, each precision, placement and direction,
  // with one row and with many.
  for (const Problem& p : sample("rows in one block", problems, 16, [](const Problem& q) {
         return q.token().substr(0, 12) + (q.placement == Placement::InPlace ? " ip" : " oop") +
                (q.batch == 1 ? " one" : " many");
       })) {
    const std::int64_t n = p.shape[0];
    const Plan plan(device(), p, forced);
    // (Not where a launch exchanges in halves or is staged, as a tuning
    // table may ask for 32 on an H100: KernelSpec::block_rows_allowed.)
    const std::string text = plan.describe();
    const bool other_form =
        text.find("exchanged in halves") != std::string::npos || text.find("staged") != std::string::npos;
    if (p.batch > 1 && plan::is_supported_length(n) && !other_form)
      EXPECT_NE(text.find("one block"), std::string::npos) << p.token();
    expect_accurate(p, forced);
  }
}

// Rows past one block: on a CUDA device of compute capability 9.0 and up,
// one pass in thread-block clusters (KernelSpec::cluster) in both
// precisions, placements and directions, clusters of 4 and 8, W of 16 and
// 32 columns, columns of mixed lengths (36864 = 1152 x 32, 49152 = 1536 x
// 32), a 2D array whose rows are clustered and more rows than clusters fit
// the device at once; the lengths the planner leaves to two passes beside
// them; elsewhere all in several passes. The quick tier: each length in
// one precision (single past 65536, where double has none).
TEST_P(Accuracy, ClusteredRows) {
  PrecisionDraw draw("Accuracy.ClusteredRows");
  PlanOptions forced = test_options();  // the device's most (plan/device_limits.cpp)
  forced.limits = "cluster=8";
  int i = 0;
  for (Precision precision : {Precision::Single, Precision::Double})
    for (std::int64_t n : {16384, 32768, 36864, 40000, 49152, 65536, 100000, 131072}) {
      if (n > 65536 ? precision == Precision::Double : !draw.take(precision)) continue;
      Problem p = make(n, 2, i % 2 ? Direction::Inverse : Direction::Forward,
                       (i / 2) % 2 ? Placement::InPlace : Placement::OutOfPlace, Norm::Backward);
      p.precision = precision;
      expect_accurate(p, forced);
      ++i;
    }
  Problem wide;
  wide.shape = {3, 65536};
  wide.axes = {1};
  expect_accurate(wide, forced);
  Problem many = make(65536, 300, Direction::Inverse, Placement::InPlace, Norm::Backward);
  expect_accurate(many, forced);
  many = make(32768, 300, Direction::Forward, Placement::OutOfPlace, Norm::Backward);
  many.precision = Precision::Double;
  expect_accurate(many, forced);
}

TEST_P(Accuracy, RejectsMisuse) {
  const Plan plan(device(), make(64, 1, Direction::Forward, Placement::OutOfPlace));
  Buffer small(device(), 8 * 32), big(device(), 8 * 64);
  EXPECT_THROW(plan.execute(small, big), Error);
  EXPECT_THROW(plan.execute(big, big), Error);  // out-of-place plan given one buffer
}

// Memory the caller owns (a CUdeviceptr) and the stream-taking execute: on
// CUDA the wrapped buffers must give the same result as bfly's own; other
// backends refuse to wrap with a clear error.
TEST_P(Accuracy, CallerOwnedMemory) {
  const Problem p = make(4096, 3, Direction::Forward, Placement::OutOfPlace);
  Buffer in(device(), p.bytes()), out(device(), p.bytes());
  if (device().info().backend != "cuda") {
    EXPECT_THROW(Buffer::wrap(device(), 0x1000, p.bytes()), Error);
    return;
  }
  const Plan plan(device(), p);
  const auto x = random_data(static_cast<std::size_t>(p.elements()));
  std::vector<std::complex<float>> y(x.size());
  poison(y);
  in.write(x.data(), p.bytes());
  out.write(y.data(), p.bytes());
  const Buffer in_view = Buffer::wrap(device(), in.device_pointer(), p.bytes());
  const Buffer out_view = Buffer::wrap(device(), out.device_pointer(), p.bytes());
  plan.execute(in_view, out_view, nullptr);
  device().synchronize();
  out.read(y.data(), p.bytes());
  const Errors e = compare(y, fftw_reference(x, p.length(), p.batch, p.direction));
  EXPECT_TRUE(e.finite);
  EXPECT_LE(e.relative_l2, kTolerance);
  EXPECT_THROW(plan.execute(in_view, Buffer::wrap(device(), in.device_pointer(), p.bytes())), Error)
      << "an out-of-place plan must refuse two views of one buffer";
}

INSTANTIATE_TEST_SUITE_P(Backends, Accuracy, ::testing::Values("cuda", "opencl"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace bfly::test
