// Length lists shared by `bfly tune`, `bfly bench` and the NVRTC sweep.
#pragma once

#include <cstdint>
#include <vector>

namespace bfly::cli {

// The lengths the shipped tuning tables hold (`bfly tune --suite tune`):
// powers of two to 32768, the gpu suite's one-kernel smooth sizes, and the
// sizes issue 13 names (6144, 20000, 3*5*7*8 = 840).
inline std::vector<std::int64_t> tune_suite() {
  return {64, 128, 256, 512, 1024, 2048, 4096, 8192, 16384, 32768, 120, 840, 1000, 1536,
          2187, 2401, 3000, 3125, 4000, 6144, 10000, 20000};
}

// 30 smooth lengths in no other suite and in no tuning table (`bfly bench
// --suite smooth`): they show how the planner generalises between tuned
// sizes (a table's neighbours, else the model). 3*5*7*2^k among them.
inline std::vector<std::int64_t> smooth_suite_lengths() {
  return {96,   160,  243,  360,  448,  600,  729,   768,   896,   1280,  1400,  1680,  1800,  2160,  2560,
          3360, 3840, 4800, 5120, 6000, 6720, 7680,  9000,  9600,  12000, 12288, 13440, 15000, 18000, 24000};
}

// 20 lengths from 2^15 to 2^26 in no other suite (`bfly bench --suite
// large`, issue 14's own choice): one pass in clusters (36864..98304), two
// passes chained through L2 or not, smooth and 3*2^k ones between the
// powers of two, and 2^25, 2^26 (unbatched at 2^26 points a case).
inline std::vector<std::int64_t> large_suite_lengths() {
  return {36864,   40000,   49152,   81920,   98304,   147456,  196608,   250000,   327680,   393216,
          500000,  786432,  1000000, 1572864, 2000000, 3145728, 5000000, 12582912, 33554432, 67108864};
}

}  // namespace bfly::cli
