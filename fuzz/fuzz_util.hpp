// What the fuzz targets share: a scratch directory of the process's own for
// the readers that take a path, and the way a target reports a broken
// property (abort, which libFuzzer and the replay both count as a crash).
#pragma once

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace bfly::fuzz {

[[noreturn]] inline void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz property failed: %s\n", what.c_str());
  std::abort();
}

// $TMPDIR/bfly-fuzz.<pid>.XXXXXX (else /dev/shm, else /tmp), made on first
// use and removed at a normal exit. scripts/fuzz.sh points TMPDIR at a
// directory it removes itself, so a crash's leftover goes with it.
inline const std::string& scratch_directory() {
  // Never destroyed: a static string would be gone before the exit handler
  // registered while making it runs.
  static const std::string* directory = [] {
    std::string base;
    if (const char* tmp = std::getenv("TMPDIR"); tmp && *tmp)
      base = tmp;
    else
      base = access("/dev/shm", W_OK) == 0 ? "/dev/shm" : "/tmp";
    auto* made = new std::string(base + "/bfly-fuzz." + std::to_string(getpid()) + ".XXXXXX");
    if (mkdtemp(made->data()) == nullptr) fail("cannot make a scratch directory under " + base);
    std::atexit([] {
      std::error_code ignored;
      std::filesystem::remove_all(scratch_directory(), ignored);
    });
    return made;
  }();
  return *directory;
}

// Replaces scratch_directory()/name with the bytes; returns its path.
inline std::string write_scratch(const std::string& name, const std::uint8_t* data, std::size_t size) {
  const std::string path = scratch_directory() + "/" + name;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  out.close();
  if (!out) fail("cannot write " + path);
  return path;
}

inline std::string write_scratch(const std::string& name, const std::string& text) {
  return write_scratch(name, reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
}

}  // namespace bfly::fuzz
