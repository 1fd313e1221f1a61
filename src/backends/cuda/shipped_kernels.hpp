// Kernels compiled when bfly itself was built (tools/ship_kernels.cpp, issue
// 40): the generic tier's, as cubins for each architecture the build's NVRTC
// targeted (BFLY_SHIP_ARCHS: sm_80 and sm_90 by default), so a device of
// one of them runs the tier's first plan without compiling. Empty where the
// build had no NVRTC. A shipped cubin is used only for exactly the source
// the generator writes now (its hash is part of the key) and only where the
// driver loads it; otherwise the kernel compiles as any other.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace bfly::cuda {

struct ShippedKernel {
  const char* name;
  const char* arch;  // "sm_90"
  std::uint64_t source_hash;
  const unsigned char* cubin;
  std::size_t bytes;
};

// FNV-1a, 64 bits: the source a cubin was compiled from.
inline std::uint64_t source_hash(const std::string& source) {
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char c : source) h = (h ^ c) * 1099511628211ull;
  return h;
}

// The table the build generated (shipped_kernels.cpp in the build tree).
const std::vector<ShippedKernel>& shipped_kernels();

// The cubin of kernel `name` compiled from exactly `source` for `arch`, or
// nullptr.
inline const ShippedKernel* find_shipped(const std::string& name, const std::string& arch, const std::string& source) {
  const std::vector<ShippedKernel>& all = shipped_kernels();
  if (all.empty()) return nullptr;
  const std::uint64_t hash = source_hash(source);
  for (const ShippedKernel& k : all)
    if (k.source_hash == hash && arch == k.arch && name == k.name) return &k;
  return nullptr;
}

}  // namespace bfly::cuda
