// polymul and bigmul started at a digit width of the caller's choosing
// rather than the error model's: the tests' way to show that the modular
// check rejects a product rounded wrong and that the retries end exact. The
// public polymul and bigmul (bfly/exact.hpp) are these with 0: the model's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bfly/exact.hpp"

namespace bfly::detail {

// `bits`: the first attempt's digit width in bits (1..31), 0 the model's.
std::vector<WideInt> polymul_from(const Device& device, const std::vector<std::int64_t>& a,
                                  const std::vector<std::int64_t>& b, int bits, ExactStats* stats);

// `digits`: the first attempt's digits a limb (1..9 decimal, 1..7 hex), 0 the model's.
std::string bigmul_from(const Device& device, const std::string& x, const std::string& y, int digits,
                        ExactStats* stats);

}  // namespace bfly::detail
