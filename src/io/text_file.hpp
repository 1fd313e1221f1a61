// Integer lists read from text files, with the line of any bad entry named.
// (Text is written by io::write_text, output_file.hpp.)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bfly::io {

// One integer a line (surrounding blanks ignored, a '+' or '-' sign
// allowed; a blank line is an error, as it would shift every later
// position). Throws Error(Io) when the file cannot be read,
// Error(InvalidArgument) naming the path, the line and the text of an entry
// that is blank, not an integer or does not fit int64.
std::vector<std::int64_t> read_integer_lines(const std::string& path);

}  // namespace bfly::io
