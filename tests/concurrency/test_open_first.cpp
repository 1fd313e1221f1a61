// Threads opening a process's first devices at the same moment each get a
// device (a regression: on PoCL 3.1 through the ICD loader all but one
// found "OpenCL platforms found, but none has a device" while the platform
// started). Its own executable: nothing may open a device before it.
#include <gtest/gtest.h>

#include <string>
#include <thread>
#include <vector>

#include "bfly/bfly.hpp"

namespace {

TEST(OpenFirst, ThreadsOpenDevicesAtOnce) {
  const int threads = 6;
  std::vector<std::string> got(threads);
  std::vector<std::thread> team;
  for (int t = 0; t < threads; ++t)
    team.emplace_back([&got, t] {
      try {
        got[t] = bfly::Device::open().info().spec;
      } catch (const std::exception& e) {
        got[t] = std::string("error: ") + e.what();
      }
    });
  for (std::thread& thread : team) thread.join();
  for (int t = 1; t < threads; ++t) EXPECT_EQ(got[t], got[0]) << "thread " << t;
  EXPECT_EQ(got[0].rfind("error", 0), std::string::npos) << got[0];
}

}  // namespace
