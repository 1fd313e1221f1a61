// Half storage's conversions as kernel source (pieces/storage.cpp): the
// functions a kernel that reads or writes 16-bit values calls, the same
// text for the fused passes and the conversion kernels
// (codegen/storage_kernel.hpp), so one exhaustive test covers both.
#pragma once

#include <string>

#include "bfly/bfly.hpp"
#include "codegen/dialect.hpp"

namespace bfly::pieces {

// After the preamble's types and cmake (real is float): typedefs hreal (one
// 16-bit value) and hcpx (a complex point: two, the real part in the low 16
// bits), and
//   real storage_real(u32 bits)    the value of 16 bits
//   u32  storage_bits(real v)      v rounded to nearest even (Inf past the range)
//   cpx  storage_cpx(hcpx p), hcpx storage_pack(cpx v)
// Guarded, so two kernels of one program may both include it.
std::string storage_functions(const codegen::Dialect& dialect, Storage storage);

}  // namespace bfly::pieces
