// The memory check commands make before allocating (io/memory_budget.cpp):
// /proc and cgroup texts parsed, the host's memory the least of its bounds,
// a command's moments gathered into peaks, and the one-line refusals, each
// naming the bytes needed and available and what bounds them. No device, no
// allocation: the facts are given.
#include <gtest/gtest.h>

#include <string>

#include "bfly/bfly.hpp"
#include "io/memory_budget.hpp"

namespace bfly::io {
namespace {

constexpr std::uint64_t kGiB = std::uint64_t{1} << 30;

TEST(MemoryBudget, ParsesProcAndCgroupTexts) {
  const std::string meminfo = "MemTotal:       24684084 kB\nMemFree:        22554832 kB\nMemAvailable:   23623956 kB\n";
  EXPECT_EQ(proc_kib_field(meminfo, "MemAvailable"), std::uint64_t{23623956} * 1024);
  EXPECT_EQ(proc_kib_field(meminfo, "MemFree"), std::uint64_t{22554832} * 1024);
  EXPECT_FALSE(proc_kib_field(meminfo, "Mem").has_value());  // a whole key, not a prefix
  EXPECT_FALSE(proc_kib_field(meminfo, "VmSize").has_value());
  EXPECT_EQ(proc_kib_field("Name:\tbfly\nVmPeak:\t  706204 kB\nVmSize:\t  411624 kB\n", "VmSize"),
            std::uint64_t{411624} * 1024);
  EXPECT_EQ(stat_field("active_file 10\ninactive_file 4096\n", "inactive_file"), 4096u);
  EXPECT_EQ(stat_field("inactive_file 7\ntotal_inactive_file 9\n", "total_inactive_file"), 9u);
  EXPECT_EQ(cgroup_value("1073741824\n"), kGiB);
  EXPECT_FALSE(cgroup_value("max\n").has_value());                  // v2: no limit
  EXPECT_FALSE(cgroup_value("9223372036854771712\n").has_value());  // v1: no limit
}

TEST(MemoryBudget, HostMemoryIsTheLeastBoundNamed) {
  HostFacts facts;
  EXPECT_EQ(host_memory(facts).available, UINT64_MAX);
  EXPECT_EQ(host_memory(facts).bound, "");
  facts.mem_available = 20 * kGiB;
  EXPECT_EQ(host_memory(facts).available, 20 * kGiB);
  EXPECT_NE(host_memory(facts).bound.find("MemAvailable"), std::string::npos);
  facts.address_space_limit = 4 * kGiB;  // ulimit -v, 1 GiB of it mapped already
  facts.address_space_used = 1 * kGiB;
  EXPECT_EQ(host_memory(facts).available, 3 * kGiB);
  EXPECT_NE(host_memory(facts).bound.find("ulimit -v"), std::string::npos);
  facts.data_limit = 2 * kGiB;
  facts.data_used = kGiB / 2;
  EXPECT_EQ(host_memory(facts).available, 3 * kGiB / 2);
  EXPECT_NE(host_memory(facts).bound.find("ulimit -d"), std::string::npos);
  facts.cgroup_limit = 1 * kGiB;
  facts.cgroup_used = 2 * kGiB;  // over its limit: nothing left, not a wrapped-around huge number
  EXPECT_EQ(host_memory(facts).available, 0u);
  EXPECT_NE(host_memory(facts).bound.find("cgroup"), std::string::npos);
}

TEST(MemoryBudget, ReadsThisProcess) {
  const HostFacts facts = read_host_facts();
  ASSERT_TRUE(facts.mem_available.has_value());  // Linux since 3.14
  EXPECT_GT(*facts.mem_available, 0u);
  ASSERT_TRUE(facts.address_space_used.has_value());
  EXPECT_GT(host_memory(facts).available, 0u);
}

TEST(MemoryBudget, MomentsBecomePeaks) {
  MemoryNeeds needs;
  needs.at(10, 0);
  needs.at(4, 20, 15);
  needs.at(8, 5, 5);
  EXPECT_EQ(needs.host_bytes, 10u);
  EXPECT_EQ(needs.device_bytes, 20u);
  EXPECT_EQ(needs.together_bytes, 24u);  // 4 + 20 at once: less than 10 + 20
  EXPECT_EQ(needs.largest_buffer, 15u);
  needs.at(UINT64_MAX, 1);  // sizes from a header can be anything: saturated, not wrapped
  EXPECT_EQ(needs.together_bytes, UINT64_MAX);
  EXPECT_EQ(saturating_product(std::uint64_t{1} << 40, std::uint64_t{1} << 40), UINT64_MAX);
  EXPECT_EQ(saturating_product(0, UINT64_MAX), 0u);
}

std::string refusal(const MemoryNeeds& needs, const HostMemory& host, const DeviceInfo* device) {
  try {
    check_memory(needs, host, device);
  } catch (const Error& e) {
    EXPECT_EQ(e.code(), ErrorCode::OutOfMemory);
    return e.what();
  }
  return "";
}

DeviceInfo device(bool gpu) {
  DeviceInfo info;
  info.spec = gpu ? "cuda:0" : "opencl:0:0";
  info.is_gpu = gpu;
  info.is_cpu = !gpu;
  info.global_memory_bytes = 8 * kGiB;
  info.max_allocation_bytes = 2 * kGiB;
  return info;
}

TEST(MemoryBudget, RefusesInOneLineNamingTheNumbers) {
  MemoryNeeds needs;
  needs.what = "fft of a.npy";
  needs.at(3 * kGiB);
  const HostMemory host{2 * kGiB, "MemAvailable in /proc/meminfo"};
  const std::string line = refusal(needs, host, nullptr);
  EXPECT_EQ(line,
            "fft of a.npy needs 3221225472 bytes, more than the 2147483648 bytes available "
            "(MemAvailable in /proc/meminfo)");
  needs = MemoryNeeds{};
  needs.at(kGiB);
  EXPECT_EQ(refusal(needs, host, nullptr), "");  // fits
}

TEST(MemoryBudget, CpuBuffersAreHostMemory) {
  MemoryNeeds needs;
  needs.what = "filter of a.png";
  needs.at(kGiB, kGiB, kGiB);  // 2 GiB at once
  const HostMemory host{2 * kGiB, "the address-space limit"};
  const DeviceInfo cpu = device(false), gpu = device(true);
  // On the CPU device the buffers and the runtime's share count against the host.
  const std::string line = refusal(needs, host, &cpu);
  EXPECT_NE(line.find("needs " + std::to_string(2 * kGiB + runtime_bytes(cpu)) + " bytes"), std::string::npos) << line;
  EXPECT_NE(line.find("opencl:0:0"), std::string::npos) << line;
  EXPECT_NE(line.find("more than the 2147483648 bytes available (the address-space limit)"), std::string::npos) << line;
  EXPECT_EQ(line.find('\n'), std::string::npos);
  // A GPU's are its own.
  EXPECT_EQ(refusal(needs, host, &gpu), "");
}

TEST(MemoryBudget, DeviceLimits) {
  const HostMemory host{1000 * kGiB, "MemAvailable in /proc/meminfo"};
  const DeviceInfo gpu = device(true);
  MemoryNeeds needs;
  needs.what = "fft of a.npy";
  needs.at(0, 9 * kGiB, kGiB);
  EXPECT_EQ(refusal(needs, host, &gpu),
            "fft of a.npy needs 9663676416 bytes on cuda:0, more than the 8589934592 bytes of its global memory");
  needs = MemoryNeeds{};
  needs.what = "fft of a.npy";
  needs.at(0, 3 * kGiB, 3 * kGiB);
  EXPECT_EQ(refusal(needs, host, &gpu),
            "fft of a.npy needs a buffer of 3221225472 bytes on cuda:0, more than the "
            "largest allocation there, 2147483648 bytes");
}

}  // namespace
}  // namespace bfly::io
