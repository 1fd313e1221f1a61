// Runs a fuzz target's LLVMFuzzerTestOneInput on files, without libFuzzer:
// the seed corpus and the saved crashes as regression tests in the regular
// (gcc) build. Arguments: files, or directories whose files are run in name
// order. A target reports a broken property by aborting, as under libFuzzer;
// an exception escaping it ends the run through std::terminate.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

void run(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    std::fprintf(stderr, "cannot read %s\n", path.c_str());
    std::exit(2);
  }
  const std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::fprintf(stderr, "%s (%zu bytes)\n", path.c_str(), bytes.size());
  // A copy of its own, so a read past the end is past the allocation, as
  // under libFuzzer; never a null pointer, even for no bytes.
  std::vector<std::uint8_t> data(bytes.begin(), bytes.end());
  static std::uint8_t none = 0;
  LLVMFuzzerTestOneInput(data.empty() ? &none : data.data(), data.size());
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t count = 0;
  for (int i = 1; i < argc; ++i) {
    const std::filesystem::path arg = argv[i];
    if (std::filesystem::is_directory(arg)) {
      std::vector<std::filesystem::path> files;
      for (const auto& entry : std::filesystem::directory_iterator(arg))
        if (entry.is_regular_file() && entry.path().filename().string()[0] != '.') files.push_back(entry.path());
      std::sort(files.begin(), files.end());
      for (const auto& file : files) run(file), ++count;
    } else if (std::filesystem::exists(arg)) {
      run(arg), ++count;
    } else {
      std::fprintf(stderr, "no such file or directory: %s\n", argv[i]);
      return 2;
    }
  }
  std::printf("%zu inputs ran\n", count);
  return 0;
}
