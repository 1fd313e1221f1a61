// Temporary files being written, and their removal when the process is
// interrupted. Every output bfly writes goes to a temporary name beside its
// path and is renamed into place when complete; a TemporaryFile names such a
// file for as long as it may exist, so a SIGINT, SIGTERM or SIGHUP arriving
// meanwhile removes it before the process dies (the CLI installs the
// handlers; a library must not take a program's signals unasked).
#pragma once

#include <string>

namespace bfly::io {

class TemporaryFile {
 public:
  // Registers `path` (it need not exist yet). At most 64 at once are
  // tracked; past that a file is written untracked, as before.
  explicit TemporaryFile(const std::string& path);
  ~TemporaryFile();  // forgets the path; removing or renaming it is the writer's
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;

 private:
  int slot_ = -1;
};

// Installs handlers for SIGINT, SIGTERM and SIGHUP that remove every
// tracked temporary, then let the signal end the process as it would have
// (the exit status still says which signal). Signals a program ignores stay
// ignored.
void remove_temporaries_on_signals();

}  // namespace bfly::io
