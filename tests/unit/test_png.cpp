// PNG reading and writing (io/png.cpp): every channel count at 8 and 16
// bits round-trips exactly; a truncated file, a file that is not a PNG and
// an unwritable path are errors naming the path, leaving nothing behind.
#ifdef BFLY_HAVE_PNG
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>

#include "bfly/bfly.hpp"
#include "io/png.hpp"

namespace bfly::io {
namespace {

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / ("bfly_png_" + std::to_string(getpid()) + "_" + name)).string();
}

TEST(Png, RoundTripsEveryLayout) {
  std::mt19937 rng(std::random_device{}());
  for (int channels = 1; channels <= 4; ++channels)
    for (int bits : {8, 16}) {
      Image image;
      image.width = 37;
      image.height = 11;
      image.channels = channels;
      image.bits = bits;
      image.samples.resize(static_cast<std::size_t>(image.width * image.height * channels));
      for (auto& s : image.samples) s = static_cast<std::uint16_t>(rng() % (1u << bits));
      const std::string path = temp_path("rt.png");
      write_png(path, image);
      const Image back = read_png(path);
      std::remove(path.c_str());
      EXPECT_EQ(back.width, image.width);
      EXPECT_EQ(back.height, image.height);
      EXPECT_EQ(back.channels, channels);
      EXPECT_EQ(back.bits, bits);
      EXPECT_EQ(back.samples, image.samples) << channels << " channels, " << bits << " bits";
    }
}

TEST(Png, BadFilesAreErrorsNamingThePath) {
  Image image;
  image.width = image.height = 64;
  image.samples.assign(64 * 64, 7);
  const std::string good = temp_path("good.png"), cut = temp_path("cut.png"), text = temp_path("text.png");
  write_png(good, image);
  std::ifstream in(good, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::ofstream(cut, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  std::ofstream(text, std::ios::binary) << "not an image\n";
  for (const std::string& path : {cut, text}) {
    try {
      read_png(path);
      ADD_FAILURE() << path << " was read";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find(path), std::string::npos) << e.what();
    }
  }
  const std::string nowhere = temp_path("no_such_dir") + "/out.png";
  EXPECT_THROW(write_png(nowhere, image), Error);
  for (const std::string& path : {good, cut, text}) std::remove(path.c_str());
}

// The header alone (bfly filter sizes its work from it before decoding):
// what read_png returns but the samples, expansions included.
TEST(Png, HeaderAloneAsReadPngSeesIt) {
  Image image;
  image.width = 37;
  image.height = 11;
  image.channels = 4;
  image.bits = 16;
  image.samples.assign(static_cast<std::size_t>(37 * 11 * 4), 1000);
  const std::string path = temp_path("header.png");
  write_png(path, image);
  const PngHeader header = read_png_header(path);
  EXPECT_EQ(header.width, 37);
  EXPECT_EQ(header.height, 11);
  EXPECT_EQ(header.channels, 4);
  EXPECT_EQ(header.bits, 16);
  // A header declaring more than its file can hold is refused there too.
  std::ifstream in(path, std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  bytes[16] = 0x7f;  // IHDR's width, most significant byte (the CRC no longer matches: libpng's error)
  std::ofstream(path, std::ios::binary) << bytes;
  EXPECT_THROW(read_png_header(path), Error);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace bfly::io
#endif
