#include "io/output_file.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <random>

#include "bfly/bfly.hpp"

namespace bfly::io {
namespace {

// Set once a failed write to stdout was thrown as an Error (and so said on
// stderr by the CLI), so that the exit check does not say it again.
bool stdout_failure_reported = false;

std::string message(int error_number, const char* otherwise = "a write failed") {
  return error_number != 0 ? std::strerror(error_number) : otherwise;
}

std::string random_suffix() {
  thread_local std::mt19937_64 engine{std::random_device{}()};
  char text[24];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(engine()));
  return text;
}

// What `path` names once every symbolic link in its last component is
// followed (links among the directories above are left: the rename goes
// through them). A dangling link gives the name it points at, which is then
// created, as '>' would. Empty after 40 links (the kernel's MAXSYMLINKS).
std::string final_target(const std::string& path) {
  std::filesystem::path at(path);
  for (int hops = 0; hops < 40; ++hops) {
    std::error_code error;
    if (!std::filesystem::is_symlink(std::filesystem::symlink_status(at, error))) return at.string();
    const std::filesystem::path link = std::filesystem::read_symlink(at, error);
    if (error) return at.string();
    at = link.is_absolute() ? link : at.parent_path() / link;
  }
  return {};
}

struct Identity {
  dev_t device;
  ino_t inode;
  bool operator==(const Identity& o) const { return device == o.device && inode == o.inode; }
};

// Only regular files are compared: a terminal or a pipe may well be both
// what a command reads and what it writes.
std::optional<Identity> regular_file(const std::string& path) {
  struct stat st {};
  const int status = path == "-" ? fstat(STDOUT_FILENO, &st) : stat(path.c_str(), &st);
  if (status != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
  return Identity{st.st_dev, st.st_ino};
}

extern "C" void check_stdout() {
  if (stdout_failure_reported) return;
  // stdout first: std::cout, synchronised with it, would flush it too, and
  // glibc drops the buffer of a failed flush, errno with it.
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  const int error_number = errno;
  std::cout.flush();
  if (flushed && !std::ferror(stdout) && !std::cout.fail()) return;
  std::fprintf(stderr, "bfly: error: cannot write standard output: %s\n", message(error_number).c_str());
  std::_Exit(1);
}

}  // namespace

OutputFile::OutputFile(std::string path, const std::vector<std::string>& inputs) : path_(std::move(path)) {
  const std::optional<Identity> output = regular_file(path_);
  if (!output) return;
  for (const std::string& input : inputs) {
    const std::optional<Identity> read = input.empty() ? std::nullopt : regular_file(input);
    if (!read || !(*read == *output)) continue;
    const std::string what = path_ == "-" ? "standard output" : "the output '" + path_ + "'";
    throw Error(
        ErrorCode::InvalidArgument,
        what + " is the input '" + input + "': the result would replace what it is computed from; name another output");
  }
}

OutputFile::~OutputFile() {
  if (file_ != nullptr && mode_ != Mode::Stdout) std::fclose(file_);
  if (!committed_ && !temp_.empty()) std::remove(temp_.c_str());
}

void OutputFile::fail(const std::string& why) const {
  if (path_ == "-") {
    stdout_failure_reported = true;
    throw Error(ErrorCode::Io, "cannot write standard output: " + why);
  }
  throw Error(ErrorCode::Io, "cannot write '" + path_ + "': " + why);
}

std::FILE* OutputFile::stream() {
  if (file_ == nullptr) open();
  return file_;
}

void OutputFile::open() {
  if (path_ == "-") {
    mode_ = Mode::Stdout;
    file_ = stdout;
    return;
  }
  struct stat st {};
  mode_ = Mode::InPlace;
  if (stat(path_.c_str(), &st) == 0) {
    if (S_ISDIR(st.st_mode)) fail(std::strerror(EISDIR));
    if (S_ISREG(st.st_mode)) {
      target_ = final_target(path_);
      // Through /proc's links (/dev/stdout redirected to a file) the name
      // read back need not be the file: such a one is written in place.
      struct stat at {};
      if (!target_.empty() && stat(target_.c_str(), &at) == 0 && at.st_dev == st.st_dev && at.st_ino == st.st_ino) {
        if (access(target_.c_str(), W_OK) != 0) fail(message(errno));
        mode_ = Mode::Replace;
        replaces_ = true;
        old_mode_ = st.st_mode & 07777;
        old_owner_ = st.st_uid;
        old_group_ = st.st_gid;
      }
    }
  } else if (errno == ENOENT) {
    target_ = final_target(path_);
    if (target_.empty()) fail(std::strerror(ELOOP));
    mode_ = Mode::Replace;
  } else {
    fail(message(errno));
  }

  if (mode_ == Mode::InPlace) {
    errno = 0;
    file_ = std::fopen(path_.c_str(), "wb");
    if (file_ == nullptr) fail(message(errno, "cannot open it"));
    return;
  }
  // A fresh name each try; "x" (C11 exclusive create) never reuses a file.
  // Named for removal on an interrupt before it exists, so no moment leaves it.
  for (int attempt = 0; attempt < 8 && file_ == nullptr; ++attempt) {
    temp_ = target_ + ".tmp." + std::to_string(getpid()) + "." + random_suffix();
    guard_.reset();
    guard_.emplace(temp_);
    errno = 0;
    file_ = std::fopen(temp_.c_str(), "wbx");
    if (file_ == nullptr && errno != EEXIST) break;
  }
  if (file_ == nullptr) {
    const int error_number = errno;
    temp_.clear();  // never created: nothing of ours to remove
    fail(message(error_number, "cannot create a temporary beside it"));
  }
  if (replaces_) {
    // Before any byte is written, so a private file's data is never readable
    // by others. The owner only where this process may give it (root).
    if (fchown(fileno(file_), old_owner_, old_group_) != 0) errno = 0;
    if (fchmod(fileno(file_), old_mode_) != 0) fail(message(errno));
  }
}

void OutputFile::write(const void* data, std::size_t bytes) {
  std::FILE* file = stream();
  errno = 0;
  if (bytes > 0 && std::fwrite(data, 1, bytes, file) != bytes) fail(message(errno));
}

void OutputFile::commit() {
  std::FILE* file = stream();  // nothing written still makes an (empty) file
  errno = 0;
  bool ok = std::fflush(file) == 0 && !std::ferror(file);
  int error_number = errno;
  if (mode_ != Mode::Stdout) {
    file_ = nullptr;
    errno = 0;
    if (std::fclose(file) != 0 && ok) {
      ok = false;
      error_number = errno;
    }
  }
  if (!ok) fail(message(error_number));
  errno = 0;
  if (mode_ == Mode::Replace && std::rename(temp_.c_str(), target_.c_str()) != 0) fail(message(errno));
  committed_ = true;
}

void write_text(const std::string& path, const std::string& text) {
  OutputFile output(path);
  output.write(text);
  output.commit();
}

void check_stdout_at_exit() {
  static const bool registered = std::atexit(check_stdout) == 0;
  (void)registered;
}

}  // namespace bfly::io
