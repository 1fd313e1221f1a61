// bfly::distributed: 2D and 3D FFTs of one global array spread over the
// ranks of an MPI communicator (issue 43; docs/DISTRIBUTED.md).
//
// A layer above the library: each rank transforms the axes it holds whole
// with an ordinary bfly::Plan, the ranks exchange blocks with MPI, and each
// transforms the axis that was split. Nothing below it knows about MPI; the
// library target `bfly` has no MPI dependency, this one (`bfly_distributed`,
// built where CMake finds MPI: BFLY_MPI) has.
//
//   bfly::distributed::Problem problem;
//   problem.shape = {64, 64, 64};                     // the global array
//   bfly::distributed::Plan plan(MPI_COMM_WORLD, bfly::Device::open(), problem);
//   std::vector<std::complex<float>> in(plan.input_box().elements()), out(plan.output_box().elements());
//   plan.execute(in.data(), out.data());              // collective: every rank calls it
//
// Every call here is collective over the communicator: every rank makes the
// same plans in the same order and executes them in the same order.
#pragma once

#include <mpi.h>

#include <cstdint>
#include <vector>

#include "bfly/bfly.hpp"

namespace bfly::distributed {

// A rectangular part of the global array: the indices lower[k] <= i_k <
// upper[k] along each axis k (upper exclusive, unlike heFFTe's box3d). A
// rank's data for a box is the box's elements in row-major order of the
// global axes (axis 0 outermost), contiguous. A box may be empty (a rank
// past the length of the split axis holds nothing).
struct Box {
  std::vector<std::int64_t> lower, upper;
  std::vector<std::int64_t> shape() const;  // upper - lower per axis
  std::int64_t elements() const;            // the product of shape(); 0 for an empty box
  bool empty() const { return elements() == 0; }
  bool operator==(const Box& other) const { return lower == other.lower && upper == other.upper; }
  bool operator!=(const Box& other) const { return !(*this == other); }
};

// How the global array is spread over the ranks. An axis of length n split
// over P ranks gives rank r the indices [r*q + min(r, m), (r+1)*q + min(r+1, m))
// with q = n / P and m = n % P (the first m ranks one more; ranks past n none).
enum class Decomposition {
  // Input split along axis 0, output along axis 1 (FFTW-MPI's layout with
  // FFTW_MPI_TRANSPOSED_OUT, cuFFTMp's slab X to slab Y): one exchange.
  Slabs,
  // Input split along axis 1, output along axis 0: the way back from Slabs
  // (FFTW_MPI_TRANSPOSED_IN), e.g. for the inverse of a Slabs forward.
  SlabsTransposedIn,
};

}  // namespace bfly::distributed
