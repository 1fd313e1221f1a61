// Exact integer arithmetic through bfly's FFTs: integer polynomial
// multiplication (numpy.convolve on integers, without its wrap-around).
//
// How exactness is kept (docs/EXACT.md has the argument): each coefficient
// is split into balanced digits of b bits, the digit arrays are convolved in
// fp64 (bfly::Convolver, one 2D convolution: coefficients x digits), the
// sums rounded to integers and recombined with carries. b comes from an
// error model of the fp64 convolution, and the result is then checked
// independently: the product polynomial evaluated at a random point modulo a
// random 61-bit prime must equal the product of the factors' values there.
// A mismatch (a rounding error the model missed, of any size) retries with
// narrower digits; a wrong product passes the check with probability at most
// (degree / 2^60) per attempt.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "bfly/bfly.hpp"

namespace bfly {

// A signed integer of 256 bits (two's complement): wide enough for any
// coefficient of a product of int64 polynomials (at most 2^126 * 2^63).
class WideInt {
 public:
  WideInt() = default;
  explicit WideInt(std::int64_t v);
  // Adds v * 2^shift (shift < 192).
  void add_shifted(std::int64_t v, int shift);
  bool negative() const { return static_cast<std::int64_t>(words_[3]) < 0; }
  bool fits_int64() const;
  std::int64_t to_int64() const;  // throws Error(InvalidArgument) when it does not fit
  std::string to_string() const;  // decimal, '-' for negatives
  // The value modulo p (0 <= result < p), for p < 2^62.
  std::uint64_t mod(std::uint64_t p) const;
  bool operator==(const WideInt& o) const { return words_ == o.words_; }
  bool operator!=(const WideInt& o) const { return !(*this == o); }

 private:
  std::array<std::uint64_t, 4> words_{};  // least significant first
};

struct ExactStats {
  int limb_bits = 0;                          // polymul: digit width (bits) of the attempt that passed
  int limb_digits = 0;                        // bigmul: decimal or hex digits a limb of the attempt that passed
  int attempts = 0;                           // 1 unless the check sent it back
  std::vector<std::int64_t> transform_shape;  // the 2D convolution's padded shape
  // bigmul's time by part (all attempts), in milliseconds: the digits into
  // limbs and the product's limbs back into digits; the convolution
  // (transfers, plans and FFTs) and the carries; the modular check.
  double convert_ms = 0, multiply_ms = 0, check_ms = 0;
};

// The product of two integer polynomials (coefficients lowest degree first):
// a.size() + b.size() - 1 exact coefficients. Throws Error(InvalidArgument)
// for an empty factor. `device`: where the convolution runs.
std::vector<WideInt> polymul(const Device& device, const std::vector<std::int64_t>& a,
                             const std::vector<std::int64_t>& b, ExactStats* stats = nullptr);

// The exact product of two integers written as text: decimal digits, or
// hexadecimal after "0x" (either case), with an optional sign; surrounding
// blanks and newlines ignored. Both in the same base; the product is
// written in it (hex in lower case with "0x"). Computed as a polynomial
// product in base 10^k or 16^k with balanced digits (k from the error
// model), then carried; checked modulo two random 61-bit primes (a wrong
// product passes with probability below digits / 2^56) and retried with
// smaller k on a mismatch. Throws Error(InvalidArgument) naming what is
// not an integer, or bases that differ.
std::string bigmul(const Device& device, const std::string& x, const std::string& y, ExactStats* stats = nullptr);

}  // namespace bfly
