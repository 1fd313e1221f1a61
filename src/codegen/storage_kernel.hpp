// Half storage's conversion kernels (issue 42), for the sides of a plan
// whose passes cannot convert as they load or store (plan/storage.hpp):
// one side of a problem, every element its layout reaches, from 16-bit
// values to fp32 ones at the same offsets of a workspace, or back. One
// kernel a storage, direction and element kind: the layout is arguments.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "bfly/bfly.hpp"
#include "codegen/dialect.hpp"

namespace bfly::codegen {

// Kernel storage_kernel_name(...)(dst, const src, u64 count, u64 e0, u64
// e1, u64 e2, u64 e3, u64 s0, u64 s1, u64 s2, u64 s3, u64 s4): element i <
// count, i = x0 + e0 (x1 + e1 (x2 + e2 (x3 + e3 x4))), is at offset sum x_j
// s_j in both buffers. `to_storage`: fp32 to 16 bits (dst hreal / hcpx),
// else 16 bits to fp32; `complex`: complex points, else reals.
std::string storage_kernel_name(Storage storage, bool to_storage, bool complex);
std::string generate_storage_kernel(DialectKind dialect, Storage storage, bool to_storage, bool complex);
constexpr int kStorageGroupSize = 256;

// One side's elements as that kernel's dims, innermost first: the side's
// shape (row-major) and the batch, at most five.
struct StorageDims {
  std::array<std::int64_t, 5> extent{1, 1, 1, 1, 1};
  std::array<std::int64_t, 5> stride{0, 0, 0, 0, 0};
  std::int64_t count = 1;
};
StorageDims storage_dims(const Problem& problem, bool input);

}  // namespace bfly::codegen
