// Length lists shared by `bfly tune`, `bfly bench` and the NVRTC sweep.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bfly::cli {

// The lengths the shipped tuning tables hold (`bfly tune --suite tune`):
// powers of two to 32768, the gpu suite's one-kernel smooth sizes, and the
// sizes issue 13 names (6144, 20000, 3*5*7*8 = 840).
inline std::vector<std::int64_t> tune_suite() {
  return {64,  128,  256,  512,  1024, 2048, 4096, 8192, 16384, 32768, 120,
          840, 1000, 1536, 2187, 2401, 3000, 3125, 4000, 6144,  10000, 20000};
}

// 30 smooth lengths in no other suite and in no tuning table (`bfly bench
// --suite smooth`): they show how the planner generalises between tuned
// sizes (a table's neighbours, else the model). 3*5*7*2^k among them.
inline std::vector<std::int64_t> smooth_suite_lengths() {
  return {96,   160,  243,  360,  448,  600,  729,  768,  896,  1280,  1400,  1680,  1800,  2160,  2560,
          3360, 3840, 4800, 5120, 6000, 6720, 7680, 9000, 9600, 12000, 12288, 13440, 15000, 18000, 24000};
}

// 20 lengths from 2^15 to 2^26 in no other suite (`bfly bench --suite
// large`, issue 14's own choice): one pass in clusters (36864..98304), two
// passes chained through L2 or not, smooth and 3*2^k ones between the
// powers of two, and 2^25, 2^26 (unbatched at 2^26 points a case).
inline std::vector<std::int64_t> large_suite_lengths() {
  return {36864,  40000,  49152,   81920,   98304,   147456,  196608,  250000,   327680,   393216,
          500000, 786432, 1000000, 1572864, 2000000, 3145728, 5000000, 12582912, 33554432, 67108864};
}

// The names `bfly bench --suite` takes.
inline std::vector<std::string> suite_names() {
  return {"pocl", "gpu", "smooth", "large", "tune", "demo", "2d", "3d", "prime", "prime-extra", "prime-nd", "real"};
}

// The arrays of the named bench suite (bench_runner.cpp `suite` sizes their
// batches); empty for a name not in suite_names(). The NVRTC sweep and the
// kernel-source hashes plan them too (tests/support/planned_kernels.cpp).
inline std::vector<std::vector<std::int64_t>> suite_shapes(const std::string& name) {
  std::vector<std::vector<std::int64_t>> shapes;
  if (name == "pocl") {
    // The core issue's CPU table: powers of two and the Mali seed's mixed radices.
    for (std::int64_t n : {64, 256, 1024, 4096, 16384, 65536, 1 << 20, 120, 1000, 3000, 2187, 3125, 2401, 1536})
      shapes.push_back({n});
  } else if (name == "demo") {
    for (std::int64_t n : {256, 1000, 4096, 65536}) shapes.push_back({n});
  } else if (name == "gpu") {
    // The CUDA issue's table: powers of two 2^6..2^24 and mixed radix sizes.
    for (int log2n = 6; log2n <= 24; ++log2n) shapes.push_back({std::int64_t{1} << log2n});
    for (std::int64_t n : {120, 1000, 1536, 2187, 2401, 3000, 3125, 4000, 10000, 100000}) shapes.push_back({n});
  } else if (name == "smooth") {
    // Smooth lengths in no other suite and no tuning table (above).
    for (std::int64_t n : smooth_suite_lengths()) shapes.push_back({n});
  } else if (name == "large") {
    // Past one block, 2^15..2^26, in no other suite (above).
    for (std::int64_t n : large_suite_lengths()) shapes.push_back({n});
  } else if (name == "tune") {
    // The lengths the shipped tuning tables hold.
    for (std::int64_t n : tune_suite()) shapes.push_back({n});
  } else if (name == "2d") {
    // The multi-dimensional issue's 2D sizes: the seeds' images, non-square ones, 4096^2.
    shapes = {{120, 120}, {512, 512}, {1000, 1000}, {2048, 2048}, {3000, 3000},
              {480, 640}, {7, 4096},  {4096, 7},    {4096, 4096}};
  } else if (name == "3d") {
    shapes = {{64, 64, 64}, {100, 100, 100}, {96, 128, 80}, {7, 5, 3}, {128, 128, 128}, {256, 256, 256}};
  } else if (name == "prime") {
    // Lengths only Bluestein (or a large-prime pass) reaches: primes, 2^k+1
    // (4097 = 17*241, 1048577 = 17*61681) and 10403 = 101*103, each after a
    // power of two of about its size, so the rows show Bluestein's cost over a
    // fast length (DESIGN.md: cuFFT moves 65537 at 0.19 TB/s, two-pass powers of
    // two at 0.94-1.41).
    for (std::int64_t n :
         {17, 127, 1024, 1009, 2039, 4096, 4093, 4097, 10403, 65536, 65521, 65537, 1 << 20, 1000003, (1 << 20) + 1})
      shapes.push_back({n});
  } else if (name == "prime-extra") {
    // Primes and awkward lengths in no other suite (the primes issue's own
    // choice): Rader in one kernel (257, 641, 1021, 2593, 3889, 4051), p - 1
    // smooth but past one kernel (7681, 8209, 12289), p - 1 with a large
    // prime factor (1019 = 2 x 509 + 1, 2027, 8219, 100003), and prime
    // factors inside composites (3093 = 3 x 1031, 261952 = 64 x 4093).
    for (std::int64_t n : {257, 641, 1019, 1021, 2027, 2593, 3093, 3889, 4051, 7681, 8209, 8219, 12289, 100003, 261952})
      shapes.push_back({n});
  } else if (name == "prime-nd") {
    // Prime axes in 2D and 3D: every axis through Bluestein; the small 3D one is batched.
    shapes = {{1009, 1013}, {17, 19, 23}};
  } else if (name == "real") {
    // The real-transform issue's sizes: powers of two 2^8..2^24 (even: the
    // half-length complex FFT and a post-pass), 1000, an odd 4097 = 17 * 241,
    // and 2D / 3D ones with an odd last (halved) axis among them.
    for (int log2n = 8; log2n <= 24; ++log2n) shapes.push_back({std::int64_t{1} << log2n});
    for (std::int64_t n : {1000, 4097}) shapes.push_back({n});
    for (auto shape : std::vector<std::vector<std::int64_t>>{
             {1024, 1024}, {4096, 4096}, {1000, 1000}, {513, 511}, {64, 64, 64}, {256, 256, 256}, {64, 64, 63}})
      shapes.push_back(shape);
  }
  return shapes;
}

}  // namespace bfly::cli
