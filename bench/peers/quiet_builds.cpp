// Clang inside an OpenCL compiler (PoCL) writes "N warnings generated." to
// the process's stderr for each program with warnings, whatever the build
// log says; clFFT and VkFFT build their programs with options of their own,
// so the lines cannot be turned off where the programs are built. Here
// stderr goes to a temporary file while a peer plans, and comes back
// without those lines: every other line (a peer's or bfly's) is passed on.
#include <unistd.h>

#include <cstdio>
#include <regex>

#include "opencl_peers.hpp"

namespace bfly::bench {

QuietBuilds::QuietBuilds() {
  std::fflush(stderr);
  capture_ = std::tmpfile();
  if (capture_ == nullptr) return;
  saved_ = dup(STDERR_FILENO);
  if (saved_ < 0 || dup2(fileno(capture_), STDERR_FILENO) < 0) {
    if (saved_ >= 0) close(saved_);
    saved_ = -1;
    std::fclose(capture_);
    capture_ = nullptr;
  }
}

QuietBuilds::~QuietBuilds() {
  if (capture_ == nullptr) return;
  std::fflush(stderr);
  dup2(saved_, STDERR_FILENO);
  close(saved_);
  static const std::regex noise("[0-9]+ warnings? generated\\.\n?");
  std::rewind(capture_);
  char line[4096];
  while (std::fgets(line, sizeof line, capture_) != nullptr)
    if (!std::regex_match(line, noise)) std::fputs(line, stderr);
  std::fflush(stderr);
  std::fclose(capture_);
}

}  // namespace bfly::bench
