// PNG images for `bfly filter` (libpng): grayscale, gray + alpha, RGB and
// RGBA at 8 or 16 bits a sample (palette and sub-byte grayscale images are
// expanded to 8 bits on reading). Every failure throws bfly::Error naming
// the path: Error(Io) for an unreadable, truncated or malformed file or
// one that is not a PNG (a header declaring more pixels than the file can
// hold compressed among them), Error(Unsupported) for what bfly does not
// take (images of more than 2^30 samples among them). Both are refused
// before the image is allocated.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "io/output_file.hpp"

namespace bfly::io {

struct Image {
  std::int64_t width = 0, height = 0;
  int channels = 1;  // 1 gray, 2 gray + alpha, 3 RGB, 4 RGBA
  int bits = 8;      // 8 or 16 a sample
  // Samples row-major, channels interleaved, as values 0..2^bits - 1.
  std::vector<std::uint16_t> samples;
  bool has_alpha() const { return channels == 2 || channels == 4; }
};

Image read_png(const std::string& path);

// The image read_png would return but its samples, from the chunks before
// the image data (nothing is inflated), with read_png's refusals: how a
// command sizes its work before decoding.
struct PngHeader {
  std::int64_t width = 0, height = 0;
  int channels = 1, bits = 8;  // as read_png returns them (expanded)
};
PngHeader read_png_header(const std::string& path);
// To `output` by its rules, as write_npy (output_file.hpp).
void write_png(OutputFile& output, const Image& image);
void write_png(const std::string& path, const Image& image);

}  // namespace bfly::io
