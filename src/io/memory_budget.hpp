// The one memory check of a command, made before it allocates anything its
// inputs size: what it will hold at its peak (from headers, shapes and
// lengths) against what the host and the device can give, refused in one
// Error naming the bytes needed, the bytes available and what bounds them.
//
// The host's memory is the least of: MemAvailable (/proc/meminfo), the
// address-space and data limits (ulimit -v, ulimit -d: RLIMIT_AS less
// VmSize, RLIMIT_DATA less VmData, as the kernel counts them) and the
// cgroup's memory limit (memory.max, or v1's memory.limit_in_bytes, less
// what the cgroup holds but its inactive file pages, which the kernel
// reclaims first). A CPU device (PoCL) keeps its buffers in host memory, so
// there the two are checked together; a GPU's against its global memory.
// Either way no one buffer may pass the device's largest allocation.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "bfly/bfly.hpp"

namespace bfly::io {

// a * b, or UINT64_MAX past it: sizes from a file's header can be anything.
std::uint64_t saturating_product(std::uint64_t a, std::uint64_t b);
std::uint64_t saturating_sum(std::uint64_t a, std::uint64_t b);

// A command's peaks, built moment by moment (at()) as the command runs:
// what the host and the device hold at once at each step.
struct MemoryNeeds {
  std::string what;                  // the command and its sizes: "fft of a.npy (shape (8), complex64) to (4096)"
  std::uint64_t host_bytes = 0;      // the host's peak
  std::uint64_t device_bytes = 0;    // the device's peak: buffers and plan workspace
  std::uint64_t together_bytes = 0;  // the peak of the two at once (a CPU device's memory is the host's)
  std::uint64_t largest_buffer = 0;  // the largest one device buffer

  // One moment: `host` bytes on the host, `device` on the device, the
  // largest of its buffers `largest`.
  void at(std::uint64_t host, std::uint64_t device = 0, std::uint64_t largest = 0);
};

// What bounds the host's memory, as read (bytes; empty: none or unknown).
struct HostFacts {
  std::optional<std::uint64_t> mem_available;                            // /proc/meminfo MemAvailable
  std::optional<std::uint64_t> address_space_limit, address_space_used;  // RLIMIT_AS, VmSize
  std::optional<std::uint64_t> data_limit, data_used;                    // RLIMIT_DATA, VmData
  std::optional<std::uint64_t> cgroup_limit, cgroup_used;  // memory.max, memory.current less inactive files
};

// The host's memory a process may still take, and what bounds it.
struct HostMemory {
  std::uint64_t available = UINT64_MAX;
  std::string bound;  // e.g. "MemAvailable in /proc/meminfo"; empty: nothing bounds it
};

// A "Key:   123 kB" line of /proc/meminfo or /proc/self/status, in bytes.
std::optional<std::uint64_t> proc_kib_field(const std::string& text, const std::string& key);
// A "key 123" line of a cgroup's memory.stat.
std::optional<std::uint64_t> stat_field(const std::string& text, const std::string& key);
// A cgroup memory file's number; "max" (v2) or v1's near-2^63 mean no limit.
std::optional<std::uint64_t> cgroup_value(const std::string& text);

HostFacts read_host_facts();  // this process, now
HostMemory host_memory(const HostFacts& facts);
inline HostMemory host_memory() { return host_memory(read_host_facts()); }

// Host memory a device's runtime takes on top of the arrays once plans are
// built and run (its compiler, its worker threads); counted where a command
// opens a device.
std::uint64_t runtime_bytes(const DeviceInfo& device);

// Throws Error(OutOfMemory), one line: "<what> needs N bytes, more than the
// M bytes available (<bound>)", or the device's global memory or largest
// allocation where those are what `needs` passes. `device`: null where the
// command opens none.
void check_memory(const MemoryNeeds& needs, const HostMemory& host, const DeviceInfo* device);

}  // namespace bfly::io
