// bfly bench --app bigmul (bench_bigmul.cpp).
#pragma once

#include <cstdint>
#include <vector>

#include "bfly/bfly.hpp"

namespace bfly::cli {

struct BigmulBenchOptions {
  std::vector<std::int64_t> digits{10000, 100000, 1000000, 10000000};
  int repetitions = 5;
};

int run_bigmul_bench(const Device& device, const BigmulBenchOptions& options);

}  // namespace bfly::cli
