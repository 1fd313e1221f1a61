// Factorisation of transform lengths: pure functions, no device knowledge.
#pragma once

#include <cstdint>
#include <vector>

namespace bfly::plan {

// Prime factors in ascending order, with repetition (12 -> 2 2 3).
std::vector<std::int64_t> prime_factors(std::int64_t n);

// Largest prime factor (1 for n == 1).
std::int64_t largest_prime_factor(std::int64_t n);

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
// Those and the radices only a tuning table may ask for (32: more registers
// a thread than the model gives, measured by bfly tune).
const std::vector<int>& tunable_radices();
// The fewest stages for n from `radices` (as choose_radices), largest first;
// empty when n does not factor over them.
std::vector<int> choose_radices_from(std::int64_t n, const std::vector<int>& radices);

}  // namespace bfly::plan
