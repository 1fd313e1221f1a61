// Butterflies: the DFT of a few points held in registers, written once,
// forward only (the inverse runs the forward kernel on conjugated data).
#pragma once

#include <string>
#include <vector>

#include "codegen/emitter.hpp"

namespace bfly::codegen {

// Emits the forward DFT of `inputs` (variable names, natural order) and
// returns the names holding X[0..r-1] in natural order. Radix 1 returns the
// input unchanged.
std::vector<std::string> emit_dft(Emitter& e, const std::vector<std::string>& inputs);

// Emits `value * w_n^exponent` with the cheap forms for multiples of pi/4
// and returns the resulting name or expression.
std::string emit_constant_twiddle(Emitter& e, const std::string& value, long long exponent, long long n);

}  // namespace bfly::codegen
