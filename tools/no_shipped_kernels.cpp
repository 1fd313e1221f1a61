// The build tool's own table of shipped cubins: none (it makes the
// library's, tools/ship_kernels.cpp).
#include "backends/cuda/shipped_kernels.hpp"

namespace bfly::cuda {

const std::vector<ShippedKernel>& shipped_kernels() {
  static const std::vector<ShippedKernel> none;
  return none;
}

}  // namespace bfly::cuda
