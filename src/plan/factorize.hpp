// Factorisation of transform lengths: pure functions, no device knowledge.
#pragma once

#include <cstdint>
#include <vector>

namespace bfly::plan {

// Prime factors in ascending order, with repetition (12 -> 2 2 3).
std::vector<std::int64_t> prime_factors(std::int64_t n);

// Largest prime factor (1 for n == 1).
std::int64_t largest_prime_factor(std::int64_t n);

// The largest divisor of n that is at most `limit` (1 when none above 1).
std::int64_t largest_divisor_at_most(std::int64_t n, std::int64_t limit);

// The largest prime with a butterfly of its own (codegen/butterfly.cpp):
// 31; longer prime factors go to Rader or Bluestein.
int largest_codelet();

// A length with a prime factor above 25 (29, 31): its butterflies hold
// 29-31 points a thread. In fp64 on a GPU those need about 250 registers,
// so such kernels keep the plain launch (NVRTC, sm_90: 31 as block rows
// spilled 8 bytes, 31 x 31 as one plane 76; 31, 62, 992, 1364, 3100 and
// 4092 plain, none).
inline bool wide_codelet(std::int64_t n) { return largest_prime_factor(n) > 25; }

// True when every prime factor of n is one of the butterflies we generate.
bool is_supported_length(std::int64_t n);

// Butterfly stages for one in-register/local-memory sub-transform of length n
// (n must be supported). Product equals n; order is the stage order.
std::vector<int> choose_radices(std::int64_t n);

// Splits n into `passes` factors, each <= max_length, as balanced as
// possible (closest to n^(1/passes)). Empty when impossible.
std::vector<std::int64_t> split_length(std::int64_t n, int passes, std::int64_t max_length);

// The butterfly radices the model plans with, largest first.
const std::vector<int>& available_radices();
// The composite butterflies past 16 but 25 and 32 (codegen/butterfly.cpp),
// largest first: only DeviceLimits::composite_radices plans with them
// (plan/composite_radices.cpp).
const std::vector<int>& composite_radices();
// Those, the model's and the radices only a tuning table or a knob may ask for (32: more
// registers a thread than the model gives, measured by bfly tune; 18-28:
// DeviceLimits::composite_radices).
const std::vector<int>& tunable_radices();
// The fewest stages for n from `radices` (as choose_radices), largest first;
// empty when n does not factor over them.
std::vector<int> choose_radices_from(std::int64_t n, const std::vector<int>& radices);

}  // namespace bfly::plan
