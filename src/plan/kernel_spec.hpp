// A KernelSpec holds every parameter that changes generated source. Two
// passes with equal specs share one compiled kernel (batch, direction and
// scaling are run-time arguments, so forward and inverse share too).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bfly/bfly.hpp"

namespace bfly::plan {

// How work-items of a group are assigned to (transform, thread) pairs.
// TransformMajor: the threads of one transform are adjacent (lid = m*T + t),
// so a contiguous transform is read with adjacent addresses.
// ColumnMajor: the same thread of adjacent transforms is adjacent
// (lid = t*M + m), so columns (transforms one element apart) coalesce.
enum class Mapping { TransformMajor, ColumnMajor };

const char* to_string(Mapping m);

// One pass of a Stockham decomposition over the whole transform of `total`
// points: `length`-point sub-transforms of the points strided by total/length,
// pre-multiplied by the pass twiddles w_{p*length}^{n*k} (p = stride_product,
// k = sub-transform index mod p), written to offset (i/p)*p*length + i%p with
// stride p. A single-pass transform is the case length == total, p == 1.
struct KernelSpec {
  Precision precision = Precision::Single;
  std::int64_t length = 1;           // points per sub-transform in this pass
  std::vector<int> radices;          // butterfly stages in order; product == length
  std::int64_t total = 1;            // points per whole transform (batch distance)
  std::int64_t stride_product = 1;   // p: product of the earlier passes' lengths
  int threads_per_transform = 1;     // T
  int transforms_per_group = 1;      // M
  Mapping mapping = Mapping::TransformMajor;
  int twiddle_fine_bits = 0;         // pass twiddles: w^e = fine[e & mask] * coarse[e >> bits]
  // Inner-stage twiddles w_L^e from a two-level table of ~2 sqrt(L) entries
  // (fine[e & mask] * coarse[e >> bits]) instead of L entries, when > 0: a
  // 4096-point table (32 KiB) does not stay in a GPU's L1 beside the data.
  int stage_twiddle_bits = 0;
  // One unused slot after every 16 points of a transform-major local array,
  // so butterflies that write 8-16 points apart hit different banks (GPUs).
  bool local_padding = false;
  // Groups per multiprocessor the CUDA compiler must fit (__launch_bounds__'s
  // second argument), so memory-bound kernels keep enough loads in flight;
  // 0: no requirement. Ignored by OpenCL.
  int min_groups_per_unit = 0;

  std::int64_t input_stride() const { return total / length; }
  std::int64_t output_stride() const { return stride_product; }
  bool has_pass_twiddles() const { return stride_product > 1; }
  int group_size() const { return threads_per_transform * transforms_per_group; }
  // Output goes through local memory when its access pattern does not match
  // the mapping chosen for the input.
  bool store_via_local() const;
  std::size_t local_bytes() const;   // local / shared memory per group
  std::int64_t local_row() const;    // local elements one transform occupies
  // Registers' worth of complex points a thread holds (the widest stage).
  int points_per_thread() const;
  // The kernel's name encodes every parameter above.
  std::string name() const;

  bool operator==(const KernelSpec& o) const;
};

}  // namespace bfly::plan
