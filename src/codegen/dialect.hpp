// The only place the two target languages differ: a small table chosen at
// run time. Everything else in codegen writes dialect-neutral text.
#pragma once

#include <cstddef>
#include <string>

#include "bfly/bfly.hpp"

namespace bfly::codegen {

enum class DialectKind { OpenCL, Cuda };
const char* to_string(DialectKind d);
DialectKind parse_dialect(const std::string& text);  // throws Error naming the text

struct Dialect {
  DialectKind kind;
  const char* global;        // pointer address-space qualifier
  const char* function;      // qualifier of helper functions
  const char* barrier;       // group-wide barrier on local memory
  const char* local_id;      // this thread's index in its group (unsigned)
  const char* group_id;      // this group's index
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
  std::string kernel_head(const std::string& name, int group_size, int min_groups_per_unit = 1) const;
  // A local array of `elements` values of `type` (cpx, or real for a
  // kernel that exchanges real and imaginary parts in two rounds).
  std::string local_array(const std::string& name, std::size_t elements, std::size_t element_bytes,
                          const std::string& type = "cpx") const;
};

const Dialect& dialect(DialectKind kind);

}  // namespace bfly::codegen
