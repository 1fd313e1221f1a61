#include "io/png.hpp"

#include <png.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>

#include "bfly/bfly.hpp"

namespace bfly::io {
namespace {

// libpng reports errors through a callback that must not return: it
// longjmps. The message is kept and turned into an Error after the jump.
struct ErrorState {
  std::string message;
};

void on_error(png_structp png, png_const_charp message) {
  auto* state = static_cast<ErrorState*>(png_get_error_ptr(png));
  state->message = message;
  png_longjmp(png, 1);
}

void on_warning(png_structp, png_const_charp) {}

// The most samples (pixels times channels) bfly reads from one image: 2^30,
// a 32768 x 32768 gray or 16384 x 16384 RGBA image, 2 GiB as read and many
// times that as the filter's double-precision planes and their spectra.
constexpr std::uint64_t kMaxSamples = std::uint64_t{1} << 30;
// Deflate turns a byte into at most 1032 (zlib's FAQ, "maximum compression
// factor"): a file cannot hold more pixel data than that many times its
// size, whatever its header declares.
constexpr std::uint64_t kMaxDeflateRatio = 1032;

struct File {
  std::FILE* f = nullptr;
  ~File() {
    if (f) std::fclose(f);
  }
};

// Opens `path` past its PNG signature.
void open_png(const std::string& path, File& file) {
  file.f = std::fopen(path.c_str(), "rb");
  if (!file.f) throw Error(ErrorCode::Io, "cannot open '" + path + "': " + std::strerror(errno));
  unsigned char signature[8] = {};
  if (std::fread(signature, 1, 8, file.f) != 8 || png_sig_cmp(signature, 0, 8) != 0)
    throw Error(ErrorCode::Io, path + ": not a PNG file (it does not start with the PNG signature)");
}

// A file past its signature and libpng's state reading it, freed however
// the reading ends (a libpng error longjmps to the setjmp of the function
// holding it, so the Reader outlives the jump).
struct Reader {
  File file;
  ErrorState state;
  png_structp png = nullptr;
  png_infop info = nullptr;
  explicit Reader(const std::string& path) {
    open_png(path, file);
    png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &state, on_error, on_warning);
    info = png ? png_create_info_struct(png) : nullptr;
    if (!info) {
      png_destroy_read_struct(&png, nullptr, nullptr);
      throw Error(ErrorCode::OutOfMemory, path + ": libpng could not allocate its state");
    }
  }
  ~Reader() { png_destroy_read_struct(&png, &info, nullptr); }
  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;
};

// What the header declares, the image as bfly reads it (expanded).
struct Declared {
  std::uint64_t width = 0, height = 0;
  int channels = 1, bits = 8;
  std::uint64_t file_row_bytes = 0;  // a row as stored, before expansion
};

// Reads the chunks before the image data and sets the expansions bfly reads
// with. libpng's errors longjmp to the caller's setjmp, over this frame:
// nothing here has a destructor.
Declared read_declared(png_structp png, png_infop info, std::FILE* file) {
  png_init_io(png, file);
  png_set_sig_bytes(png, 8);
  png_read_info(png, info);
  const int color = png_get_color_type(png, info);
  const int depth = png_get_bit_depth(png, info);
  Declared d;
  d.width = png_get_image_width(png, info);
  d.height = png_get_image_height(png, info);
  d.file_row_bytes = (d.width * static_cast<std::uint64_t>(depth) * png_get_channels(png, info) + 7) / 8;
  // Expand what bfly does not keep as it is: palettes to RGB(A), 1-4-bit
  // gray to 8 bits, tRNS to an alpha channel.
  if (color == PNG_COLOR_TYPE_PALETTE) png_set_palette_to_rgb(png);
  if (color == PNG_COLOR_TYPE_GRAY && depth < 8) png_set_expand_gray_1_2_4_to_8(png);
  if (png_get_valid(png, info, PNG_INFO_tRNS)) png_set_tRNS_to_alpha(png);
  if (depth == 16) png_set_swap(png);  // little-endian samples into uint16_t
  png_set_interlace_handling(png);
  png_read_update_info(png, info);
  d.channels = png_get_channels(png, info);
  d.bits = png_get_bit_depth(png, info);
  return d;
}

struct Refusal {
  ErrorCode code;
  std::string why;
};

// Why bfly will not read an image so declared, if it will not.
std::optional<Refusal> refusal(const Declared& d, std::FILE* file) {
  const std::uint64_t pixels = d.width * d.height;  // below 2^62: libpng takes sides below 2^31
  const auto channels = static_cast<std::uint64_t>(d.channels);
  if (pixels > kMaxSamples / channels)
    return Refusal{ErrorCode::Unsupported, "a " + std::to_string(d.width) + " x " + std::to_string(d.height) +
                                               " image has " + std::to_string(pixels * channels) + " samples (" +
                                               std::to_string(channels) + " a pixel), more than bfly's limit of " +
                                               std::to_string(kMaxSamples) + " (2^30)"};
  // A small file declaring a huge image (a damaged header) is refused by
  // what it can hold, before the image is allocated.
  struct stat st {};
  if (fstat(fileno(file), &st) == 0 && S_ISREG(st.st_mode) && d.file_row_bytes > 0 &&
      d.height > static_cast<std::uint64_t>(st.st_size) * kMaxDeflateRatio / d.file_row_bytes)
    return Refusal{ErrorCode::Io, "malformed or truncated PNG: it declares a " + std::to_string(d.width) + " x " +
                                      std::to_string(d.height) + " image, " + std::to_string(d.file_row_bytes) +
                                      " bytes a row, more than its " + std::to_string(st.st_size) +
                                      " bytes can hold compressed (deflate's limit is 1032:1)"};
  return std::nullopt;
}

}  // namespace

PngHeader read_png_header(const std::string& path) {
  Reader r(path);
  if (setjmp(png_jmpbuf(r.png)))
    throw Error(ErrorCode::Io, path + ": malformed or truncated PNG (" + r.state.message + ")");
  const Declared d = read_declared(r.png, r.info, r.file.f);
  if (const auto refused = refusal(d, r.file.f)) throw Error(refused->code, path + ": " + refused->why);
  return {static_cast<std::int64_t>(d.width), static_cast<std::int64_t>(d.height), d.channels, d.bits};
}

Image read_png(const std::string& path) {
  Reader r(path);
  png_structp png = r.png;
  png_infop info = r.info;
  // Everything changed between setjmp and a possible longjmp lives on the
  // heap behind a pointer set before it (locals changed there would be
  // indeterminate after the jump).
  struct Decoded {
    Image image;
    std::vector<png_bytep> rows;
    std::vector<unsigned char> bytes;
    std::optional<Refusal> refused;
  };
  const auto decoded = std::make_unique<Decoded>();
  Image& image = decoded->image;
  std::vector<png_bytep>& rows = decoded->rows;
  std::vector<unsigned char>& bytes = decoded->bytes;
  if (setjmp(png_jmpbuf(png)))
    throw Error(ErrorCode::Io, path + ": malformed or truncated PNG (" + r.state.message + ")");
  const Declared d = read_declared(png, info, r.file.f);
  image.width = static_cast<std::int64_t>(d.width);
  image.height = static_cast<std::int64_t>(d.height);
  image.channels = d.channels;
  image.bits = d.bits;
  decoded->refused = refusal(d, r.file.f);
  if (decoded->refused) throw Error(decoded->refused->code, path + ": " + decoded->refused->why);
  const std::size_t row_bytes = png_get_rowbytes(png, info);
  bytes.resize(row_bytes * static_cast<std::size_t>(image.height));
  rows.resize(static_cast<std::size_t>(image.height));
  for (std::size_t y = 0; y < rows.size(); ++y) rows[y] = bytes.data() + y * row_bytes;
  png_read_image(png, rows.data());
  png_read_end(png, nullptr);
  if (image.bits != 8 && image.bits != 16)
    throw Error(ErrorCode::Unsupported,
                path + ": " + std::to_string(image.bits) + "-bit samples (bfly takes 8 and 16)");
  const std::size_t count = static_cast<std::size_t>(image.width * image.height) * image.channels;
  image.samples.resize(count);
  if (image.bits == 8) {
    for (std::size_t i = 0; i < count; ++i) image.samples[i] = bytes[i];
  } else {
    std::memcpy(image.samples.data(), bytes.data(), count * 2);
  }
  return std::move(image);
}

void write_png(OutputFile& output, const Image& image) {
  const std::string& path = output.path();
  if (image.bits != 8 && image.bits != 16)
    throw Error(ErrorCode::Unsupported, path + ": cannot write " + std::to_string(image.bits) + "-bit samples");
  if (image.channels < 1 || image.channels > 4)
    throw Error(ErrorCode::InvalidArgument, path + ": " + std::to_string(image.channels) + " channels");
  ErrorState state;
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state, on_error, on_warning);
  png_infop info = png ? png_create_info_struct(png) : nullptr;
  if (!info) {
    png_destroy_write_struct(&png, nullptr);
    throw Error(ErrorCode::OutOfMemory, path + ": libpng could not allocate its state");
  }
  const int sample_bytes = image.bits / 8;
  const std::size_t row_bytes = static_cast<std::size_t>(image.width) * image.channels * sample_bytes;
  std::vector<unsigned char> bytes(row_bytes * static_cast<std::size_t>(image.height));
  for (std::size_t i = 0; i < image.samples.size(); ++i) {
    if (sample_bytes == 1) {
      bytes[i] = static_cast<unsigned char>(image.samples[i]);
    } else {  // PNG is big-endian
      bytes[2 * i] = static_cast<unsigned char>(image.samples[i] >> 8);
      bytes[2 * i + 1] = static_cast<unsigned char>(image.samples[i] & 0xff);
    }
  }
  std::vector<png_bytep> rows(static_cast<std::size_t>(image.height));
  for (std::size_t y = 0; y < rows.size(); ++y) rows[y] = bytes.data() + y * row_bytes;
  // Opened before setjmp: its own failure throws past libpng's state.
  std::FILE* stream = nullptr;
  try {
    stream = output.stream();
  } catch (...) {
    png_destroy_write_struct(&png, &info);
    throw;
  }
  if (setjmp(png_jmpbuf(png))) {
    png_destroy_write_struct(&png, &info);
    // libpng says only "Write Error"; the stream's errno says why.
    output.fail(std::ferror(stream) && errno != 0 ? std::strerror(errno) : state.message);
  }
  static const int kTypes[] = {0, PNG_COLOR_TYPE_GRAY, PNG_COLOR_TYPE_GRAY_ALPHA, PNG_COLOR_TYPE_RGB,
                               PNG_COLOR_TYPE_RGB_ALPHA};
  png_init_io(png, stream);
  png_set_IHDR(png, info, static_cast<png_uint_32>(image.width), static_cast<png_uint_32>(image.height), image.bits,
               kTypes[image.channels], PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_write_info(png, info);
  png_write_image(png, rows.data());
  png_write_end(png, nullptr);
  png_destroy_write_struct(&png, &info);
  output.commit();
}

void write_png(const std::string& path, const Image& image) {
  OutputFile output(path);
  write_png(output, image);
}

}  // namespace bfly::io
