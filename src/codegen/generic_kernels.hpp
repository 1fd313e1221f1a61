// The generic tier's kernels (issue 40): fixed sources that take a
// transform's length, factorisation, strides and tables as arguments, so
// one compile per device and precision serves every length
// (runtime/generic_plan.cpp). Both dialects.
//
// Row kernel `generic_row_name`: groups of kGenericGroupSize threads, each
// group `per_group` transforms of n <= capacity points through local memory
// (two arrays of per_group ns points; a transform's points ns apart, ns = n
// or n + 1 against bank conflicts), the stages a run-time loop of radix-r
// Stockham steps (r in 2..max_radix, one byte each of `radices`, first stage
// in the lowest byte), the inner twiddles from `tw` (n entries,
// exp(-2 pi i e / n)). Transform t is (o, a, q) = (t / (mid * inner),
// (t / inner) % mid, t % inner); its point i is read at o * in_outer +
// a * in_mid + q * in_inner + i * in_point and written likewise with the
// out_ strides, times scale and, where big_n > 0, w_big_n^(a * i) from the
// two-level table (fine[e mod 2^big_bits] * coarse[e >> big_bits]): a
// four-step decomposition's twiddles. `order` bit 0 (loads) and bit 1
// (stores): consecutive threads visit consecutive transforms rather than
// consecutive points (strided points, transforms side by side). `sign` is
// +1 forward, -1 inverse (the tables' imaginary parts are multiplied by it).
//   (in, out, tw, fine, coarse, n, ns, radices, stages, count, per_group, order,
//    mid, inner, in_outer, in_mid, in_inner, in_point, out_outer, out_mid,
//    out_inner, out_point, big_n, big_bits, sign, scale)
//
// Reshape kernel `generic_reshape_name`: for each index (i0..i4) of an
// array of extents (count / (d1 d2 d3 d4), d1, d2, d3, d4), one point from
// src at sum i_j s_j to dst at sum i_j t_j, times scale. mode 0: complex to
// complex; 1: real to complex (imaginary 0); 2: a Hermitian half to the
// whole (along axis `real_axis` indices past `half` read the mirror,
// conjugated: i_j -> (e_j - i_j) mod e_j on the axes in `mirror`, bit j);
// 3: complex to real (the real part). One point a thread, its index's
// digits in 32 bits where count < 2^32.
//   (src, dst, count, d1, d2, d3, d4, s0..s4, t0..t4, mode, real_axis, half,
//    e0..e4, mirror, scale)
//
// Chirp kernel `generic_chirp_name` (Bluestein): mode 0 loads rows of n
// points (addressed as the row kernel's input, mid = 1) times
// chirp[m] = exp(-i pi m^2 / n) (imaginary part times sign) into dense rows
// of `m` points, zero past n; mode 1 stores the first n points of dense
// rows of `m` times the chirp and scale, addressed as the row kernel's
// output. One point a thread.
//   (src, dst, chirp, n, m, count, inner, outer_stride, inner_stride, point, mode, sign, scale)
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "bfly/bfly.hpp"
#include "codegen/dialect.hpp"

namespace bfly::codegen {

constexpr int kGenericGroupSize = 128;
constexpr int kGenericMaxStages = 8;

// `max_radix`: the largest radix the kernel takes (8 or 16: radices 11 and
// 13 need the wider one, whose 16 slots cost registers); its groups a
// multiprocessor asked of the compiler: generic_row_groups. A launch's
// local memory (CUDA's dynamic shared memory): generic_row_local_bytes of
// per_group * n points.
std::string generic_row_name(Precision precision, std::int64_t capacity, int max_radix);
std::string generate_generic_row(DialectKind dialect, Precision precision, std::int64_t capacity, int max_radix);
int generic_row_groups(Precision precision, int max_radix);
// The radices the row kernel of `max_radix` has a codelet for.
std::vector<int> generic_row_radices(int max_radix);
std::size_t generic_row_local_bytes(Precision precision, std::int64_t points);
std::string generic_reshape_name(Precision precision);
std::string generate_generic_reshape(DialectKind dialect, Precision precision);
std::string generic_chirp_name(Precision precision);
std::string generate_generic_chirp(DialectKind dialect, Precision precision);

// The longest row the row kernel holds: two arrays of it within 48 KiB
// (CUDA's static shared memory) or the device's local memory, if less.
std::int64_t generic_capacity(std::size_t local_memory_bytes, Precision precision);

// Every kernel the tier may launch on a device of that much local memory,
// (name, source), in both precisions: what the build ships compiled for
// CUDA (tools/ship_kernels.cpp) so that even a device's first generic plan
// compiles nothing.
std::vector<std::pair<std::string, std::string>> generic_kernel_sources(DialectKind dialect,
                                                                        std::size_t local_memory_bytes);

}  // namespace bfly::codegen
