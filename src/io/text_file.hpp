// Whole text files: written atomically (a temporary beside, then a rename,
// so a failure leaves no half-written file and an existing one untouched),
// and integer lists read with the line of any bad entry named.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bfly::io {

// Throws Error(Io) naming the path; the temporary is removed on failure.
void write_text_atomically(const std::string& path, const std::string& text);

// One integer a line (surrounding blanks ignored, a '+' or '-' sign
// allowed; a blank line is an error, as it would shift every later
// position). Throws Error(Io) when the file cannot be read,
// Error(InvalidArgument) naming the path, the line and the text of an entry
// that is blank, not an integer or does not fit int64.
std::vector<std::int64_t> read_integer_lines(const std::string& path);

}  // namespace bfly::io
