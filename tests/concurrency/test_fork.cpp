// bfly across fork(2) (issue 45; docs/RELIABILITY.md, "Fork"). A child
// forked after its parent used a device cannot use that device (PoCL's
// worker threads and a CUDA context do not cross a fork): every call on it,
// and opening the backend again, must throw an Error that names the cause
// and the fix, at once, never hang; dropping the inherited objects must not
// hang either; and the parent goes on as before. A child forked before any
// device was opened uses bfly as any process does.
//
// Each child runs under alarm(): a hang ends it with SIGALRM, which the
// parent reports. The parent waits at most kWait for it.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "support/backend_test.hpp"
#include "support/reference.hpp"
#include "support/test_options.hpp"

namespace bfly::test {
namespace {

constexpr int kChildAlarmSeconds = 60;
constexpr auto kWait = std::chrono::seconds(90);

const char* const kToken = "c2c_f32_fwd_1000_b4_oop_none";

// Runs `body` in a forked child, which exits with its return value (0: as
// expected); the parent's view: "" or what went wrong.
std::string in_child(const std::function<int()>& body) {
  std::fflush(nullptr);
  const pid_t pid = fork();
  if (pid < 0) return std::string("fork failed: ") + std::strerror(errno);
  if (pid == 0) {
    alarm(kChildAlarmSeconds);
    int code = 99;
    try {
      code = body();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "child: unexpected exception: %s\n", e.what());
      code = 98;
    }
    std::fflush(nullptr);
    _exit(code);
  }
  const auto deadline = std::chrono::steady_clock::now() + kWait;
  int status = 0;
  while (waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      return "the child hung (killed after 90 s)";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  if (WIFSIGNALED(status))
    return std::string("the child died of signal ") + std::to_string(WTERMSIG(status)) +
           (WTERMSIG(status) == SIGALRM ? " (it hung)" : "");
  if (WEXITSTATUS(status) != 0) return "the child exited with " + std::to_string(WEXITSTATUS(status));
  return "";
}

// One execution of `plan` on fresh data, checked against FFTW.
bool executes_correctly(const Device& device, const Plan& plan, std::string* why) {
  const Problem& p = plan.problem();
  const auto input = random_data(static_cast<std::size_t>(p.input_extent()));
  std::vector<std::complex<float>> output(static_cast<std::size_t>(p.output_extent()));
  poison(output);
  Buffer in(device, input.size() * sizeof(input[0])), out(device, output.size() * sizeof(output[0]));
  in.write(input.data(), input.size() * sizeof(input[0]));
  plan.execute(in, out);
  out.read(output.data(), output.size() * sizeof(output[0]));
  const Errors e = compare(output, fftw_reference(p, input));
  if (e.finite && e.relative_l2 <= 5e-7) return true;
  if (why) *why = p.token() + ": relative L2 error " + std::to_string(e.relative_l2);
  return false;
}

// The child's checks where the parent had used `device`: 0 if every call
// refused with the fork error.
int child_refuses(const Device& device, Plan& plan) {
  auto refused = [](const char* what, const std::function<void()>& call) {
    try {
      call();
    } catch (const Error& e) {
      const std::string text = e.what();
      if (text.find("fork") != std::string::npos && text.find("spawn") != std::string::npos) return true;
      std::fprintf(stderr, "child: %s: another error: %s\n", what, e.what());
      return false;
    }
    std::fprintf(stderr, "child: %s: no error\n", what);
    return false;
  };
  int failed = 0;
  const Problem problem = plan.problem();
  const std::size_t bytes = static_cast<std::size_t>(problem.input_extent()) * 8;
  failed += !refused("a buffer on the inherited device", [&] { Buffer b(device, bytes); });
  failed += !refused("a plan on the inherited device", [&] { Plan p(device, problem, test_options()); });
  failed += !refused("the inherited plan's execute_host", [&] {
    std::vector<std::complex<float>> in(bytes / 8), out(static_cast<std::size_t>(problem.output_extent()));
    plan.execute_host(in.data(), out.data());
  });
  failed += !refused("synchronize", [&] { device.synchronize(); });
  failed += !refused("opening the backend again", [&] { Device::open(device.info().spec); });
  // After CUDA, "auto" must not fall back to an OpenCL device unasked.
  if (device.info().backend == "cuda") failed += !refused("opening auto", [&] { Device::open("auto"); });
  { Plan dropped = std::move(plan); }  // dropped, never released: must not hang
  return failed;
}

class Fork : public BackendTest {};

TEST_P(Fork, ChildOfAProcessThatRanTransforms) {
  Plan plan(device(), Problem::parse(kToken), test_options());
  std::string why;
  ASSERT_TRUE(executes_correctly(device(), plan, &why)) << why;
  const std::string child = in_child([&] { return child_refuses(device(), plan); });
  EXPECT_EQ(child, "");
  EXPECT_TRUE(executes_correctly(device(), plan, &why)) << "the parent after the fork: " << why;
  Plan fresh(device(), Problem::parse("c2c_f32_fwd_768_b2_oop_none"), test_options());
  EXPECT_TRUE(executes_correctly(device(), fresh, &why)) << "a new plan in the parent: " << why;
}

// The fork lands while threads run transforms (and hold the device's
// locks): the child still refuses at once, and the threads finish correct.
TEST_P(Fork, ForkWhileThreadsRunTransforms) {
  Plan plan(device(), Problem::parse(kToken), test_options());
  std::atomic<bool> stop{false};
  std::atomic<int> wrong{0}, runs{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 3; ++t)
    threads.emplace_back([&] {
      while (!stop) {
        std::string why;
        if (!executes_correctly(device(), plan, &why)) ++wrong;
        ++runs;
      }
    });
  while (runs < 3) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  const std::string child = in_child([&] { return child_refuses(device(), plan); });
  stop = true;
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(child, "");
  EXPECT_EQ(wrong.load(), 0) << "of " << runs.load() << " executions in the parent";
}

INSTANTIATE_TEST_SUITE_P(Backends, Fork, ::testing::Values("cuda", "opencl"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

// Forked before bfly opened anything, a child opens its own device and
// computes as any process does. Run alone (ctest fork-first): any earlier
// test in the process would have opened the device.
TEST(ForkFirst, ChildUsesBflyWhenTheParentHadNot) {
  const char* spec = std::getenv("BFLY_TEST_DEVICE");
  const std::string child = in_child([&] {
    const Device device = Device::open(spec ? spec : "");
    Plan plan(device, Problem::parse(kToken), test_options());
    std::string why;
    if (!executes_correctly(device, plan, &why)) {
      std::fprintf(stderr, "child: %s\n", why.c_str());
      return 1;
    }
    return 0;
  });
  EXPECT_EQ(child, "");
}

}  // namespace
}  // namespace bfly::test
