// `bfly bench --suite random --seed S`: lengths and shapes drawn from a seed,
// so that a planner's figures can be shown on sizes nobody chose (issue 39:
// the seeds are picked after the code is final). The draw depends on the
// seed alone: std::mt19937_64, whose output the C++ standard fixes, mapped
// by this file's own arithmetic (the standard's distributions differ
// between libraries), so a seed names the same cases everywhere.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bfly/bfly.hpp"

namespace bfly::cli {

struct RandomCase {
  std::vector<std::int64_t> shape;
  Kind kind = Kind::C2C;
  const char* family = "";  // "smooth", "2d", "3d", "prime", "odd real"
};

// The cases of `seed`, distinct, in the order drawn: 40, enough that a
// geometric mean over one seed moves little, few enough for one device
// call. Of them, 18 1D smooth
// lengths (prime factors <= 7, one in five <= 13) from 2 to 2^24, the
// logarithm uniform; 6 2D images (axes 16..4096) and 4 3D volumes (axes
// 8..256), smooth, at most 2^24 points; 6 primes from 3 to 2^21; 6 odd
// lengths from 9 to 2^16 as real (r2c) transforms.
std::vector<RandomCase> random_cases(std::uint64_t seed);

// A seed for a run that names none (printed, so the run can be repeated).
std::uint64_t fresh_seed();

}  // namespace bfly::cli
