// The big integers of bfly::bigmul as text, and their limbs: what bigmul
// does on the host before and after the convolution, apart so that it can be
// tested and fuzzed without a device (fuzz/fuzz_bigint_text.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bfly::ops {

struct BigText {
  bool negative = false;
  bool hex = false;
  std::string digits;  // most significant first, no leading zeros ("0" for zero, never negative)
};

// Decimal digits, or hex digits after 0x / 0X, with an optional sign;
// surrounding blanks and newlines ignored. Throws Error(InvalidArgument)
// naming `which` ("first", "second") number, the bad character and where it is.
BigText parse_big_text(const std::string& text, const char* which);

// Limbs of k digits (base 10^k or 16^k, k < 16), least significant first,
// balanced: each in [-base/2, base/2), the last one nonzero (one 0 for zero).
std::vector<double> balanced_limbs(const std::string& digits, int k, bool hex);

// The number the digits write, modulo p (p < 2^62).
std::uint64_t residue(const std::string& digits, bool hex, std::uint64_t p);

}  // namespace bfly::ops
