// A plain copy kernel in either dialect: the benchmark's measure of what the
// device's memory can move, against which every FFT is reported.
#pragma once

#include <string>

#include "codegen/dialect.hpp"

namespace bfly::codegen {

// Kernel "bfly_copy"(in, out, u64 count): out[i] = in[i] for 16-byte
// elements i < count, one per thread, groups of 256.
std::string generate_copy(DialectKind dialect);
constexpr int kCopyGroupSize = 256;

}  // namespace bfly::codegen
