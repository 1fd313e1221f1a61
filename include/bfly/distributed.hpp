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

#include <complex>
#include <cstdint>
#include <memory>
#include <string>
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
const char* to_string(Decomposition d);  // "slabs", "slabs-transposed-in"

// The transform, identical on every rank: C2C of the whole global array
// (all its axes), as bfly::Problem's conventions (unnormalised unless
// `norm` says otherwise; the norm's N is the product of the global shape).
struct Problem {
  std::vector<std::int64_t> shape;  // global shape, 2 or 3 axes, outermost first
  Kind kind = Kind::C2C;            // C2C only in this version
  Precision precision = Precision::Single;
  Direction direction = Direction::Forward;
  Norm norm = Norm::None;
  Decomposition decomposition = Decomposition::Slabs;

  // One line naming every field, e.g. "c2c_f32_fwd_8x8x8_none_slabs".
  std::string token() const;
};

class PlanImpl;

class Plan {
 public:
  // Collective. Checks that every rank passed the same problem (and a
  // communicator of the same size) before anything else, and that every
  // rank could make its local plans, so a mistake gives the same one-line
  // bfly::Error on every rank instead of a hang. `options` reach the local
  // bfly::Plans (tier, tuning, limits); callbacks are refused (Unsupported)
  // in this version. The communicator is duplicated: the plan's messages
  // never meet the caller's. Destroy plans before MPI_Finalize.
  Plan(MPI_Comm comm, const Device& device, const Problem& problem, const PlanOptions& options = {});
  ~Plan();
  Plan(Plan&&) noexcept;
  Plan& operator=(Plan&&) noexcept;

  const Problem& problem() const;
  // This rank's part of the input and of the output (Decomposition above).
  const Box& input_box() const;
  const Box& output_box() const;
  // Every rank's boxes, indexed by rank (the same on every rank).
  const std::vector<Box>& input_boxes() const;
  const std::vector<Box>& output_boxes() const;
  // Host memory the plan holds for staging (send, receive and local
  // results), in bytes on this rank.
  std::size_t workspace_bytes() const;
  // The plan in words: the problem, this rank's boxes and local plans.
  std::string describe() const;

  // Collective and blocking: `in` holds input_box().elements() points of
  // this rank, `out` receives output_box().elements() (either may be null
  // where its box is empty). The element type must match the precision.
  // A failure on any rank (a wrong element type, a null array for a
  // non-empty box, a device error) is thrown on every rank, the same.
  // Not concurrent with another execution of the same plan.
  void execute(const std::complex<float>* in, std::complex<float>* out) const;
  void execute(const std::complex<double>* in, std::complex<double>* out) const;

 private:
  std::unique_ptr<PlanImpl> impl_;
};

}  // namespace bfly::distributed
