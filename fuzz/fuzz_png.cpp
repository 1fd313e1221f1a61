// libFuzzer target: bfly::io::read_png (libpng) on any bytes.
// Properties: only bfly::Error escapes (libpng's longjmp included); an image
// read is width x height x channels samples of 8 or 16 bits; a small file
// declaring a huge image is refused before the image is allocated (the
// fuzzer's -rss_limit_mb and -malloc_limit_mb catch one that is not);
// written back and read again, the image is the same. Each chunk's CRC is
// set right before the file is written, so that mutations reach the chunks'
// contents instead of failing libpng's checksum (libpng's own fuzzer turns
// the check off; read_png keeps it on).
#include <zlib.h>

#include <vector>

#include "bfly/bfly.hpp"
#include "fuzz_util.hpp"
#include "io/png.hpp"

namespace {

// The chunks after the 8-byte signature: length (big-endian), type, data, CRC over type and data.
void fix_crcs(std::vector<std::uint8_t>& png) {
  for (std::size_t at = 8; at + 12 <= png.size();) {
    const std::uint64_t length = std::uint64_t{png[at]} << 24 | png[at + 1] << 16 | png[at + 2] << 8 | png[at + 3];
    if (length > png.size() - at - 12) return;
    const std::size_t end = at + 8 + static_cast<std::size_t>(length);
    const uLong crc = crc32(crc32(0, nullptr, 0), png.data() + at + 4, static_cast<uInt>(length + 4));
    for (int i = 0; i < 4; ++i) png[end + i] = static_cast<std::uint8_t>(crc >> (24 - 8 * i));
    at = end + 4;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::uint8_t> png(data, data + size);
  fix_crcs(png);
  const std::string path = bfly::fuzz::write_scratch("input.png", png.data(), png.size());
  bfly::io::Image image;
  try {
    image = bfly::io::read_png(path);
  } catch (const bfly::Error&) {
    return 0;
  }
  if (image.width < 1 || image.height < 1 || image.channels < 1 || image.channels > 4 ||
      (image.bits != 8 && image.bits != 16))
    bfly::fuzz::fail("read_png returned a " + std::to_string(image.width) + "x" + std::to_string(image.height) + "x" +
                     std::to_string(image.channels) + " image of " + std::to_string(image.bits) + " bits");
  if (image.samples.size() != static_cast<std::size_t>(image.width * image.height * image.channels))
    bfly::fuzz::fail("read_png returned " + std::to_string(image.samples.size()) + " samples");
  for (std::uint16_t v : image.samples)
    if (image.bits == 8 && v > 255) bfly::fuzz::fail("an 8-bit sample of " + std::to_string(v));

  const std::string copy = bfly::fuzz::scratch_directory() + "/copy.png";
  bfly::io::write_png(copy, image);  // a valid image: must not throw
  const bfly::io::Image again = bfly::io::read_png(copy);
  if (again.width != image.width || again.height != image.height || again.channels != image.channels ||
      again.bits != image.bits || again.samples != image.samples)
    bfly::fuzz::fail("write_png + read_png changed the image");
  return 0;
}
