// bfly::distributed: 2D and 3D FFTs of one global array spread over the
// ranks of an MPI communicator (issue 43; docs/DISTRIBUTED.md).
//
// A layer above the library: each rank transforms the axes it holds whole
// with an ordinary bfly::Plan, the ranks exchange blocks with MPI, and each
// transforms the axes made whole (slabs: one exchange; pencils: two).
// Nothing below it knows about MPI; the library target `bfly` has no MPI
// dependency, this one (`bfly_distributed`, built where CMake finds MPI:
// BFLY_MPI) has.
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
  // 3D only, over a P0 x P1 process grid (Problem::grid), rank r at row
  // r / P1 and column r % P1. Input "z-pencils": axis 0 split over P0 (by
  // row), axis 1 over P1 (by column), axis 2 whole. Output "x-pencils":
  // axis 0 whole, axis 1 split over P0 (by row), axis 2 over P1 (by
  // column). Two exchanges: within each row (to y-pencils: axis 1 whole,
  // axis 2 split over P1), then within each column (heFFTe's and
  // 2DECOMP&FFT's pencils, in C order: the contiguous axis first).
  Pencils,
  // Input x-pencils, output z-pencils, as above: the way back from Pencils.
  PencilsTransposedIn,
  // The plan's choice: slabs (one exchange) where every rank holds planes
  // on both sides (2D arrays, or ranks <= the first two lengths), else
  // pencils (a grid given: pencils) on the most square grid that leaves no
  // rank an empty box where one does; the transposed-in way back for inverse
  // transforms, so that Auto forward and Auto inverse round trip on the
  // same boxes. Plan::problem() names the choice.
  Auto,
};
const char* to_string(Decomposition d);  // "slabs", "slabs-transposed-in", "pencils", "pencils-transposed-in", "auto"

// How the exchanges' blocks travel between ranks (docs/DISTRIBUTED.md).
// The blocks are packed and unpacked on the device either way.
enum class Transport {
  // NCCL where every rank's device is a CUDA device and NCCL loads
  // (libnccl.so.2), else Mpi.
  Auto,
  // MPI_Alltoallv over host memory (host-staged): any device, any MPI.
  Mpi,
  // Grouped ncclSend / ncclRecv between device buffers, on the execution's
  // stream (one CUDA device a rank; the communicator from a unique id
  // broadcast over MPI). An error where NCCL or a CUDA device is missing.
  Nccl,
};
const char* to_string(Transport t);  // "auto", "mpi", "nccl"
// How the MPI transport moves an exchange's blocks (the NCCL transport
// always sends and receives each peer's block, grouped: ncclSend/ncclRecv).
enum class ExchangeMethod {
  Alltoallv,     // one MPI_Alltoallv of the blocks as they are (the default)
  Alltoall,      // one MPI_Alltoall, every block padded to the group's largest
  PointToPoint,  // MPI_Isend / MPI_Irecv to and from each peer, then one wait
  // The plan times the three on each exchange's own blocks (the transport
  // alone, the slowest rank's, best of 3 after one untimed) and keeps the
  // fastest; the process remembers it for the next plan of the same
  // problem on as many ranks, and rank 0 records it for the next process
  // on as many ranks and nodes (<cache dir>/tuning/<device>-exchanges.txt,
  // beside the user's tuning table; Plan::describe says "timed fastest" or
  // "recorded fastest"). With NCCL or MPI on device pointers it means nothing.
  Auto,
};
const char* to_string(ExchangeMethod m);  // "alltoallv", "alltoall", "p2p", "auto"

// The NCCL version the Nccl transport would load, as NCCL writes it (e.g.
// 22805 for 2.28.5); 0 where libnccl.so.2 does not load.
int nccl_version();

// The transform, identical on every rank, of the whole global array (all
// its axes), as bfly::Problem's conventions (unnormalised unless `norm`
// says otherwise; the norm's N is the product of the global shape).
//
// Real transforms (R2C forward, C2R inverse, as bfly::Problem): `shape` is
// the real array's; the complex side is the half spectrum, n/2 + 1 points
// along the last axis, and its boxes are boxes of that half shape. The last
// axis is never split on the real side: R2C takes Slabs or Pencils (3D also
// SlabsTransposedIn), C2R SlabsTransposedIn or PencilsTransposedIn (3D also
// Slabs), so a forward R2C and an inverse C2R round trip on the same boxes.
struct Problem {
  std::vector<std::int64_t> shape;  // global shape, 2 or 3 axes, outermost first (the real shape for R2C / C2R)
  Kind kind = Kind::C2C;            // C2C, R2C or C2R
  Precision precision = Precision::Single;
  Direction direction = Direction::Forward;  // R2C forward, C2R inverse
  Norm norm = Norm::None;
  Decomposition decomposition = Decomposition::Slabs;
  // Pencils only: the process grid {P0, P1}, P0 * P1 the communicator's
  // size. Empty: the most square factorisation, P0 >= P1 (4 ranks 2 x 2, 6
  // ranks 3 x 2, 3 ranks 3 x 1).
  std::vector<int> grid;
  Transport transport = Transport::Auto;
  ExchangeMethod exchange = ExchangeMethod::Alltoallv;  // with the MPI transport
  // With NCCL, for slabs (whose first stage leaves axis 0 alone and whose
  // exchange gathers it): the first stage runs in this many chunks of
  // planes, and each chunk's blocks travel while the next chunk computes.
  // 0: the default (4); 1: no chunks (the stage, then the exchange).
  int pipeline = 0;
  // Seconds a rank waits for the others at each of the plan's agreements
  // (making it, each step of an execution) before it throws, where a rank
  // never comes (MPI's collectives wait forever). 0: forever.
  double timeout = 600;

  // One line naming every field, e.g. "c2c_f32_fwd_8x8x8_none_slabs" or
  // "r2c_f64_fwd_6x5x7_none_pencils-2x2" (a grid given), with "_mpi" or
  // "_nccl" where the transport is not Auto, "_alltoall" or "_p2p" where the
  // exchange method is not the default, and "_chunks4" where pipeline is set.
  std::string token() const;
};

// Collective: the device this rank should use. `spec` as Device::open's
// (empty: $BFLY_DEVICE, else "auto"); where it is "", "auto" or "gpu" and
// opens a CUDA device on a host with several, each rank of the host takes
// its own: cuda:(r % count), r its rank among the communicator's ranks on
// that host (MPI_Comm_split_type, shared memory). Any other spec is
// opened as given on every rank.
Device rank_device(MPI_Comm comm, const std::string& spec = "");

class PlanImpl;

// What one execution's phases took, in milliseconds (Plan::profile): the
// local stages, the exchanges (packs, transport, unpacks), and each
// exchange's bound: the transport alone moving the same bytes, no packs.
struct Phases {
  std::vector<double> stage_ms, exchange_ms, bound_ms;
};

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
  // Any boxes (heFFTe's bricks): this rank's own input and output boxes,
  // which over all ranks must tile the global array on each side (the real
  // shape on a real side, the half spectrum on the complex one; a rank may
  // hold nothing: an empty box). The plan runs problem.decomposition in
  // between, reshaping the input boxes to its first stage's and its last
  // stage's to the output boxes (one exchange over every rank each, only
  // where they differ); input_boxes() and output_boxes() are the given
  // ones. Boxes that overlap, leave points out or pass the array are one
  // error on every rank.
  Plan(MPI_Comm comm, const Device& device, const Problem& problem, const Box& input_box, const Box& output_box,
       const PlanOptions& options = {});
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
  // The process grid {P0, P1} (Pencils: given or chosen); {ranks, 1} for slabs.
  const std::vector<int>& grid() const;
  // The transport the plan chose (Auto resolved: Mpi or Nccl).
  Transport transport() const;
  // Device memory the plan uses, in bytes on this rank: two buffers of its
  // largest box (the stages and exchanges take turns), the send and
  // receive buffers of its largest exchange (the parts not sent or received
  // in place), and after a host-memory execute, its input and output.
  std::size_t workspace_bytes() const;
  // The workspace's four parts in bytes (the two box buffers, send,
  // receive). The plan makes its own at the first execute unless the
  // caller supplied them first with set_workspace: four buffers of the
  // plan's device, each at least its part (the caller keeps them alive
  // and gives each plan executing at once its own). Throws InvalidArgument
  // naming the buffer that does not fit. Not collective.
  std::vector<std::size_t> workspace_parts() const;
  void set_workspace(std::vector<Buffer> parts);
  // The plan in words: the problem, this rank's boxes and local plans.
  std::string describe() const;

  // Collective and blocking: `in` holds input_box().elements() points of
  // this rank, `out` receives output_box().elements() (either may be null
  // where its box is empty). The element types must match the kind and
  // precision: complex in and out for C2C, real in for R2C, real out for C2R.
  // A failure on any rank (a wrong element type, a null array for a
  // non-empty box, a device error) is thrown on every rank, the same.
  // Not concurrent with another execution of the same plan.
  void execute(const std::complex<float>* in, std::complex<float>* out) const;
  void execute(const std::complex<double>* in, std::complex<double>* out) const;
  void execute(const float* in, std::complex<float>* out) const;    // R2C
  void execute(const double* in, std::complex<double>* out) const;  // R2C
  void execute(const std::complex<float>* in, float* out) const;    // C2R
  void execute(const std::complex<double>* in, double* out) const;  // C2R

  // The same on device buffers of the plan's device (`in` at least the
  // input box's bytes, `out` the output box's), enqueued on `stream` (a
  // CUstream / cudaStream_t, or a cl_command_queue; nullptr: the device's
  // queue; on CUDA the legacy default stream, and the call returns when the
  // transform is done). With NCCL on a stream it returns without waiting
  // (stream-ordered); with MPI each exchange waits for the stream.
  // `in` is kept (the stages write the plan's buffers and `out`). In
  // place: one buffer as both, of the larger side's bytes (the first stage
  // has read all of it before the last writes).
  void execute(const Buffer& in, const Buffer& out, void* stream = nullptr) const;

  // Collective: one execution on device buffers, waiting for the device
  // and for every rank (MPI_Barrier) after each phase, so the phases can be
  // timed (the first stage and exchange one after the other, never in the
  // pipeline's overlapped chunks); then each exchange's transport alone.
  // For benchmarks (`bfly bench --distributed`): the times are this rank's.
  Phases profile(const Buffer& in, const Buffer& out) const;

 private:
  std::unique_ptr<PlanImpl> impl_;
};

}  // namespace bfly::distributed
