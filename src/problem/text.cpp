#include "problem/text.hpp"

#include <cerrno>
#include <cstdlib>

#include "bfly/bfly.hpp"

namespace bfly::text {

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> parts;
  std::string::size_type start = 0;
  while (true) {
    const auto end = s.find(sep, start);
    parts.push_back(s.substr(start, end - start));
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return parts;
}

std::int64_t parse_int(const std::string& s, const std::string& what) {
  if (s.empty() || s.find_first_not_of("-0123456789") != std::string::npos)
    throw Error(ErrorCode::InvalidArgument, "invalid " + what + " '" + s + "' (expected an integer)");
  errno = 0;
  char* end = nullptr;
  const long long v = std::strtoll(s.c_str(), &end, 10);
  if (*end != '\0')  // a sign inside, or nothing but one
    throw Error(ErrorCode::InvalidArgument, "invalid " + what + " '" + s + "' (expected an integer)");
  if (errno == ERANGE) throw Error(ErrorCode::InvalidArgument, "invalid " + what + " '" + s + "' (out of range)");
  return v;
}

std::vector<std::int64_t> parse_shape(const std::string& s) {
  std::vector<std::int64_t> dims;
  for (const std::string& part : split(s, 'x')) dims.push_back(parse_int(part, "length"));
  return dims;
}

std::string shape(const std::vector<std::int64_t>& dims) {
  std::string out;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (i) out += 'x';
    out += std::to_string(dims[i]);
  }
  return out;
}

std::string product(const std::vector<std::int64_t>& factors) {
  std::vector<std::uint32_t> limbs{1};  // base 10^9, least significant first
  for (std::int64_t f : factors) {
    std::uint64_t factor = static_cast<std::uint64_t>(f < 0 ? 0 : f);
    // limb < 2^30 and factor < 2^63: every partial product fits in 128 bits.
    unsigned __int128 carry = 0;
    for (std::uint32_t& limb : limbs) {
      const unsigned __int128 v = static_cast<unsigned __int128>(limb) * factor + carry;
      limb = static_cast<std::uint32_t>(v % 1000000000u);
      carry = v / 1000000000u;
    }
    while (carry > 0) {
      limbs.push_back(static_cast<std::uint32_t>(carry % 1000000000u));
      carry /= 1000000000u;
    }
  }
  while (limbs.size() > 1 && limbs.back() == 0) limbs.pop_back();
  std::string out = std::to_string(limbs.back());
  for (std::size_t i = limbs.size() - 1; i-- > 0;) {
    const std::string digits = std::to_string(limbs[i]);
    out += std::string(9 - digits.size(), '0') + digits;
  }
  return out;
}

}  // namespace bfly::text
