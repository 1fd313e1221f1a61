// bfly bench --app convolve (bench_convolve.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "bfly/bfly.hpp"
#include "bfly/convolve.hpp"

namespace bfly::cli {

struct ConvolveBenchOptions {
  std::vector<std::int64_t> shape{4096, 4096};
  std::vector<std::int64_t> kernel_sizes{3, 15, 63, 255};
  Precision precision = Precision::Single;
  int repetitions = 11;
  ProductAt product = ProductAt::Auto;  // --product
};

int run_convolve_bench(const Device& device, const ConvolveBenchOptions& options);

}  // namespace bfly::cli
