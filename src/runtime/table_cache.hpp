// Host tables (Bluestein's chirp and kernel, Rader's permutations and
// kernel) through the on-disk cache beside the kernels: a long table takes
// 0.1-2 s to compute (long-double FFTs of up to 2^22 points) and a few
// milliseconds to read back, so a warm plan of a large prime is not
// dominated by them. The entry's name carries the table's kind, precision,
// length and format; the cache's header checks every byte, and bfly's
// version is part of every key (a newer bfly recomputes). `bfly cache
// info` lists the entries as the device "host tables".
#pragma once

#include <algorithm>
#include <complex>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "backends/device_impl.hpp"
#include "backends/kernel_cache.hpp"

namespace bfly::detail {

// Tables shorter than this are computed every time (a millisecond or two).
constexpr std::size_t kCachedTableEntries = 16384;

// A table's bytes (complex entries of the working precision): mapped from
// the cache's file, or computed. A large table read back goes from the
// page cache to the device without a copy of its own.
struct HostTable {
  KernelCache::Mapping mapped;
  std::vector<unsigned char> computed;
  const unsigned char* data() const { return mapped ? mapped.data() : computed.data(); }
  std::size_t size() const { return mapped ? mapped.size() : computed.size(); }
};

// `compute()` (a std::vector<std::complex<T>>) or its cached result, as the
// entry `name` (e.g. "bluestein_f32_1000003"; `format` names how the table
// is laid out, so a change of layout never reads an old entry).
template <class T, class Compute>
HostTable cached_table(const std::string& name, const std::string& format, Compute compute) {
  using Entry = std::complex<T>;
  const KernelCache cache;
  const std::string identity = "host tables";
  const std::string key = KernelCache::key("table_" + name, format, identity);
  HostTable table;
  if (cache.enabled()) {
    table.mapped = cache.map(key);
    if (table.mapped && table.mapped.size() % sizeof(Entry) == 0) return table;
    table.mapped = {};
  }
  const std::vector<Entry> entries = compute();
  table.computed.resize(entries.size() * sizeof(Entry));
  std::memcpy(table.computed.data(), entries.data(), table.computed.size());
  if (cache.enabled() && entries.size() >= kCachedTableEntries) cache.store(key, table.computed, identity);
  return table;
}

// A table in a new device buffer (of at least one byte).
inline std::shared_ptr<BufferImpl> upload(DeviceImpl& device, const HostTable& table) {
  auto buffer = device.allocate(std::max<std::size_t>(table.size(), 1));
  if (table.size() > 0) device.write(*buffer, table.data(), table.size(), 0);
  return buffer;
}

template <class T>
std::shared_ptr<BufferImpl> upload(DeviceImpl& device, const std::vector<std::complex<T>>& table) {
  auto buffer = device.allocate(std::max<std::size_t>(table.size(), 1) * sizeof(table[0]));
  if (!table.empty()) device.write(*buffer, table.data(), table.size() * sizeof(table[0]), 0);
  return buffer;
}

}  // namespace bfly::detail
