// Direct (spatial) 2D convolution of a real image, mode same, in either
// dialect: the baseline `bfly bench --app convolve` sets the FFT convolution
// against on the same device, to find the kernel width where the FFT wins.
#pragma once

#include <string>

#include "bfly/bfly.hpp"
#include "codegen/dialect.hpp"

namespace bfly::codegen {

// Kernel direct_convolution_kernel_name(precision)(out, image, kernel, u64
// h, u64 w, u64 kh, u64 kw): out (h x w) = image (h x w, zero outside)
// convolved with kernel (kh x kw), centred as scipy.signal.convolve's
// 'same' (output (y, x) is the full result's (y + (kh-1)/2, x + (kw-1)/2)).
// A thread makes kDirectOutputs adjacent outputs of one row, sliding its
// window of image values along the kernel's row: one image load and one
// (uniform) kernel load per kDirectOutputs multiply-adds. Launch
// h * ceil(w / kDirectOutputs) threads in groups of kDirectGroupSize.
std::string generate_direct_convolution(DialectKind dialect, Precision precision);
std::string direct_convolution_kernel_name(Precision precision);
constexpr int kDirectGroupSize = 128;
constexpr int kDirectOutputs = 4;

}  // namespace bfly::codegen
