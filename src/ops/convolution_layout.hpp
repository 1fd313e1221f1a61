// How a Convolution maps onto FFTs: which axes are transformed, the padded
// lengths, the broadcast of the other axes and where the result is cut from.
// Pure shape arithmetic (no device), shared by the Convolver and the tests.
#pragma once

#include <cstdint>
#include <vector>

#include "bfly/convolve.hpp"

namespace bfly::ops {

struct ConvolutionLayout {
  int rank = 1;
  // Axes transformed, ascending: the requested ones (all by default) less
  // those where either array has length 1 (SciPy multiplies those by
  // broadcasting).
  std::vector<int> axes;
  // Axes the kernel is reversed along for a correlation: every requested one.
  std::vector<int> reversed_axes;
  bool swapped = false;  // valid mode with the kernel the larger (SciPy swaps)
  // Real-space shapes of the three arrays the FFTs run over: the signal and
  // the kernel zero-padded to the transform lengths on the transformed axes
  // (their own lengths elsewhere), and the product (broadcast lengths).
  std::vector<std::int64_t> signal_padded, kernel_padded, product;
  // The result: product[start + j] for j < output.
  std::vector<std::int64_t> start, output;
  // Overlap-save (1D only, where the cost model prefers it; blocks == 0
  // otherwise): the linear result `product` is made `blocks` at a time of
  // `step` points, each from a circular convolution of `block` points of
  // the zero-extended signal (step = block - (m - 1)).
  std::int64_t blocks = 0, block = 0, step = 0;
};

// Throws Error(InvalidArgument) as Convolution::validate documents.
ConvolutionLayout layout(const Convolution& c);

// Elements of a shape, and its row-major strides.
std::int64_t product_of(const std::vector<std::int64_t>& shape);
std::vector<std::int64_t> strides_of(const std::vector<std::int64_t>& shape);

// The smallest length >= n whose prime factors are 2, 3, 5 and 7 only
// (`even`: and is even, for a real transform's halved axis).
std::int64_t fast_length(std::int64_t n, bool even = false);

}  // namespace bfly::ops
