// WideInt: 256-bit two's complement, just what exact products need.
#include <algorithm>

#include "bfly/exact.hpp"

namespace bfly {

WideInt::WideInt(std::int64_t v) {
  const std::uint64_t fill = v < 0 ? ~std::uint64_t{0} : 0;
  words_ = {static_cast<std::uint64_t>(v), fill, fill, fill};
}

void WideInt::add_shifted(std::int64_t v, int shift) {
  if (v == 0) return;
  // v * 2^shift as a sign-extended 256-bit value, then a full-width add.
  std::array<std::uint64_t, 4> addend{};
  const std::uint64_t fill = v < 0 ? ~std::uint64_t{0} : 0;
  const int word = shift / 64, bit = shift % 64;
  const unsigned __int128 wide = static_cast<unsigned __int128>(static_cast<__int128>(v)) << bit;
  for (int w = 0; w < 4; ++w) {
    if (w < word)
      addend[w] = 0;
    else if (w == word)
      addend[w] = static_cast<std::uint64_t>(wide);
    else if (w == word + 1)
      addend[w] = static_cast<std::uint64_t>(wide >> 64);
    else
      addend[w] = fill;
  }
  unsigned __int128 carry = 0;
  for (int w = 0; w < 4; ++w) {
    const unsigned __int128 sum = static_cast<unsigned __int128>(words_[w]) + addend[w] + carry;
    words_[w] = static_cast<std::uint64_t>(sum);
    carry = sum >> 64;
  }
}

bool WideInt::fits_int64() const {
  const std::uint64_t fill = static_cast<std::int64_t>(words_[0]) < 0 ? ~std::uint64_t{0} : 0;
  return words_[1] == fill && words_[2] == fill && words_[3] == fill;
}

std::int64_t WideInt::to_int64() const {
  if (!fits_int64()) throw Error(ErrorCode::InvalidArgument, to_string() + " does not fit int64");
  return static_cast<std::int64_t>(words_[0]);
}

namespace {

// The magnitude of a two's complement value.
std::array<std::uint64_t, 4> magnitude(std::array<std::uint64_t, 4> w, bool negative) {
  if (!negative) return w;
  unsigned __int128 carry = 1;
  for (auto& x : w) {
    const unsigned __int128 sum = static_cast<unsigned __int128>(~x) + carry;
    x = static_cast<std::uint64_t>(sum);
    carry = sum >> 64;
  }
  return w;
}

// Divides the magnitude by d in place, returning the remainder.
std::uint64_t divide(std::array<std::uint64_t, 4>& w, std::uint64_t d) {
  unsigned __int128 rem = 0;
  for (int i = 3; i >= 0; --i) {
    const unsigned __int128 cur = (rem << 64) | w[i];
    w[i] = static_cast<std::uint64_t>(cur / d);
    rem = cur % d;
  }
  return static_cast<std::uint64_t>(rem);
}

}  // namespace

std::string WideInt::to_string() const {
  auto m = magnitude(words_, negative());
  std::string digits;
  const std::uint64_t chunk = 10000000000000000000ull;  // 10^19
  do {
    std::uint64_t r = divide(m, chunk);
    const bool more = std::any_of(m.begin(), m.end(), [](std::uint64_t x) { return x != 0; });
    for (int i = 0; i < 19 && (more || r); ++i, r /= 10) digits += static_cast<char>('0' + r % 10);
    if (!more) break;
  } while (true);
  if (digits.empty()) digits = "0";
  if (negative()) digits += '-';
  std::reverse(digits.begin(), digits.end());
  return digits;
}

std::uint64_t WideInt::mod(std::uint64_t p) const {
  auto m = magnitude(words_, negative());
  const std::uint64_t r = divide(m, p);
  return negative() && r ? p - r : r;
}

}  // namespace bfly
