// A strided block copy between two buffers, in either dialect: the pack of
// a distributed exchange (a box's part to a peer's run of the send buffer)
// and its unpack (a received run into its place in the next box), on the
// device (distributed/device_copy.cpp).
#pragma once

#include <string>

#include "codegen/dialect.hpp"

namespace bfly::codegen {

// Kernel block_copy_kernel_name(bytes)(dst, src, u64 count, u64 e1, u64 e2,
// u64 dst_offset, u64 d0, u64 d1, u64 d2, u64 src_offset, u64 s0, u64 s1,
// u64 s2): elements of `bytes` (4, 8 or 16) bytes. For every i < count,
// (i0, i1, i2) its index in a row-major block of extents (., e1, e2):
// dst[dst_offset + i0 d0 + i1 d1 + i2 d2] = src[src_offset + i0 s0 + i1 s1 + i2 s2].
// Unlike the box copy (box_copy_kernel.hpp) it writes only the block, so
// several copies fill one buffer.
std::string generate_block_copy(DialectKind dialect, int bytes);
std::string block_copy_kernel_name(int bytes);
constexpr int kBlockCopyGroupSize = 256;

}  // namespace bfly::codegen
