// WaitNotice (runtime/wait_notice.hpp, issue 40): a plan that waits for its
// kernels past the threshold says so once, from a thread of its own, and
// once more when they are made; one that does not wait says nothing; a
// callback that throws changes nothing.
#include <gtest/gtest.h>

#include <chrono>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "runtime/wait_notice.hpp"

namespace {

using bfly::detail::WaitNotice;
using namespace std::chrono_literals;

struct Heard {
  std::mutex mutex;
  std::vector<std::string> messages;
  std::thread::id thread;
  void operator()(const std::string& m) {
    std::lock_guard<std::mutex> lock(mutex);
    messages.push_back(m);
    thread = std::this_thread::get_id();
  }
};

TEST(WaitNotice, ALongWaitIsToldOnceAndItsEndOnce) {
  Heard heard;
  {
    WaitNotice notice([&](const std::string& m) { heard(m); }, "c2c_f32_fwd_4111_b1_oop_none", 3, 20ms);
    std::this_thread::sleep_for(200ms);
    notice.done();
    notice.done();  // idempotent
  }
  ASSERT_EQ(heard.messages.size(), 2u);
  EXPECT_NE(heard.messages[0].find("compiling 3 kernels for c2c_f32_fwd_4111_b1_oop_none"), std::string::npos)
      << heard.messages[0];
  EXPECT_NE(heard.messages[1].find("made in 0."), std::string::npos) << heard.messages[1];
}

TEST(WaitNotice, AShortWaitSaysNothing) {
  Heard heard;
  const auto start = std::chrono::steady_clock::now();
  {
    WaitNotice notice([&](const std::string& m) { heard(m); }, "p", 1, 10s);
  }
  // done() wakes the watcher: no waiting out the threshold.
  EXPECT_LT(std::chrono::steady_clock::now() - start, 2s);
  EXPECT_TRUE(heard.messages.empty());
}

TEST(WaitNotice, NoCallbackOrNoKernelsSayNothingAndAThrowingCallbackIsContained) {
  { WaitNotice notice(nullptr, "p", 2, 1ms); }
  Heard heard;
  {
    WaitNotice notice([&](const std::string& m) { heard(m); }, "p", 0, 1ms);
    std::this_thread::sleep_for(30ms);
  }
  EXPECT_TRUE(heard.messages.empty());
  int calls = 0;
  {
    WaitNotice notice(
        [&](const std::string&) {
          ++calls;
          throw std::runtime_error("a caller's bug");
        },
        "p", 1, 1ms);
    std::this_thread::sleep_for(50ms);
  }
  EXPECT_EQ(calls, 2);
}

}  // namespace
