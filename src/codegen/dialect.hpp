// The only place the two target languages differ: a small table chosen at
// run time. Everything else in codegen writes dialect-neutral text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "bfly/bfly.hpp"

namespace bfly::codegen {

enum class DialectKind { OpenCL, Cuda };
const char* to_string(DialectKind d);
DialectKind parse_dialect(const std::string& text);  // throws Error naming the text

struct Dialect {
  DialectKind kind;
  const char* global;         // pointer address-space qualifier
  const char* function;       // qualifier of helper functions
  const char* barrier;        // group-wide barrier on local memory
  const char* local_id;       // this thread's index in its group (unsigned)
  const char* group_id;       // this group's index
  const char* group_count;    // the launch's number of groups
  const char* local_pointer;  // qualifier of a pointer into local memory
  const char* u32;
  const char* u64;
  const char* fma_single;
  // Largest local array declared statically; above it CUDA needs dynamic
  // shared memory (opt-in past 48 KiB), OpenCL has no such split.
  std::size_t static_local_limit;

  // Type definitions for `real` and `cpx` (self-contained: no headers).
  std::string types(Precision precision) const;
  // Body of `cpx cmake(real x, real y)`.
  const char* make_body;
  // Emit a pass as a device function of its group index (`bfly_group`, its
  // first parameter) instead of a kernel: the bodies of a chained launch
  // (codegen/chain_kernel.hpp). CUDA only.
  bool device_function = false;
  // Half storage's conversions (pieces/storage.cpp): a 16-bit unsigned type
  // and the bit casts between float and u32.
  const char* u16 = "";
  const char* float_of_bits = "";
  const char* bits_of_float = "";
  // `cluster` > 1: blocks launch in clusters of that many (CUDA only).
  std::string kernel_head(const std::string& name, int group_size, int min_groups_per_unit = 1, int cluster = 1) const;
  // A local array of `elements` values of `type` (cpx, or real for a
  // kernel that exchanges real and imaginary parts in two rounds).
  // `beside`: static bytes the kernel declares besides (a staged kernel's
  // mbarrier), which count towards the static limit.
  std::string local_array(const std::string& name, std::size_t elements, std::size_t element_bytes,
                          const std::string& type = "cpx", std::size_t beside = 0) const;
  // Staged kernels (KernelSpec::staged): one group-wide asynchronous copy of
  // `count` points from global `from` to local `to` (every thread of the
  // group runs it alike), and the wait for this group's copies; the copy is
  // visible to the whole group after the wait and a barrier.
  // `bulk`: one thread starts one bulk copy of the whole row (CUDA's
  // cp.async.bulk onto an mbarrier; the row a multiple of 16 bytes), where
  // the input is 16-byte aligned (checked at run time).
  std::string stage_setup(bool bulk) const;  // declarations, before the first copy
  std::string stage_copy(const std::string& to, const std::string& from, std::int64_t count, int group_size,
                         Precision precision, bool bulk) const;
  std::string stage_wait(bool bulk) const;
};

const Dialect& dialect(DialectKind kind);

}  // namespace bfly::codegen
