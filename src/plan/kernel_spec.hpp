// A KernelSpec holds every parameter that changes generated source. Two
// passes with equal specs share one compiled kernel (batch, direction and
// scaling are run-time arguments, so forward and inverse share too).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bfly/bfly.hpp"
#include "plan/end_ops.hpp"

namespace bfly::plan {

// How work-items of a group are assigned to (transform, thread) pairs.
// TransformMajor: the threads of one transform are adjacent (lid = m*T + t),
// so a contiguous transform is read with adjacent addresses.
// ColumnMajor: the same thread of adjacent transforms is adjacent
// (lid = t*M + m), so columns (transforms one element apart) coalesce.
enum class Mapping { TransformMajor, ColumnMajor };

const char* to_string(Mapping m);

// One axis of the sub-transform index of a pass: `extent` values, stepping
// the input by in_stride and the output by out_stride elements.
struct IndexDim {
  std::int64_t extent = 1;
  std::int64_t in_stride = 0;
  std::int64_t out_stride = 0;
  // The dim's strides in the caller's input and output buffers, where a
  // pass reaches them beside its own (Rader's kernel store: x[0] and X[0]
  // of the sub-transform's row); 0 elsewhere.
  std::int64_t caller_in = 0;
  std::int64_t caller_out = 0;
  bool operator==(const IndexDim& o) const {
    return extent == o.extent && in_stride == o.in_stride && out_stride == o.out_stride && caller_in == o.caller_in &&
           caller_out == o.caller_out;
  }
};

// One pass over device memory: a batch of `length`-point sub-transforms.
// Sub-transform g is the multi-index (c0, c1, ...) over `dims` (innermost
// first); its point n is read at sum c_d * in_stride_d + n * in_point_stride
// and its output k written at sum c_d * out_stride_d + k * out_point_stride.
// The last dim's extent is open (the run-time transform count), so one kernel
// serves every batch.
// A Stockham pass of an axis of N points is the case: L-point sub-transforms
// of the points strided by N/L, pre-multiplied by the pass twiddles
// w_{P*L}^{n*k} (P = stride_product, the product of the earlier passes'
// lengths; k = the index along twiddle_dim, of extent P), written with stride
// P. A single pass is P == 1 with the whole axis as the sub-transform.
// An identity pass copies instead of transforming: the tiled transposes of
// the row-column strategy.
struct KernelSpec {
  Precision precision = Precision::Single;
  std::int64_t length = 1;   // points per sub-transform in this pass
  std::vector<int> radices;  // butterfly stages in order; product == length
  bool identity = false;     // copy (transpose) pass: no butterflies
  std::int64_t in_point_stride = 1;
  std::int64_t out_point_stride = 1;
  std::vector<IndexDim> dims;       // innermost first
  int twiddle_dim = -1;             // index into dims; -1 when stride_product == 1
  std::int64_t stride_product = 1;  // P
  bool wide = false;                // 64-bit offsets (the buffers reach 2^31 elements)
  int threads_per_transform = 1;    // T
  int transforms_per_group = 1;     // M
  Mapping mapping = Mapping::TransformMajor;
  int twiddle_fine_bits = 0;  // pass twiddles: w^e = fine[e & mask] * coarse[e >> bits]
  // Pass twiddles computed (sinpi/cospi of 2e/N) instead of read from the
  // two-level table: two gathered loads a point fewer.
  bool pass_sincos = false;
  // Inner-stage twiddles w_L^e from a two-level table of ~2 sqrt(L) entries
  // (fine[e & mask] * coarse[e >> bits]) instead of L entries, when > 0: a
  // 4096-point table (32 KiB) does not stay in a GPU's L1 beside the data.
  int stage_twiddle_bits = 0;
  // A butterfly's inner-stage twiddles w^t looked up only where t is a
  // power of two, the others products of those (w^t = w^h w^(t - h), h
  // the highest power of two in t): 4 lookups for a radix-16 butterfly
  // instead of 15, where the lookups (two-level: two loads and a product)
  // crowd the load pipe the exchanges through local memory use too, and
  // hold registers. Powers of one w alone (w^2 = w w, ...) cost less but
  // multiply w's rounding by t: 4096 at 2.9e-7 against 1.2e-7 (PoCL).
  bool stage_twiddle_powers = false;
  // One unused slot after every 16 points of a transform-major local array,
  // so butterflies that write 8-16 points apart hit different banks (GPUs).
  bool local_padding = false;
  // Stages exchange real and imaginary parts in two rounds through a local
  // array of reals: half the local memory per point (so longer transforms,
  // or more groups, fit a multiprocessor) for two more barriers a stage.
  // cuFFT's power-of-two kernels reserve about 4 bytes a point, which
  // suggests the same. Plain complex passes only (no local store detour).
  bool local_halves = false;
  // Bluestein's chirp-z (any length N, through an FFT of a power of two M >=
  // 2N - 1; plan/solvers/bluestein.cpp). The tables argument holds the chirp
  // c[j] (N entries) then the convolution kernel K = FFT_M(conj c) / M.
  std::int64_t chirp_length = 0;  // N; 0: not part of a Bluestein transform
  // Loads: point j of the N-point axis is x[j] * c[j], zero for j >= N.
  bool chirp_load = false;
  // Where a load depends on the point's index j along the transformed axis
  // (Bluestein's chirp, a real axis's Hermitian mirror): point n of
  // sub-transform i (i the index along axis_dim, 0 when -1) is j = i + n *
  // axis_stride.
  int axis_dim = -1;
  std::int64_t axis_stride = 1;
  // Stores: output e = k + k' * P of the M-point transform (k the twiddle
  // dim's index) becomes conj(y[e] * K[e]) (Kernel: the forward FFT's last
  // pass, so the inverse FFT that follows is a forward one), or
  // conj(y[e]) * c[e] for e < N only (Chirp: the inverse FFT's last pass).
  // Twiddle: the middle kernel of Bluestein in three passes (a one-kernel
  // convolution over the second pass's sub-transforms, P > 1): its second
  // FFT's outputs times the pass twiddles w^{n k} go back where its points
  // came from, the inverse of the pass that read them (solvers/bluestein.cpp).
  // Where a store has axis_dim (and no chirp load), output e is
  // ci + point * axis_stride: the last of those three passes.
  enum class ChirpStore { None, Kernel, Chirp, Twiddle };
  ChirpStore chirp_store = ChirpStore::None;
  // A whole convolution in one kernel: two FFTs of `length` points through
  // local memory, the kernel multiply between them. Bluestein (chirp
  // load, FFT_M, kernel multiply, FFT_M, chirp store; M fits one group) or,
  // with rader_prime, Rader.
  bool convolve = false;
  // Callbacks (issue 42; pieces/callback.cpp): what the first pass's loads
  // (load_ops: input element o read as f(in[o], o)) and the last pass's
  // stores (store_ops: output element o stored as g(v, o)) do besides
  // reading and writing, the convolution's pointwise product among them
  // (ops/convolver.cpp). Only where can_fuse_load_ops() and
  // can_fuse_store_ops(): the loads and stores that know o.
  EndOps load_ops, store_ops;
  bool can_fuse_store_ops() const;
  bool can_fuse_load_ops() const;
  // Half storage's conversion (pieces/storage.cpp; plan/ends.cpp sets
  // them): the first pass reads 16-bit values and converts them
  // (load_storage), the last converts its stores (store_storage). Native:
  // none.
  Storage load_storage = Storage::Native;
  Storage store_storage = Storage::Native;
  // The output's split (Layout::split; pieces/split_store.cpp; plan.cpp
  // sets it on a plan's one pass): point k of the sub-transform stored at
  // (k / out_split_length) * out_split_stride + (k % out_split_length) *
  // out_point_stride. 0: none.
  std::int64_t out_split_length = 0, out_split_stride = 0;
  // Rader's algorithm in one kernel for the prime p = length + 1
  // (plan/solvers/rader.cpp): points 1..p-1 into local memory as they lie,
  // the first FFT reads them in the generator's order (a[m] = x[g^m]), the
  // second's outputs go back to X[g^-q] through local memory; X[0] and the
  // x[0] every output adds ride on the DC term. The tables argument holds
  // the permutations (g^m, g^-m as the reals of L points: exact below 2^24)
  // then the kernel FFT_L(b) / L (twiddle/rader.hpp). 0: not Rader.
  std::int64_t rader_prime = 0;
  // Rader past one kernel (C2C; solvers/rader.cpp): the convolution's
  // two FFTs in Stockham passes over workspace rows of p - 1 points, like
  // Bluestein's, rader_prime naming the tables. The first pass gathers
  // a[j] = x[g^j] (j the index along the axis, as a chirp load's); the
  // forward FFT's last pass stores conj(A[e] K[e]) and, for e = 0, adds x[0]
  // (read from the original input, `rader_in`, at the row's offset by the
  // dims' caller strides) to the DC term and writes X[0] = A[0] + x[0] to
  // the final output (`rader_out`); the inverse FFT's
  // last pass writes conj(y[q]) to X[g^-q]. The middle passes are plain.
  bool rader_gather = false;
  bool rader_kernel_store = false;
  bool rader_scatter = false;
  // Real transforms (plan/solvers/real_axis.cpp): the real axis's first pass
  // reads one side and its last pass writes the other. Pairs and Mirror /
  // Split are the packed form of an even axis: a complex FFT of n/2 points
  // z[j] = x[2j] + i x[2j+1] (point strides count reals on the real side).
  enum class RealLoad {
    None,
    Real,       // R2C: the real x[j] as x[j] + 0i
    Hermitian,  // C2R: X[j] for j <= n/2, conj(X[n - j]) above (the full spectrum)
    Pairs,      // R2C packed: z[j] from two reals
    Mirror,     // C2R packed: Z[k] from X[k] and X[n/2 - k] (the inverse of Split)
  };
  enum class RealStore {
    None,
    Half,   // R2C: outputs e <= n/2 only (e as for the chirp store)
    Real,   // C2R: the real part
    Split,  // R2C packed: X[k], k = 0..n/2, from Z[k] and Z[n/2 - k] through local memory
    Pairs,  // C2R packed: z[j] as two reals
    // R2C packed, the last of several passes: output e = k + k' * P of
    // sub-transform k needs Z[n/2 - e] of sub-transform P - k, so each group
    // runs pairs (k, P - k) (its transforms m and m + M/2) and splits
    // through local memory. The transform count is twice the pairs.
    SplitPaired,
  };
  RealLoad real_load = RealLoad::None;
  RealStore real_store = RealStore::None;
  std::int64_t real_length = 0;  // n (Bluestein's kernels take it as chirp_n, at run time)
  // The split's w_n^e from a two-level table (fine[e & mask] * coarse[e >>
  // bits]) when > 0, else tables[e] directly (n/2 + 1 entries).
  int real_twiddle_bits = 0;
  // Packed pairs move as one complex access (the real axis contiguous and
  // every offset even).
  bool real_pairs_aligned = false;
  // A DCT or DST fused into an axis's Stockham passes (pieces/r2r.cpp,
  // plan/solvers/r2r.cpp) of a complex FFT of m points (n for types 2 and
  // 3, 2n for type 4, 2(n -+ 1) for types 1) of the axis's n = r2r_points
  // reals: its gather in the first pass's loads (r2r_load: reals read), its
  // twiddle in the last pass's stores (r2r_store: reals written); one pass
  // has both. r2r_type: the type computed; r2r_sine: a DST;
  // r2r_orthogonalize: scipy's sqrt(2) factors.
  bool r2r_load = false, r2r_store = false;
  int r2r_type = 0;
  bool r2r_sine = false;
  bool r2r_orthogonalize = false;
  std::int64_t r2r_points = 0;
  // Types 2 to 4 of an even n in one pass of a complex FFT of n/2 points,
  // two reals a point (pieces/r2r_packed.cpp): r2r_load and r2r_store stay
  // false; the type, sine, orthogonalize and points fields are as above.
  bool r2r_packed = false;
  // Two real rows in one complex transform (pieces/row_pairs.cpp; a real
  // axis that is not packed, plan/solvers/real_axis.cpp): rows 2c and 2c + 1
  // of dims[pair_dim] (its extent halved, rounded up, and its strides
  // doubled, on every pass of the axis) as z = x_a + i x_b. R2C: the first
  // pass reads row b pair_in past row a; the last, in one pass, separates
  // X_a[k] = (Z[k] + conj Z[n - k]) / 2 and X_b[k] = (Z[k] - conj Z[n - k])
  // / 2i through local memory and writes row b pair_out past row a. C2R:
  // the first pass reads Z = X_a + i X_b (each extended by its Hermitian
  // symmetry), the last writes the real parts to row a and the imaginary
  // parts to row b. The dim's own extent (pair_rows, bound at launch: one
  // kernel for every batch) says where the last pair has no row b. pair_in
  // and pair_out are 0 on the passes that do not read or write the rows.
  // Short real rows that lie end to end in both buffers, a thread or a few
  // a row, move as one block of the group's rows through local memory
  // (pieces/real_block.cpp; plan/launch_model.cpp set_real_block), as
  // block_rows does for complex rows: consecutive threads, consecutive
  // elements, where each thread would read its own row.
  bool real_block = false;
  int pair_dim = -1;
  std::int64_t pair_in = 0, pair_out = 0;
  std::int64_t pair_rows = 0;
  bool row_pairs() const { return pair_in != 0 || pair_out != 0; }
  // Groups per multiprocessor the CUDA compiler must fit (__launch_bounds__'s
  // second argument), so memory-bound kernels keep enough loads in flight;
  // 0: no requirement. Ignored by OpenCL.
  int min_groups_per_unit = 0;
  // Persistent groups that stage the next transform's input in local memory
  // while they compute this one (CUDA cp.async, OpenCL
  // async_work_group_copy): a one-kernel transform of many points holds one
  // or two groups per multiprocessor, and without this no loads are in
  // flight while they compute and wait at their barriers. The launch has as
  // many groups as fit the device at once, each looping over transforms.
  // One contiguous transform per group only (staged_allowed). 0: not
  // staged; 1: each thread copies its share (cp.async); 2: one bulk copy of
  // the whole row (Hopper's TMA, cp.async.bulk; rows of a multiple of 16
  // bytes, else as 1), which keeps the copy off the shared-memory queue
  // that the exchange needs. OpenCL's one copy serves both.
  int staged = 0;
  // A thread-block cluster (CUDA, Hopper and later) per transform of
  // length * W points (W = cluster * transforms_per_group), when > 1: the
  // first pass of a two-pass split [length, W] with the second fused in, so
  // each point is read once and written once. Block k of a cluster runs the
  // length-point FFTs of columns M k .. M k + M - 1 (M a sector's points:
  // whole 32-byte sectors load at once, column-major) and leaves them in its
  // local memory (rows of cluster_pitch()); after a cluster barrier it
  // takes a share of the outputs q_b, reads point q_b of all W columns
  // from the blocks' local memory (distributed shared memory), multiplies
  // w_N^{n q_b}, runs their W-point DFT and stores X[q_b + length * a]:
  // runs of consecutive q_b, so the stores coalesce. A last cluster barrier
  // keeps its local memory until the others have read it. Rows only (the
  // axis contiguous in both buffers), complex to complex.
  int cluster = 1;

  // Short rows as one block: the group's transforms lie end to end in both
  // buffers (one open dim of stride `length`, points contiguous), so the
  // group loads its M * length points into local memory as consecutive
  // threads, consecutive points, the first stage reads them from there,
  // and the last writes them back the same way. Where a row has few
  // threads, each would otherwise read and write points a row apart.
  bool block_rows = false;

  // A plane of two axes in one pass (the two innermost axes of a complex
  // array, each row of `plane_columns` points contiguous): the group holds
  // whole planes of R = length rows. The spec's own fields describe the
  // first phase, the R-point FFTs of the plane's columns (column-major,
  // transforms_per_group = planes a group x C, threads_per_transform T1,
  // point strides the row pitches); their outputs go to local memory as
  // rows, and the second phase (plane_row_spec()) runs the C-point FFTs of
  // the rows from there, with plane_threads threads a row, its inner
  // twiddles from the pass_twiddles argument (w_C), and stores them. One
  // read and one write a point where the axes took a pass each. 0: none.
  std::int64_t plane_columns = 0;
  std::vector<int> plane_radices;
  int plane_threads = 1;
  // The rows' outputs go out through local memory, consecutive threads on
  // consecutive points (rows of few threads each: DeviceLimits::plane_block_bytes).
  bool plane_block_store = false;

  bool plane() const { return plane_columns > 0; }
  // Planes a group holds.
  std::int64_t planes_per_group() const { return plane() ? transforms_per_group / plane_columns : 0; }
  // The second phase as a transform-major pass of the rows (local memory
  // in, the output out): what the generator writes it from.
  KernelSpec plane_row_spec() const;

  bool has_pass_twiddles() const { return stride_product > 1; }
  bool clustered() const { return cluster > 1; }
  // Whether the pass can be one half of a chained launch
  // (codegen/chain_kernel.hpp): complex to complex with the plain arguments,
  // one group per launch slot.
  bool chainable() const;
  // W: the columns of a cluster's row (its second, fused DFT's length).
  std::int64_t cluster_width() const { return static_cast<std::int64_t>(cluster) * transforms_per_group; }
  // Points between the rows of a cluster block's outputs in local memory:
  // 8 more than a row, so the last stage's column-major writes (M lanes a
  // sector) and the other blocks' reads of one row both spread over the banks.
  std::int64_t cluster_pitch() const { return length + 8; }
  // Whether the kernel reads a two-level table of w_N^e (pass_twiddles),
  // and N: a later pass's P * L, or a cluster's whole row.
  bool reads_pass_twiddles() const { return has_pass_twiddles() || clustered(); }
  std::int64_t pass_twiddle_points() const { return clustered() ? length * cluster_width() : stride_product * length; }
  bool bluestein() const { return chirp_length > 0; }
  // Bluestein's last stores: output k' of sub-transform k is e = k + k'
  // period. A Stockham pass's twiddle dim (period P), or, in the last of
  // three passes (ChirpStore::Chirp with an axis dim and no chirp or real
  // load), the axis dim (period axis_stride).
  bool chirp_store_along_axis() const {
    return chirp_store == ChirpStore::Chirp && twiddle_dim < 0 && axis_dim >= 0 && !chirp_load &&
           real_load == RealLoad::None;
  }
  std::int64_t chirp_store_period() const { return chirp_store_along_axis() ? axis_stride : stride_product; }
  bool rader() const { return rader_prime > 0; }
  // Rader in one kernel (both FFTs through local memory).
  bool rader_fused() const { return rader_prime > 0 && convolve; }
  bool real() const { return real_load != RealLoad::None || real_store != RealStore::None; }
  // Whether the exchange in halves applies to this pass (plan.cpp sets
  // local_halves only where it does).
  bool halves_allowed() const;
  // Whether staging applies: one transform a group, its points contiguous,
  // read as they are (no pass twiddles, chirp or real-axis load); or a
  // cluster's contiguous chunks.
  bool staged_allowed() const;
  std::size_t stage_bytes() const;         // the staged input's share of local_bytes()
  std::size_t stage_offset_bytes() const;  // where the stage starts in local memory
  std::size_t exchange_bytes() const;      // the exchange array's share
  // (Two rows of Bluestein's split over paired sub-transforms too, but not packed.)
  bool packed() const {
    return real_load == RealLoad::Pairs || real_load == RealLoad::Mirror || real_store == RealStore::Split ||
           (real_store == RealStore::SplitPaired && !row_pairs());
  }
  // (A plane's group has the larger of its phases' threads.)
  int group_size() const;
  // Output goes through local memory when its access pattern does not match
  // the mapping chosen for the input: rows written by a column-major group,
  // or columns by a transform-major one.
  bool store_via_local() const;
  // Whether a piece's stores index the output themselves (pieces/piece.hpp).
  bool pieces_own_store() const;
  bool pieces_store_from_local() const;  // every piece that owns the store can store from local memory
  bool block_rows_allowed() const;
  bool store_rows_via_local() const;     // column-major group, contiguous outputs
  bool store_columns_via_local() const;  // transform-major group, adjacent transforms adjacent
  // The geometry (strides, dims) as text, for comments and the name's hash.
  std::string geometry() const;
  std::size_t local_bytes() const;  // local / shared memory per group
  std::int64_t local_row() const;   // local elements one transform occupies
  // Registers' worth of complex points a thread holds (the widest stage).
  int points_per_thread() const;
  // The kernel's name encodes every parameter above.
  std::string name() const;

  bool operator==(const KernelSpec& o) const;
};

}  // namespace bfly::plan
