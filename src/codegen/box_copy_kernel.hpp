// A box copy with zero fill, in either dialect: the zero padding of a
// convolution's input and the cut of its result (ops/convolver.cpp), on
// the device.
#pragma once

#include <string>

#include "codegen/dialect.hpp"

namespace bfly::codegen {

// Kernel box_copy_kernel_name(bytes)(dst, src, u64 count, u64 d1, u64 d2, u64
// d3, u64 n0..n3, u64 o0..o3, u64 s0..s3): elements of `bytes` (4, 8 or 16)
// bytes. For every i < count, (i0, i1, i2, i3) its index in a row-major
// array of extents (., d1, d2, d3): j_a = i_a + o_a (o_a two's complement,
// may be negative); dst[i] = src[sum j_a s_a] where 0 <= j_a < n_a on every
// axis, else zero.
std::string generate_box_copy(DialectKind dialect, int bytes);

// `typedef ... elem;` for copies of opaque elements of `bytes` (4, 8 or 16)
// bytes in `dialect`, which never look inside them (the box copy and the
// block copy, codegen/block_copy_kernel.hpp). Throws InvalidArgument naming
// `what` for another size.
std::string opaque_element(DialectKind dialect, int bytes, const std::string& what);
std::string box_copy_kernel_name(int bytes);
constexpr int kBoxCopyGroupSize = 256;

}  // namespace bfly::codegen
