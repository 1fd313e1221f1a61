// One decomposition strategy per file, each with the same small interface
// (FFTW's solvers): whether it applies, and the steps it takes. A step is one
// pass over device memory; make_plan (plan.cpp) then gives the steps their
// buffers and turns each into a KernelSpec.
#pragma once

#include <string>
#include <vector>

#include "plan/launch_model.hpp"
#include "plan/plan.hpp"

namespace bfly::plan {

struct Step;

// What make_pass (plan.cpp) knows of one pass when a solver's core and
// pieces shape its KernelSpec.
struct PassFrame {
  const Problem& problem;  // (the complex side, for passes between a real axis's)
  int dim = 1;             // the dim transformed
  std::int64_t n = 1;      // its points
  std::int64_t span = 1;   // the points its transforms cover: Bluestein's M, n/2 between packed passes, else n
  // Strides of the logical dims in the step's source and destination, and
  // in its convolution's first source and last destination (Rader's x[0]
  // and X[0]).
  const std::vector<std::int64_t>& src;
  const std::vector<std::int64_t>& dst;
  const std::vector<std::int64_t>& caller_src;
  const std::vector<std::int64_t>& caller_dst;
  // A Stockham pass (no core of the solver's): its sub-transform's point
  // stride along the dim, in points (span / length); 0 elsewhere.
  std::int64_t stockham_stride = 0;
  // The spec's dims make_pass added past the core's, with the logical dim
  // each stands for.
  std::vector<std::pair<std::size_t, int>> outer_dims;
};

// A pass whose geometry a solver shapes itself: its core sets the spec's
// length, point strides and the dims it owns, and says how many points of
// the dim one transform covers (the launch's transform count is the
// elements over it); `all_dims`: it placed every dim, make_pass adds none.
struct PassCore {
  std::int64_t points = 1;
  bool all_dims = false;
};
using PassCoreFn = PassCore (*)(KernelSpec& spec, const Step& step, const PassFrame& frame);
// A solver's piece of a pass: the spec's fields of its loads, stores and
// tables, set once the geometry is complete (pieces apply in the order the
// solvers attached them).
using PassPieceFn = void (*)(KernelSpec& spec, const Step& step, const PassFrame& frame);

// The problem as logical dims: dim 0 is the batch, dim a+1 is array axis a.
struct Step {
  enum class Kind { Fft, Transpose };
  Kind kind = Kind::Fft;
  int dim = 1;                      // Fft: the dim transformed; Transpose: the source's innermost dim
  std::int64_t length = 1;          // Fft: points per sub-transform (a Stockham pass of the dim)
  std::int64_t stride_product = 1;  // Fft: P, the product of the dim's earlier passes' lengths
  // Fft: the first pass of a two-pass split [cluster, length] fused into
  // this one across a thread-block cluster (KernelSpec::cluster); 1: none.
  int cluster = 1;
  // Fft: dims `dim` and dim + 1 (the array's two innermost axes) in one
  // pass, a group holding whole planes (KernelSpec::plane_columns).
  bool plane = false;
  // Physical order of the dims where this step writes workspace, outermost
  // first (row-major over that order); empty: natural order.
  std::vector<int> order;
  bool work_only = false;  // the result may only go to workspace (a permuted layout)
  // Bluestein (solvers/bluestein.cpp): an Fft step of a dim of N points
  // done as a convolution of `padded` (M) points. The M-point data lives in
  // workspace only; which sides of the step hold it follows from the role.
  // LoadKernelStore: a forward FFT of one pass (M fits a group but the fused
  // kernel does not fit its registers).
  // Rader: a prime dim of N points as one kernel of an (N - 1)-point
  // convolution (solvers/rader.cpp; length N - 1).
  // Bluestein in three passes (solvers/bluestein.cpp): Turn, one kernel
  // over the second pass's sub-transforms (its forward FFT, the kernel
  // multiply, its inverse, in place), then Unload, the first pass's
  // inverse with the chirp store.
  enum class Chirp { None, Fused, Load, Middle, KernelStore, LoadKernelStore, ChirpStore, Rader, Turn, Unload };
  Chirp chirp = Chirp::None;
  // Rader on a prime factor: the first Stockham pass of a dim of N = p m
  // points, its m p-point sub-transforms each by Rader's one kernel (chirp
  // Rader, length p - 1); 0: Rader on the whole dim.
  std::int64_t prime = 0;
  // A step whose kernel also reads its group's first source and writes its
  // last destination (Rader's kernel store: x[0] and X[0]): how many steps
  // before and after it those steps are (Pass::caller_source and after).
  int reach_back = 0, reach_forward = 0;
  std::int64_t padded = 0;  // M, when chirp != None
  // A convolution's roles (Bluestein's, and Rader's past one kernel): the
  // first pass, which loads the input; the forward FFT's last, which
  // multiplies by the kernel.
  bool loads_convolution() const { return chirp == Chirp::Load || chirp == Chirp::LoadKernelStore; }
  bool stores_kernel() const { return chirp == Chirp::KernelStore || chirp == Chirp::LoadKernelStore; }
  // Where the step's data has `padded` points along the dim: Bluestein's M,
  // or n/2 between the passes of a packed real axis.
  bool padded_source() const {
    return chirp == Chirp::Middle || chirp == Chirp::KernelStore || chirp == Chirp::ChirpStore ||
           chirp == Chirp::Turn || chirp == Chirp::Unload || (packed && padded > 0 && !real_first);
  }
  bool padded_destination() const {
    return chirp == Chirp::Load || chirp == Chirp::Middle || chirp == Chirp::KernelStore ||
           chirp == Chirp::LoadKernelStore || chirp == Chirp::Turn || (packed && padded > 0 && !real_last);
  }
  // Real transforms (solvers/real_axis.cpp). Which data a step reads and
  // writes: Complex is the problem's complex side (the half spectrum of a
  // real problem, over complex_shape()), Real its real side, Full complex
  // points over the real shape (between the passes of a real axis: in
  // workspace only).
  enum class Side { Complex, Real, Full };
  Side from = Side::Complex, to = Side::Complex;
  // The real axis's first step reads the real side (R2C) or the half
  // spectrum (C2R); its last step writes the other. Packed: an even axis as
  // a complex FFT of n/2 points: one step with both roles, or (padded = n/2)
  // several, the real side read or written as complex pairs.
  bool real_first = false, real_last = false, packed = false;
  std::string what;
  // How the solvers shape the step's pass (make_pass applies them): a core
  // of their own in place of a Stockham pass (Bluestein's and Rader's one
  // kernel, the packed real axis, planes), and pieces on top (Bluestein's
  // chirp, Rader's gather and stores, the real axis's loads and stores).
  PassCoreFn core = nullptr;
  std::vector<PassPieceFn> pieces;

  // A group owns whole sub-transforms of the dim: it may write what it read.
  bool may_write_source(const Problem& problem) const;
};

struct Solver {
  const char* name;
  Strategy strategy;
  std::vector<Step> (*steps)(const Problem& problem, const DeviceLimits& limits);
};

// The solver of each strategy.
const std::vector<Solver>& solvers();
// make_plan's second half: a solver's steps (of `problem`, for `limits`
// made for its precision) as passes with their buffers and launches; a
// solver that changes another's steps (plan/solvers/r2r.cpp) plans them here.
PlanTree plan_of_steps(const Problem& problem, std::vector<Step> steps, const char* solver_name,
                       const DeviceLimits& limits, const PlanOptions& options);

// Pass lengths for one axis of n points: {n} when one group can hold it
// (and, for an axis `strided` in memory, n <= max_strided_length), else the
// Stockham split with the fewest passes (cost model in axis_passes.cpp).
// Throws Error(Unsupported) naming n when n cannot be split.
// A `rows` axis (contiguous points of a complex transform) may take one pass
// up to what its table entry asks, and takes the split of the tuning table's entry
// for (precision, n) where it has one that fits.
struct RowAxis {
  bool rows = false;
  Precision precision = Precision::Single;
};
std::vector<std::int64_t> axis_pass_lengths(std::int64_t n, const DeviceLimits& limits, bool strided, RowAxis row = {});
// Whether n takes Stockham passes of codelets: every prime factor has a
// codelet and fits a pass (a forced max_pass_length below 31 sends a
// longer prime factor the way of the longer primes, Rader or Bluestein).
bool stockham_length(std::int64_t n, const DeviceLimits& limits);
// An axis read `stride` elements apart lands on one cache set (a multiple of
// the CPU's aliasing period): axis_pass_lengths then splits it shorter.
bool cache_aliased(const Problem& problem, std::int64_t stride, const DeviceLimits& limits);
// Blocks of a thread-block cluster for a contiguous row of n points
// (KernelSpec::cluster); 1: none.
int cluster_size(std::int64_t n, Precision precision, const DeviceLimits& limits);
// The Fft steps of one dim, with what = "axis A, pass j of k"; Bluestein's
// steps for a length with a prime factor above 31.
// The passes of a convolution of m points along `dim` in workspace
// (Bluestein's, and Rader's past one kernel): what = `axis` plus the pass.
std::vector<Step> convolution_steps(const Problem& problem, int dim, const DeviceLimits& limits,
                                    const std::vector<int>& order, std::int64_t m, const std::string& axis);
// The steps of one dim: the first rule of axis_passes.cpp's table that
// applies (a wide prime by Rader in fp64 on a GPU; Rader; Rader on a prime
// factor; Bluestein; one pass in clusters; Stockham passes).
std::vector<Step> axis_steps(const Problem& problem, int dim, const DeviceLimits& limits,
                             const std::vector<int>& order);

// The Stockham passes of a dim, one step per length (dim, length,
// stride_product and order set; the caller names them and sets the rest).
std::vector<Step> stockham_steps(int dim, const std::vector<std::int64_t>& lengths, const std::vector<int>& order);

// Bluestein's steps for a dim whose length has a prime factor above 31.
std::vector<Step> bluestein_steps(const Problem& problem, int dim, const DeviceLimits& limits,
                                  const std::vector<int>& order);
// Bluestein's three passes (first, middle, last) of `dim` laid out with the
// middle one along rows (solvers/bluestein_rows.cpp), where
// DeviceLimits::bluestein_rows asks and the axis is complex; else as they are.
void bluestein_rows(std::vector<Step>& three, const Problem& problem, int dim, const std::vector<int>& order,
                    const DeviceLimits& limits);
// The stride of Bluestein's padded dim in workspace (row-major over
// `order`, natural when empty).
std::int64_t convolution_stride(const Problem& problem, int dim, const std::vector<int>& order, std::int64_t m);
// The M >= 2N - 1 Bluestein convolves with (c 2^k, c odd and 5-smooth:
// bluestein.cpp).
std::int64_t bluestein_length(std::int64_t n);
// The longest convolution one kernel runs (both FFTs through local memory):
// Bluestein's M, Rader's N - 1.
std::int64_t one_kernel_convolution(const Problem& problem, const DeviceLimits& limits);
// Whether Bluestein's M-point convolution runs in one kernel: up to
// one_kernel_convolution, and past it where the launch stays light.
bool bluestein_one_kernel(const Problem& problem, std::int64_t m, const DeviceLimits& limits);
// Rader's step for a prime dim whose N - 1 points fit one kernel's
// convolution and factor over the codelets; empty where it does not apply.
std::vector<Step> rader_steps(const Problem& problem, int dim, const DeviceLimits& limits,
                              const std::vector<int>& order);
// A composite dim N = p m whose one prime factor p above 31 takes Rader's
// kernel (as rader_steps would for p alone) and whose m is a fast length:
// that kernel as the first pass, m's Stockham passes after; empty where it
// does not apply.
std::vector<Step> rader_factor_steps(const Problem& problem, int dim, const DeviceLimits& limits,
                                     const std::vector<int>& order);

// A real problem's complex side as a C2C problem of complex_shape() in the
// complex side's layout (what the steps of the other axes see); the problem
// itself for C2C.
Problem complex_side(const Problem& problem);
// The steps of a real problem's real axis (dim = real_axis() + 1): one packed
// step where n is even and n/2 fits one pass, else axis_steps() over n with
// the real loads and stores on the first and last.
std::vector<Step> real_axis_steps(const Problem& problem, const DeviceLimits& limits);

// The step of a complex problem's two innermost axes as planes in one pass
// (solvers/plane.cpp), where both are transformed, short enough, and the
// rows contiguous on both sides; empty elsewhere.
std::vector<Step> plane_steps(const Problem& problem, const DeviceLimits& limits);

Solver strided_axes_solver();
Solver row_column_solver();

}  // namespace bfly::plan
