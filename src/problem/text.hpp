// Small text helpers shared by the token parser and the CLI.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bfly::text {

std::vector<std::string> split(const std::string& s, char sep);
// Parses a decimal integer; throws Error(InvalidArgument) naming `what`.
std::int64_t parse_int(const std::string& s, const std::string& what);
// "1000x1000" <-> {1000, 1000}
std::vector<std::int64_t> parse_shape(const std::string& s);
std::string shape(const std::vector<std::int64_t>& dims);
// The exact decimal product of positive numbers, however large: what an
// overflow message quotes ("... has 18446744073709551616 elements").
std::string product(const std::vector<std::int64_t>& factors);

}  // namespace bfly::text
