// Plans built and executed from many threads at once give the bits one
// thread gives (issue 19; DESIGN.md: a plan is thread-safe once built).
//
// Each test runs once per backend (CUDA, OpenCL) on the default device
// (BFLY_TEST_DEVICE pins one, as for the accuracy tests) and is skipped,
// saying why, where the backend has no device. Every execution is compared
// byte for byte (memcmp) with what the same problem's plan gave on the same
// input while no other thread ran: the kernels are deterministic, so any
// difference is a race (a shared workspace, interleaved launches, a kernel's
// arguments set by two threads), not rounding.
//
// BFLY_STRESS_ITERATIONS sets the iterations of every test (default 150:
// 12 s on PoCL with 2 cores idle, 25 s with a build beside it; 2.5 min on
// an H100, its CUDA and OpenCL devices; the sanitizers run 30:
// scripts/sanitize.sh).
// The totals (threads, executions, plans, queues, devices) are printed.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "backends/cuda/driver_api.hpp"
#include "support/backend_test.hpp"
#include "support/tier.hpp"
#include "support/reference.hpp"

#ifdef BFLY_HAVE_OPENCL
#define CL_HPP_TARGET_OPENCL_VERSION 120
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#define CL_HPP_ENABLE_EXCEPTIONS
#include <CL/opencl.hpp>

#include "backends/opencl/opencl_device.hpp"
#endif

namespace bfly::test {
namespace {

constexpr int kThreads = 8;

int iterations() {
  const char* text = std::getenv("BFLY_STRESS_ITERATIONS");
  const int n = text && *text ? std::atoi(text) : 150;
  return std::max(1, n);
}

// Everything the tests did, for the summary docs quote.
struct Totals {
  std::atomic<long> executions{0};
  std::atomic<long> plans{0};
  std::atomic<long> devices{0};
  std::atomic<long> streams{0};
};
Totals& totals() {
  static Totals t;
  return t;
}

// The mix of problems: one pass, passes through one or two workspace
// buffers (in place and out of place), Bluestein, Rader, real, 2D, double.
// A GPU plans some of these in fewer passes, so it gets longer ones too.
std::vector<std::string> problems(const Device& device) {
  std::vector<std::string> tokens = {
      "c2c_f32_fwd_256_b16_oop_none",      // one pass
      "c2c_f32_fwd_65536_b2_oop_none",     // two passes through workspace (PoCL)
      "c2c_f32_inv_12000_b2_ip_backward",  // two passes in place, inverse, scaled
      "c2c_f32_fwd_4099_b2_oop_none",      // Bluestein: four passes, two workspace buffers
      "c2c_f32_fwd_1009_b4_oop_none",      // Rader
      "r2c_f32_fwd_1000_b4_oop_none",      // real, packed
      "c2c_f32_fwd_64x48_b2_oop_none",     // 2D, a strided pass
      "c2c_f64_fwd_4096_b2_oop_ortho",     // double
  };
  if (device.info().is_gpu) {
    tokens.push_back("c2c_f32_fwd_1048576_b1_oop_none");      // two passes on any GPU
    tokens.push_back("c2c_f32_fwd_262144_b4_oop_none");       // two passes chained through L2 (CUDA, Hopper)
    tokens.push_back("c2r_f32_inv_1000000_b1_oop_backward");  // real, two passes
  }
  return tokens;
}

// A queue or stream the test owns, on the device's context.
class Stream {
 public:
  virtual ~Stream() = default;
  virtual void* handle() const = 0;
  static std::unique_ptr<Stream> make(const Device& device);
};

#ifdef BFLY_HAVE_OPENCL
class OpenclQueue final : public Stream {
 public:
  explicit OpenclQueue(const Device& device) {
    const detail::opencl::Handles h = detail::opencl::handles(*device.impl());
    queue_ = cl::CommandQueue(cl::Context(h.context, true), cl::Device(h.device, true));
  }
  void* handle() const override { return queue_(); }

 private:
  cl::CommandQueue queue_;
};
#endif

class CudaStream final : public Stream {
 public:
  explicit CudaStream(const Device& device) : api_(detail::cuda::driver()) {
    const std::string& spec = device.info().spec;
    check(api_->cuDeviceGet(&device_, std::atoi(spec.substr(spec.find(':') + 1).c_str())), "cuDeviceGet");
    check(api_->cuDevicePrimaryCtxRetain(&context_, device_), "cuDevicePrimaryCtxRetain");
    check(api_->cuCtxSetCurrent(context_), "cuCtxSetCurrent");
    check(api_->cuStreamCreate(&stream_, 0), "cuStreamCreate");
  }
  ~CudaStream() override {
    api_->cuCtxSetCurrent(context_);
    api_->cuStreamDestroy(stream_);
    api_->cuDevicePrimaryCtxRelease(device_);
  }
  void* handle() const override { return stream_; }

 private:
  static void check(detail::cuda::CUresult r, const char* what) { detail::cuda::check(r, what); }
  const detail::cuda::DriverApi* api_;
  detail::cuda::CUdevice device_ = 0;
  detail::cuda::CUcontext context_ = nullptr;
  detail::cuda::CUstream stream_ = nullptr;
};

std::unique_ptr<Stream> Stream::make(const Device& device) {
  totals().streams++;
  if (device.info().backend == "cuda") return std::make_unique<CudaStream>(device);
#ifdef BFLY_HAVE_OPENCL
  return std::make_unique<OpenclQueue>(device);
#else
  throw Error(ErrorCode::Unsupported, "no OpenCL in this build");
#endif
}

// Threads released together, so plans are built and launched at once.
class StartLine {
 public:
  explicit StartLine(int threads) : waiting_(threads) {}
  void arrive_and_wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    if (--waiting_ == 0)
      go_.notify_all();
    else
      go_.wait(lock, [&] { return waiting_ == 0; });
  }

 private:
  std::mutex mutex_;
  std::condition_variable go_;
  int waiting_;
};

// Mismatches and errors from the threads, reported by the main thread: the
// first few in full, then how many of each kind (problem and queue).
class Failures {
 public:
  void add(const std::string& kind, const std::string& detail) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (details_.size() < 10) details_.push_back(kind + ": " + detail);
    ++counts_[kind];
  }
  void report() const {
    for (const std::string& s : details_) ADD_FAILURE() << s;
    for (const auto& [kind, count] : counts_) ADD_FAILURE() << count << " failures: " << kind;
  }

 private:
  std::mutex mutex_;
  std::vector<std::string> details_;
  std::map<std::string, long> counts_;
};

// Runs `body(thread)` on kThreads threads started together; an exception
// is a failure of its thread.
template <class Body>
void run_threads(Failures& failures, Body body) {
  StartLine start(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t)
    threads.emplace_back([&, t] {
      start.arrive_and_wait();
      try {
        body(t);
      } catch (const std::exception& e) {
        failures.add("an exception", "thread " + std::to_string(t) + ": " + e.what());
      }
    });
  for (std::thread& t : threads) t.join();
}

// One problem's inputs (fresh random bytes: reals uniform in [-1, 1)) and
// the outputs one thread got for them, alone.
struct Reference {
  Problem problem;
  std::size_t in_bytes = 0, out_bytes = 0, buffer_bytes = 0;
  std::vector<std::vector<unsigned char>> inputs, outputs;
};

constexpr int kInputs = 3;  // inputs per problem: the threads pick among them

std::vector<unsigned char> fresh_bytes(const Problem& p, std::size_t bytes, std::mt19937_64& engine) {
  std::vector<unsigned char> out(bytes);
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  if (p.precision == Precision::Double) {
    for (std::size_t i = 0; i + sizeof(double) <= bytes; i += sizeof(double)) {
      const double v = uniform(engine);
      std::memcpy(&out[i], &v, sizeof v);
    }
  } else {
    for (std::size_t i = 0; i + sizeof(float) <= bytes; i += sizeof(float)) {
      const float v = static_cast<float>(uniform(engine));
      std::memcpy(&out[i], &v, sizeof v);
    }
  }
  return out;
}

// The queue a thread executes on: the device's own through execute(in,
// out), the same through execute_host, a stream of its own, or one of two
// streams every thread shares.
enum class Queue { Default, Host, Own, Shared };
const char* to_string(Queue q) {
  switch (q) {
    case Queue::Default:
      return "the device's queue";
    case Queue::Host:
      return "execute_host";
    case Queue::Own:
      return "a queue per thread";
    case Queue::Shared:
      return "two queues shared by the threads";
  }
  return "?";
}

// Host-memory execution through the typed execute_host the problem takes.
void execute_host(const Plan& plan, const unsigned char* in, unsigned char* out) {
  const Problem& p = plan.problem();
  const bool f64 = p.precision == Precision::Double;
  using cf = std::complex<float>;
  using cd = std::complex<double>;
  switch (p.kind) {
    case Kind::C2C:
      if (f64)
        plan.execute_host(reinterpret_cast<const cd*>(in), reinterpret_cast<cd*>(out));
      else
        plan.execute_host(reinterpret_cast<const cf*>(in), reinterpret_cast<cf*>(out));
      break;
    case Kind::R2C:
      if (f64)
        plan.execute_host(reinterpret_cast<const double*>(in), reinterpret_cast<cd*>(out));
      else
        plan.execute_host(reinterpret_cast<const float*>(in), reinterpret_cast<cf*>(out));
      break;
    case Kind::C2R:
      if (f64)
        plan.execute_host(reinterpret_cast<const cd*>(in), reinterpret_cast<double*>(out));
      else
        plan.execute_host(reinterpret_cast<const cf*>(in), reinterpret_cast<float*>(out));
      break;
  }
}

// A thread's buffers for one problem and one run on them.
class Runner {
 public:
  Runner(const Device& device, const Reference& ref)
      : device_(device),
        ref_(ref),
        in_(device, ref.buffer_bytes),
        out_(ref.problem.placement == Placement::InPlace ? in_ : Buffer(device, ref.out_bytes)) {}

  // Runs input k through `plan` on `queue` (stream: the handle for Own and
  // Shared) and compares with the reference; a mismatch is a failure
  // naming what ran.
  void run(const Plan& plan, int k, Queue queue, void* stream, Failures& failures, const std::string& who) {
    const std::vector<unsigned char>& input = ref_.inputs[static_cast<std::size_t>(k)];
    const std::vector<unsigned char>& expected = ref_.outputs[static_cast<std::size_t>(k)];
    std::vector<unsigned char> output(ref_.out_bytes);
    if (queue == Queue::Host) {
      if (ref_.problem.placement == Placement::InPlace) {
        output = input;
        execute_host(plan, output.data(), output.data());
      } else {
        execute_host(plan, input.data(), output.data());
      }
    } else {
      in_.write(input.data(), input.size());
      if (queue == Queue::Default) {
        plan.execute(in_, out_);
      } else {
        plan.execute(in_, out_, stream);
        device_.synchronize(stream);
      }
      out_.read(output.data(), output.size());
    }
    totals().executions++;
    if (std::memcmp(output.data(), expected.data(), expected.size()) != 0) {
      std::size_t first = 0;
      while (output[first] == expected[first]) ++first;
      failures.add(ref_.problem.token() + " on " + to_string(queue),
                   who + ", input " + std::to_string(k) + ": output differs from the single-threaded run from byte " +
                       std::to_string(first) + " of " + std::to_string(expected.size()));
    }
  }

 private:
  const Device& device_;
  const Reference& ref_;
  Buffer in_, out_;
};

class Concurrency : public BackendTest {
 protected:
  void SetUp() override {
    BackendTest::SetUp();
    if (IsSkipped()) return;
    for (const std::string& token : problems(device())) refs_.push_back(reference(Problem::parse(token)));
  }

  // Inputs and the outputs of one plan run on them by this thread alone.
  Reference reference(const Problem& p) const {
    Reference ref;
    ref.problem = p;
    ref.in_bytes = static_cast<std::size_t>(p.input_extent()) * p.input_element_bytes();
    ref.out_bytes = static_cast<std::size_t>(p.output_extent()) * p.output_element_bytes();
    ref.buffer_bytes = p.placement == Placement::InPlace ? std::max(ref.in_bytes, ref.out_bytes) : ref.in_bytes;
    // The run's seed (printed; BFLY_TEST_SEED repeats it), so a mismatch reproduces.
    std::mt19937_64 engine = engine_for("concurrency inputs " + p.token());
    const Plan plan(device(), p);
    totals().plans++;
    // What runs: the passes, the workspace each queue gets, a chained launch.
    const std::string text = plan.describe();
    std::printf("[ problem  ] %s: %d passes, %zu bytes of workspace a queue%s\n", p.token().c_str(), plan.passes(),
                plan.workspace_bytes(),
                text.find("chained with the next pass") != std::string::npos ? ", chained" : "");
    Buffer in(device(), ref.buffer_bytes);
    Buffer out = p.placement == Placement::InPlace ? in : Buffer(device(), ref.out_bytes);
    for (int k = 0; k < kInputs; ++k) {
      ref.inputs.push_back(fresh_bytes(p, ref.in_bytes, engine));
      ref.outputs.emplace_back(ref.out_bytes);
      in.write(ref.inputs.back().data(), ref.in_bytes);
      plan.execute(in, out);
      out.read(ref.outputs.back().data(), ref.out_bytes);
    }
    return ref;
  }

  static void summary(const char* test, long executions, long plans, long streams) {
    std::printf("[ totals   ] %s: %d threads, %d iterations, %ld executions, %ld plans built, %ld queues or streams\n",
                test, kThreads, iterations(), executions, plans, streams);
  }

  std::vector<Reference> refs_;
};

// Every thread builds its own plans for the whole mix, each iteration anew
// (so builds meet in the device's shared kernels and tables), in its own
// order, and runs them alternately on the device's queue and its own.
TEST_P(Concurrency, ThreadsBuildingTheirOwnPlans) {
  const long executions = totals().executions, plans = totals().plans, streams = totals().streams;
  Failures failures;
  std::vector<std::unique_ptr<Stream>> queues;
  for (int t = 0; t < kThreads; ++t) queues.push_back(Stream::make(device()));
  run_threads(failures, [&](int t) {
    std::mt19937 engine(static_cast<unsigned>(t) * 7919u + 1u);
    std::vector<std::size_t> order(refs_.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    for (int it = 0; it < iterations(); ++it) {
      std::shuffle(order.begin(), order.end(), engine);
      for (std::size_t i : order) {
        const Reference& ref = refs_[i];
        const Plan plan(device(), ref.problem);
        totals().plans++;
        Runner runner(device(), ref);
        const Queue queue = (it + t) % 2 == 0 ? Queue::Default : Queue::Own;
        runner.run(plan, static_cast<int>(engine() % kInputs), queue, queues[static_cast<std::size_t>(t)]->handle(),
                   failures, "thread " + std::to_string(t) + " iteration " + std::to_string(it));
      }
    }
  });
  failures.report();
  summary("threads building their own plans", totals().executions - executions, totals().plans - plans,
          totals().streams - streams);
}

// One plan of each problem shared by every thread, each with buffers of its
// own, on each kind of queue in turn: concurrent executions of one plan on
// one queue interleave their launches, on different queues they overlap.
TEST_P(Concurrency, ThreadsSharingOnePlan) {
  const long executions = totals().executions, plans = totals().plans, streams = totals().streams;
  Failures failures;
  std::vector<std::unique_ptr<Stream>> own, shared;
  for (int t = 0; t < kThreads; ++t) own.push_back(Stream::make(device()));
  for (int s = 0; s < 2; ++s) shared.push_back(Stream::make(device()));
  for (const Reference& ref : refs_) {
    const Plan plan(device(), ref.problem);
    totals().plans++;
    for (Queue queue : {Queue::Default, Queue::Host, Queue::Own, Queue::Shared}) {
      run_threads(failures, [&](int t) {
        std::mt19937 engine(static_cast<unsigned>(t) * 104729u + 3u);
        Runner runner(device(), ref);
        void* stream = queue == Queue::Own      ? own[static_cast<std::size_t>(t)]->handle()
                       : queue == Queue::Shared ? shared[static_cast<std::size_t>(t % 2)]->handle()
                                                : nullptr;
        for (int it = 0; it < iterations(); ++it)
          runner.run(plan, static_cast<int>(engine() % kInputs), queue, stream, failures,
                     "thread " + std::to_string(t) + " iteration " + std::to_string(it));
      });
    }
  }
  failures.report();
  summary("threads sharing one plan", totals().executions - executions, totals().plans - plans,
          totals().streams - streams);
}

// Every thread opens the device itself (a context of its own) and builds
// and runs plans on it at the same time: device creation, the kernels'
// loads from the binary cache and the twiddle tables, all at once.
TEST_P(Concurrency, ThreadsOpeningTheirOwnDevices) {
  const long executions = totals().executions, plans = totals().plans;
  Failures failures;
  const std::string spec = device().info().spec;
  const int rounds = std::max(1, iterations() / 6);  // a device costs every kernel's load again
  run_threads(failures, [&](int t) {
    for (int round = 0; round < rounds; ++round) {
      const Device mine = Device::open(spec);
      totals().devices++;
      for (std::size_t i = static_cast<std::size_t>(t) % 2; i < refs_.size(); i += 2) {
        const Plan plan(mine, refs_[i].problem);
        totals().plans++;
        Runner runner(mine, refs_[i]);
        runner.run(plan, (t + round) % kInputs, Queue::Default, nullptr, failures,
                   "thread " + std::to_string(t) + " on a device of its own");
      }
    }
  });
  failures.report();
  std::printf(
      "[ totals   ] threads opening their own devices: %d threads, %d rounds, %ld executions, %ld plans built, %d "
      "devices opened\n",
      kThreads, rounds, totals().executions - executions, totals().plans - plans, kThreads * rounds);
}

// Every thread builds the same few plans on a device whose kernel cache is
// empty (a fresh BFLY_CACHE_DIR): each kernel is compiled once, by one of
// them, while the others wait for it or compile the next, and stored in the
// cache as the builds run; then a second device loads them all back.
TEST_P(Concurrency, ThreadsCompilingIntoAnEmptyCache) {
  const long executions = totals().executions, plans = totals().plans;
  char pattern[] = "/tmp/bfly-concurrency-cache-XXXXXX";
  ASSERT_NE(mkdtemp(pattern), nullptr);
  const std::string directory = pattern;
  std::optional<std::string> before;
  if (const char* b = std::getenv("BFLY_CACHE_DIR")) before = b;
  setenv("BFLY_CACHE_DIR", directory.c_str(), 1);
  // One pass, two passes of the 2D, a real one: a few kernels (PoCL
  // compiles each in about a second).
  const std::vector<std::size_t> chosen = {0, 5, 6};
  Failures failures;
  int stored = 0;
  for (int round = 0; round < 2; ++round) {  // compiled, then loaded
    const Device fresh = Device::open(device().info().spec);
    totals().devices++;
    run_threads(failures, [&](int t) {
      for (std::size_t k = 0; k < chosen.size(); ++k) {
        const Reference& ref = refs_[chosen[(k + static_cast<std::size_t>(t)) % chosen.size()]];
        const Plan plan(fresh, ref.problem);
        totals().plans++;
        Runner runner(fresh, ref);
        runner.run(plan, t % kInputs, Queue::Default, nullptr, failures,
                   "thread " + std::to_string(t) + (round == 0 ? " compiling" : " loading"));
      }
    });
    if (round == 0) {
      std::error_code ec;
      for (const auto& entry : std::filesystem::recursive_directory_iterator(directory, ec))
        if (entry.path().extension() == ".bin") ++stored;
    }
  }
  if (before)
    setenv("BFLY_CACHE_DIR", before->c_str(), 1);
  else
    unsetenv("BFLY_CACHE_DIR");
  std::error_code ec;
  std::filesystem::remove_all(directory, ec);
  failures.report();
  EXPECT_GT(stored, 0) << "no kernel was stored in " << directory;
  std::printf(
      "[ totals   ] threads compiling into an empty cache: %d threads, %ld executions, %ld plans built, %d kernels "
      "stored\n",
      kThreads, totals().executions - executions, totals().plans - plans, stored);
}

INSTANTIATE_TEST_SUITE_P(Backends, Concurrency, ::testing::Values("cuda", "opencl"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// The totals of the whole run, after the last test.
class PrintTotals : public ::testing::Environment {
 public:
  void TearDown() override {
    std::printf(
        "[ totals   ] all: %d threads, %d iterations, %ld executions compared byte for byte, %ld plans built, "
        "%ld queues or streams, %ld devices opened\n",
        kThreads, iterations(), totals().executions.load(), totals().plans.load(), totals().streams.load(),
        totals().devices.load());
  }
};
const auto* const kTotals = ::testing::AddGlobalTestEnvironment(new PrintTotals);

}  // namespace
}  // namespace bfly::test
