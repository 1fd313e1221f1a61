#include "io/text_file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <limits>

#include "bfly/bfly.hpp"

namespace bfly::io {

std::vector<std::int64_t> read_integer_lines(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(ErrorCode::Io, "cannot open '" + path + "': " + std::strerror(errno));
  std::vector<std::int64_t> values;
  std::string line;
  for (std::int64_t number = 1; std::getline(in, line); ++number) {
    const auto first = line.find_first_not_of(" \t\r");
    // A blank line is no coefficient of 0: skipping it would shift every later degree.
    if (first == std::string::npos)
      throw Error(ErrorCode::InvalidArgument,
                  path + ": line " + std::to_string(number) + " is blank (one integer a line; write 0 for a zero)");
    const std::string item = line.substr(first, line.find_last_not_of(" \t\r") - first + 1);
    std::size_t i = item[0] == '+' || item[0] == '-' ? 1 : 0;
    bool ok = i < item.size();
    unsigned __int128 magnitude = 0;
    for (; ok && i < item.size(); ++i) {
      ok = item[i] >= '0' && item[i] <= '9';
      magnitude = magnitude * 10 + static_cast<unsigned>(item[i] - '0');
      if (magnitude > static_cast<unsigned __int128>(std::numeric_limits<std::int64_t>::max()) + 1) break;
    }
    const bool negative = item[0] == '-';
    const unsigned __int128 limit =
        static_cast<unsigned __int128>(std::numeric_limits<std::int64_t>::max()) + (negative ? 1 : 0);
    if (!ok)
      throw Error(ErrorCode::InvalidArgument,
                  path + ": line " + std::to_string(number) + ": '" + item.substr(0, 60) + "' is not an integer");
    if (magnitude > limit)
      throw Error(ErrorCode::InvalidArgument,
                  path + ": line " + std::to_string(number) + ": " + item.substr(0, 60) + " does not fit int64");
    values.push_back(negative ? static_cast<std::int64_t>(-static_cast<__int128>(magnitude))
                              : static_cast<std::int64_t>(magnitude));
  }
  if (in.bad()) throw Error(ErrorCode::Io, "cannot read '" + path + "'");
  return values;
}

}  // namespace bfly::io
