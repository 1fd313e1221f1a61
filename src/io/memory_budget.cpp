#include "io/memory_budget.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <fstream>
#include <sstream>

namespace bfly::io {
namespace {

constexpr std::uint64_t kNone = UINT64_MAX;

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  if (in) text << in.rdbuf();
  return text.str();
}

// The first integer after `key` at the start of a line, as written there.
std::optional<std::uint64_t> number_after(const std::string& text, const std::string& key) {
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = std::min(text.find('\n', at), text.size());
    if (text.compare(at, key.size(), key) == 0) {
      std::istringstream line(text.substr(at + key.size(), end - at - key.size()));
      std::uint64_t value = 0;
      if (line >> value) return value;
    }
    at = end + 1;
  }
  return std::nullopt;
}

std::optional<std::uint64_t> rlimit_bytes(int resource) {
  rlimit limit{};
  if (getrlimit(resource, &limit) != 0 || limit.rlim_cur == RLIM_INFINITY) return std::nullopt;
  return static_cast<std::uint64_t>(limit.rlim_cur);
}

// The process's cgroup directory under /sys/fs/cgroup (v2's "0::/path",
// else v1's memory controller), or the root where that path is not there
// (a container sees its own cgroup as the root).
std::string cgroup_directory(bool* v2) {
  std::istringstream lines(file_text("/proc/self/cgroup"));
  std::string line, v1_path;
  std::optional<std::string> v2_path;
  while (std::getline(lines, line)) {
    if (line.rfind("0::", 0) == 0) v2_path = line.substr(3);
    const std::size_t colon = line.find(':'), second = line.find(':', colon + 1);
    if (colon != std::string::npos && second != std::string::npos) {
      const std::string controllers = "," + line.substr(colon + 1, second - colon - 1) + ",";
      if (controllers.find(",memory,") != std::string::npos) v1_path = line.substr(second + 1);
    }
  }
  auto exists = [](const std::string& path) { return std::ifstream(path).good(); };
  if (v2_path && exists("/sys/fs/cgroup" + *v2_path + "/memory.max")) return *v2 = true, "/sys/fs/cgroup" + *v2_path;
  if (exists("/sys/fs/cgroup/memory.max")) return *v2 = true, "/sys/fs/cgroup";
  *v2 = false;
  if (exists("/sys/fs/cgroup/memory" + v1_path + "/memory.limit_in_bytes")) return "/sys/fs/cgroup/memory" + v1_path;
  return "/sys/fs/cgroup/memory";
}

}  // namespace

std::uint64_t saturating_product(std::uint64_t a, std::uint64_t b) { return a != 0 && b > kNone / a ? kNone : a * b; }

std::uint64_t saturating_sum(std::uint64_t a, std::uint64_t b) { return b > kNone - a ? kNone : a + b; }

void MemoryNeeds::at(std::uint64_t host, std::uint64_t device, std::uint64_t largest) {
  host_bytes = std::max(host_bytes, host);
  device_bytes = std::max(device_bytes, device);
  together_bytes = std::max(together_bytes, saturating_sum(host, device));
  largest_buffer = std::max(largest_buffer, largest);
}

std::optional<std::uint64_t> proc_kib_field(const std::string& text, const std::string& key) {
  const auto kib = number_after(text, key + ":");
  if (!kib) return std::nullopt;
  return saturating_product(*kib, 1024);
}

std::optional<std::uint64_t> stat_field(const std::string& text, const std::string& key) {
  return number_after(text, key + " ");
}

std::optional<std::uint64_t> cgroup_value(const std::string& text) {
  std::istringstream in(text);
  std::uint64_t value = 0;
  // v1 writes "no limit" as the largest multiple of the page size below 2^63.
  if (!(in >> value) || value >= (std::uint64_t{1} << 62)) return std::nullopt;
  return value;
}

HostFacts read_host_facts() {
  HostFacts f;
  f.mem_available = proc_kib_field(file_text("/proc/meminfo"), "MemAvailable");
  const std::string status = file_text("/proc/self/status");
  f.address_space_limit = rlimit_bytes(RLIMIT_AS);
  f.address_space_used = proc_kib_field(status, "VmSize");
  f.data_limit = rlimit_bytes(RLIMIT_DATA);
  f.data_used = proc_kib_field(status, "VmData");
  bool v2 = false;
  const std::string cgroup = cgroup_directory(&v2);
  f.cgroup_limit = cgroup_value(file_text(cgroup + (v2 ? "/memory.max" : "/memory.limit_in_bytes")));
  if (f.cgroup_limit) {
    const auto used = cgroup_value(file_text(cgroup + (v2 ? "/memory.current" : "/memory.usage_in_bytes")));
    const auto inactive = stat_field(file_text(cgroup + "/memory.stat"), v2 ? "inactive_file" : "total_inactive_file");
    if (used) f.cgroup_used = *used - std::min(*used, inactive.value_or(0));
  }
  return f;
}

HostMemory host_memory(const HostFacts& f) {
  HostMemory host;
  auto bound_by = [&](std::uint64_t available, const std::string& why) {
    if (available < host.available) host = {available, why};
  };
  auto left = [](std::uint64_t limit, std::optional<std::uint64_t> used) {
    return limit - std::min(limit, used.value_or(0));
  };
  auto of = [](std::uint64_t limit, std::optional<std::uint64_t> used) {
    return std::to_string(limit) + " bytes, " + std::to_string(used.value_or(0)) + " of them in use";
  };
  if (f.mem_available) bound_by(*f.mem_available, "MemAvailable in /proc/meminfo");
  if (f.address_space_limit)
    bound_by(left(*f.address_space_limit, f.address_space_used),
             "the address-space limit, ulimit -v, of " + of(*f.address_space_limit, f.address_space_used));
  if (f.data_limit)
    bound_by(left(*f.data_limit, f.data_used), "the data limit, ulimit -d, of " + of(*f.data_limit, f.data_used));
  if (f.cgroup_limit)
    bound_by(left(*f.cgroup_limit, f.cgroup_used),
             "the cgroup's memory limit of " + of(*f.cgroup_limit, f.cgroup_used));
  return host;
}

std::uint64_t runtime_bytes(const DeviceInfo& device) {
  // PoCL 3.1 (2-core EPYC): a cached fft of 8 points peaked at 706 MB of
  // address space (VmPeak) where the device opened took 252 MB, and a fresh
  // compile crashed under ulimit -v 1000000 but ran under 1500000. A CUDA
  // host's share is its pinned staging and the driver's threads.
  return device.is_gpu ? std::uint64_t{256} << 20 : std::uint64_t{512} << 20;
}

void check_memory(const MemoryNeeds& needs, const HostMemory& host, const DeviceInfo* device) {
  const bool shared = device != nullptr && !device->is_gpu;  // a CPU device's buffers are host memory
  const std::uint64_t runtime = device != nullptr ? runtime_bytes(*device) : 0;
  const std::uint64_t on_host = saturating_sum(shared ? needs.together_bytes : needs.host_bytes, runtime);
  auto fail = [&](const std::string& why) { throw Error(ErrorCode::OutOfMemory, needs.what + " needs " + why); };
  if (on_host > host.available) {
    std::string parts;
    if (device != nullptr)
      parts = " (its arrays " +
              std::string(shared ? "and the buffers of " + device->spec + ", which are host memory, " : "") + "and " +
              std::to_string(runtime) + " for the device's runtime)";
    fail(std::to_string(on_host) + " bytes" + parts + ", more than the " + std::to_string(host.available) +
         " bytes available (" + host.bound + ")");
  }
  if (device == nullptr) return;
  if (device->global_memory_bytes > 0 && needs.device_bytes > device->global_memory_bytes)
    fail(std::to_string(needs.device_bytes) + " bytes on " + device->spec + ", more than the " +
         std::to_string(device->global_memory_bytes) + " bytes of its global memory");
  if (device->max_allocation_bytes > 0 && needs.largest_buffer > device->max_allocation_bytes)
    fail("a buffer of " + std::to_string(needs.largest_buffer) + " bytes on " + device->spec +
         ", more than the largest allocation there, " + std::to_string(device->max_allocation_bytes) + " bytes");
}

}  // namespace bfly::io
