// Where the CLI writes a result, and how: the one way every command's
// output reaches its destination (npy, PNG and text writers all go through
// it).
//
// An output is a path, or "-" for standard output. What the path is now
// decides how it is written:
//   - a regular file, or a name not there yet: a temporary beside it (the
//     same directory, so the rename stays on one file system), renamed onto
//     it when complete. A failure or an interrupt (TemporaryFile) leaves an
//     existing file as it was; a file replaced keeps its permission bits
//     (and owner, where the process may set it), as a write in place
//     would, and a read-only one is refused, as the shell's '>' would.
//   - a symbolic link: followed to its final target, written as above; the
//     link stays a link (a dangling link's target is created).
//   - anything else (a device, a FIFO) and "-": written in place, as '>'
//     would. Renaming onto /dev/null, or onto /dev/stdout naming a pipe,
//     would replace the node itself, and a FIFO's reader would get nothing.
// Every write and the final flush are checked: a full disk or /dev/full is
// Error(Io) naming the path, never a short file and a success.
#pragma once

#include <sys/types.h>

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "io/temporary_file.hpp"

namespace bfly::io {

class OutputFile {
 public:
  // `inputs`: the files the command reads. An output that is one of them
  // (the same regular file, by device and inode, however spelled or
  // linked) is refused here with Error(InvalidArgument) naming both, before
  // anything is computed or written: the result would replace the input.
  explicit OutputFile(std::string path, const std::vector<std::string>& inputs = {});
  ~OutputFile();  // an uncommitted temporary is removed
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  const std::string& path() const { return path_; }
  // The stream to write to, opened on first use: the temporary, the path
  // itself, or stdout. Throws Error(Io) naming the path.
  std::FILE* stream();
  // Writes every byte or throws Error(Io) naming the path.
  void write(const void* data, std::size_t bytes);
  void write(const std::string& text) { write(text.data(), text.size()); }
  // Flushes and checks everything written, closes, and renames the
  // temporary into place. Throws Error(Io) naming the path; nothing but the
  // old file is left then.
  void commit();
  // Error(Io): "cannot write '<path>': <why>" (standard output for "-").
  [[noreturn]] void fail(const std::string& why) const;

 private:
  enum class Mode { Stdout, InPlace, Replace };
  void open();

  std::string path_;
  Mode mode_ = Mode::Stdout;
  std::string target_;  // Replace: the file the rename lands on
  std::string temp_;
  std::optional<TemporaryFile> guard_;
  std::FILE* file_ = nullptr;
  bool replaces_ = false;  // Replace onto an existing file, whose mode and owner follow
  mode_t old_mode_ = 0;
  uid_t old_owner_ = 0;
  gid_t old_group_ = 0;
  bool committed_ = false;
};

// `text` (any bytes) as the whole of `path`, by the rules above.
void write_text(const std::string& path, const std::string& text);

// Makes a failed write to stdout an error for every command, whatever it
// printed with: at exit, stdout and std::cout are flushed and, if any write
// to them failed, one "bfly: error:" line goes to stderr and the exit status
// becomes 1. main calls it once, before anything is printed.
void check_stdout_at_exit();

}  // namespace bfly::io
