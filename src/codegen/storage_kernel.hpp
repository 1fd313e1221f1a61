// The ends' kernels (issue 42), for the sides of a plan whose passes cannot
// convert or call back as they load or store (plan/ends.hpp): one side of
// a problem, every element its layout reaches, read from one buffer and
// written at the same offset of another. A load side reads the caller's
// input (16-bit values where half storage, converted) and writes the
// values its callback makes (pieces/callback.hpp) to a workspace; a store
// side reads the workspace and writes the callback's values (converted)
// to the caller's output. One kernel a side's kind: the layout is
// arguments.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "bfly/bfly.hpp"
#include "codegen/dialect.hpp"
#include "plan/end_ops.hpp"

namespace bfly::codegen {

// Kernel end_kernel_name(...)(dst, const src, [const real* data,] u64
// count, u64 e0, u64 e1, u64 e2, u64 e3, u64 s0, u64 s1, u64 s2, u64 s3,
// u64 s4): element i < count, i = x0 + e0 (x1 + e1 (x2 + e2 (x3 + e3 x4))),
// is at offset sum x_j s_j in both buffers. data: where `ops` has any.
struct EndKernel {
  Precision precision = Precision::Single;
  Storage storage = Storage::Native;  // the caller's side holds 16-bit values
  bool load = true;                   // a load side (caller's to workspace), else a store side
  bool complex = true;                // the side holds complex points (else reals)
  plan::EndOps ops;                   // the side's callback (empty: none)
};
std::string end_kernel_name(const EndKernel& kernel);
std::string generate_end_kernel(DialectKind dialect, const EndKernel& kernel);

// Half storage's conversions alone: `to_storage` a store side.
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
