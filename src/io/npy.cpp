// NumPy .npy reading and writing; see npy.hpp and numpy/lib/format.py.
#include "io/npy.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include "bfly/bfly.hpp"

namespace bfly::io {
namespace {

static_assert(sizeof(float) == 4 && sizeof(double) == 8, "IEEE float sizes");

constexpr unsigned char kMagic[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};
// numpy.save aligns the data to 64 bytes (ARRAY_ALIGN in format.py).
constexpr std::size_t kAlign = 64;
// numpy refuses headers over 10000 bytes unless told otherwise; a generous
// cap keeps a corrupt length field from asking for gigabytes.
constexpr std::size_t kMaxHeaderBytes = std::size_t{1} << 20;
// numpy 2's NPY_MAXDIMS: no numpy writes more, and a header of thousands of
// dimensions would make the Fortran-order reordering quadratic.
constexpr std::size_t kMaxRank = 64;
// Data is read in pieces so a file claiming a huge shape fails as truncated
// before that much memory is taken.
constexpr std::size_t kReadChunkBytes = std::size_t{1} << 26;

struct DTypeInfo {
  DType dtype;
  const char* code;  // numpy's type string without the byte-order character
  const char* name;
  std::size_t bytes;
  // What a change of byte order reverses: a complex number's two parts apart.
  std::size_t swap_bytes;
};

constexpr DTypeInfo kDTypes[] = {
    {DType::Complex64, "c8", "complex64", 8, 4}, {DType::Complex128, "c16", "complex128", 16, 8},
    {DType::Float16, "f2", "float16", 2, 2},     {DType::Float32, "f4", "float32", 4, 4},
    {DType::Float64, "f8", "float64", 8, 8},     {DType::Bool, "b1", "bool", 1, 1},
    {DType::Int8, "i1", "int8", 1, 1},           {DType::Int16, "i2", "int16", 2, 2},
    {DType::Int32, "i4", "int32", 4, 4},         {DType::Int64, "i8", "int64", 8, 8},
    {DType::UInt8, "u1", "uint8", 1, 1},         {DType::UInt16, "u2", "uint16", 2, 2},
    {DType::UInt32, "u4", "uint32", 4, 4},       {DType::UInt64, "u8", "uint64", 8, 8},
};

const DTypeInfo* find_dtype(DType dtype) {
  for (const DTypeInfo& info : kDTypes) {
    if (info.dtype == dtype) return &info;
  }
  return nullptr;
}

bool host_is_little_endian() {
  const std::uint16_t one = 1;
  unsigned char first = 0;
  std::memcpy(&first, &one, 1);
  return first == 1;
}

// The descr numpy writes for `info` in the host's order: '|' where byte
// order does not apply (one-byte types), as numpy does.
std::string descr_of(const DTypeInfo& info) {
  const char order = info.bytes == 1 ? '|' : host_is_little_endian() ? '<' : '>';
  return order + std::string(info.code);
}

[[noreturn]] void fail(ErrorCode code, const std::string& path, const std::string& what) {
  throw Error(code, path + ": " + what);
}

std::string system_message(int error_number) {
  return error_number != 0 ? std::strerror(error_number) : "unknown error";
}

// Header text for messages: printable ASCII kept, the rest escaped, shortened.
std::string quote_text(const std::string& text, std::size_t limit = 80) {
  std::string out;
  for (std::size_t i = 0; i < text.size() && i < limit; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c < 0x7f) {
      out += static_cast<char>(c);
    } else {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
      out += escaped;
    }
  }
  if (text.size() > limit) out += "...";
  return out;
}

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string out = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i > 0) out += ", ";
    out += std::to_string(shape[i]);
  }
  if (shape.size() == 1) out += ",";
  return out + ")";
}

// Product of the dimensions, or -1 when a dimension is negative or the
// product (of the non-zero dimensions, as numpy checks) overflows int64.
std::int64_t checked_elements(const std::vector<std::int64_t>& shape) {
  std::int64_t nonzero = 1;
  bool has_zero = false;
  for (std::int64_t dim : shape) {
    if (dim < 0) return -1;
    if (dim == 0) {
      has_zero = true;
      continue;
    }
    if (nonzero > std::numeric_limits<std::int64_t>::max() / dim) return -1;
    nonzero *= dim;
  }
  return has_zero ? 0 : nonzero;
}

// Byte count of elements * item, or false when it does not fit.
bool checked_bytes(std::int64_t elements, std::size_t item, std::size_t* bytes) {
  const auto count = static_cast<std::uint64_t>(elements);
  const std::uint64_t limit = std::min<std::uint64_t>(
      std::numeric_limits<std::size_t>::max(), static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()));
  if (item != 0 && count > limit / item) return false;
  *bytes = static_cast<std::size_t>(count * item);
  return true;
}

class File {
 public:
  explicit File(std::FILE* file) : file_(file) {}
  ~File() {
    if (file_ != nullptr) std::fclose(file_);
  }
  File(const File&) = delete;
  File& operator=(const File&) = delete;
  std::FILE* get() const { return file_; }

 private:
  std::FILE* file_;
};

// Reads up to `count` bytes; returns how many arrived before end of file.
std::size_t read_some(std::FILE* file, const std::string& path, unsigned char* buffer, std::size_t count) {
  errno = 0;
  const std::size_t got = std::fread(buffer, 1, count, file);
  if (got < count && std::ferror(file)) {
    throw Error(ErrorCode::Io, "cannot read '" + path + "': " + system_message(errno));
  }
  return got;
}

// ---- Header: a Python dict literal, parsed as numpy's safe_eval would accept.

struct Header {
  std::string descr;
  bool descr_is_structured = false;  // a list of fields instead of a type string
  bool fortran_order = false;
  std::vector<std::int64_t> shape;
};

class HeaderParser {
 public:
  HeaderParser(const std::string& path, const std::string& text) : path_(path), text_(text) {}

  Header parse() {
    Header header;
    bool seen_descr = false, seen_order = false, seen_shape = false;
    skip_space();
    expect('{');
    skip_space();
    while (peek() != '}') {
      const std::string key = parse_string("a key");
      skip_space();
      expect(':');
      skip_space();
      if (key == "descr") {
        mark_seen(&seen_descr, key);
        if (peek() == '[') {
          header.descr = parse_bracketed();
          header.descr_is_structured = true;
        } else {
          header.descr = parse_string("the 'descr' string");
        }
      } else if (key == "fortran_order") {
        mark_seen(&seen_order, key);
        header.fortran_order = parse_bool();
      } else if (key == "shape") {
        mark_seen(&seen_shape, key);
        header.shape = parse_shape();
      } else {
        fail_header("unexpected key '" + quote_text(key) + "'");
      }
      skip_space();
      if (peek() == ',') {
        ++pos_;
        skip_space();
      } else if (peek() != '}') {
        fail_at("expected ',' or '}'");
      }
    }
    ++pos_;  // '}'
    // numpy pads with spaces and ends with '\n'; nothing else may follow.
    skip_space();
    if (pos_ != text_.size()) fail_at("unexpected text after the closing '}'");
    if (!seen_descr) fail_header("no 'descr' key");
    if (!seen_order) fail_header("no 'fortran_order' key");
    if (!seen_shape) fail_header("no 'shape' key");
    return header;
  }

 private:
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool at_end() const { return pos_ >= text_.size(); }

  void skip_space() {
    while (!at_end() && (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r')) {
      ++pos_;
    }
  }

  void expect(char c) {
    if (peek() != c || at_end()) fail_at(std::string("expected '") + c + "'");
    ++pos_;
  }

  void mark_seen(bool* seen, const std::string& key) {
    if (*seen) fail_header("key '" + key + "' appears twice");
    *seen = true;
  }

  std::string parse_string(const char* what) {
    const char quote = peek();
    if (at_end() || (quote != '\'' && quote != '"')) fail_at(std::string("expected ") + what);
    ++pos_;
    std::string value;
    while (!at_end() && peek() != quote) {
      if (peek() == '\\') {
        ++pos_;
        if (at_end()) break;
      }
      value += text_[pos_++];
    }
    if (at_end()) fail_at("unterminated string");
    ++pos_;
    return value;
  }

  // A structured dtype's field list, kept as text for the error message.
  std::string parse_bracketed() {
    const std::size_t start = pos_;
    int depth = 0;
    while (!at_end()) {
      const char c = peek();
      if (c == '\'' || c == '"') {
        parse_string("a string");
        continue;
      }
      ++pos_;
      if (c == '[' || c == '(') ++depth;
      if (c == ']' || c == ')') --depth;
      if (depth == 0) return text_.substr(start, pos_ - start);
    }
    fail_at("unterminated list");
  }

  bool parse_bool() {
    if (text_.compare(pos_, 4, "True") == 0) {
      pos_ += 4;
      return true;
    }
    if (text_.compare(pos_, 5, "False") == 0) {
      pos_ += 5;
      return false;
    }
    fail_at("expected True or False for 'fortran_order'");
  }

  std::int64_t parse_dimension() {
    if (peek() == '-') fail_at("negative dimension in 'shape'");
    if (at_end() || peek() < '0' || peek() > '9') fail_at("expected a dimension in 'shape'");
    std::int64_t value = 0;
    while (!at_end() && peek() >= '0' && peek() <= '9') {
      const int digit = peek() - '0';
      if (value > (std::numeric_limits<std::int64_t>::max() - digit) / 10) {
        fail_header("dimension in 'shape' " + quote_text(text_.substr(pos_)) + " does not fit in 64 bits");
      }
      value = value * 10 + digit;
      ++pos_;
    }
    if (peek() == 'L') ++pos_;  // Python 2 long, as very old numpy wrote them
    return value;
  }

  std::vector<std::int64_t> parse_shape() {
    expect('(');
    skip_space();
    std::vector<std::int64_t> shape;
    bool trailing_comma = false;
    while (peek() != ')') {
      if (shape.size() == kMaxRank) fail_header("'shape' has more than " + std::to_string(kMaxRank) + " dimensions");
      shape.push_back(parse_dimension());
      skip_space();
      trailing_comma = false;
      if (peek() == ',') {
        ++pos_;
        trailing_comma = true;
        skip_space();
      } else if (peek() != ')') {
        fail_at("expected ',' or ')' in 'shape'");
      }
    }
    ++pos_;
    // "(3)" is the integer 3 in Python, not a tuple.
    if (shape.size() == 1 && !trailing_comma) fail_header("'shape' is not a tuple");
    return shape;
  }

  [[noreturn]] void fail_at(const std::string& what) {
    fail(ErrorCode::Io, path_,
         "malformed .npy header: " + what + " at byte " + std::to_string(pos_) + " of \"" + quote_text(text_) + "\"");
  }

  [[noreturn]] void fail_header(const std::string& what) {
    fail(ErrorCode::Io, path_, "malformed .npy header: " + what + " in \"" + quote_text(text_) + "\"");
  }

  const std::string& path_;
  const std::string& text_;
  std::size_t pos_ = 0;
};

// The element type a header's descr names, and whether its bytes are in the
// other order than the host's ('<' little-endian, '>' big-endian, '=' and '|'
// the host's).
struct ElementType {
  const DTypeInfo* info;
  bool swapped;
};

ElementType element_type(const std::string& path, const Header& header, const std::vector<DType>& accepted) {
  std::string supported = "bfly reads ";
  for (std::size_t i = 0; i < accepted.size(); ++i) supported += std::string(i ? ", " : "") + to_string(accepted[i]);
  if (header.descr_is_structured) {
    fail(ErrorCode::Unsupported, path,
         "unsupported structured dtype " + quote_text(header.descr) + " (" + supported + ")");
  }
  const std::string& descr = header.descr;
  const char order = descr.empty() ? '\0' : descr[0];
  if (order == '<' || order == '>' || order == '=' || order == '|') {
    for (const DTypeInfo& info : kDTypes) {
      if (descr.compare(1, std::string::npos, info.code) != 0 ||
          std::find(accepted.begin(), accepted.end(), info.dtype) == accepted.end())
        continue;
      const bool little = host_is_little_endian();
      const bool swapped = info.bytes > 1 && ((order == '<' && !little) || (order == '>' && little));
      return {&info, swapped};
    }
  }
  fail(ErrorCode::Unsupported, path, "unsupported dtype '" + quote_text(descr) + "' (" + supported + ")");
}

// Reverses the bytes of every `unit`-byte piece: the array in the other byte order.
void swap_bytes(std::vector<unsigned char>& data, std::size_t unit) {
  for (std::size_t i = 0; i + unit <= data.size(); i += unit) std::reverse(&data[i], &data[i] + unit);
}

// A Fortran-order array of `shape` in C order. Fortran order varies the
// first index fastest, so element (i0, ..., ik) sits at item i0 + shape0 *
// (i1 + shape1 * ...); the output is walked in C order, a row (the last
// index) at a time.
std::vector<unsigned char> fortran_to_c(const std::vector<unsigned char>& data, const std::vector<std::int64_t>& shape,
                                        std::size_t item) {
  const std::size_t rank = shape.size();
  std::vector<std::size_t> stride(rank, 1);  // in items, Fortran order
  for (std::size_t k = 1; k < rank; ++k) stride[k] = stride[k - 1] * static_cast<std::size_t>(shape[k - 1]);
  std::vector<unsigned char> out(data.size());
  if (data.empty()) return out;
  const auto row = static_cast<std::size_t>(shape[rank - 1]);
  std::vector<std::int64_t> index(rank, 0);  // the row's index; index[rank - 1] stays 0
  for (unsigned char* to = out.data(); to < out.data() + out.size();) {
    std::size_t from = 0;
    for (std::size_t k = 0; k + 1 < rank; ++k) from += static_cast<std::size_t>(index[k]) * stride[k];
    for (std::size_t j = 0; j < row; ++j, to += item)
      std::memcpy(to, data.data() + (from + j * stride[rank - 1]) * item, item);
    for (std::size_t k = rank - 1; k-- > 0;) {
      if (++index[k] < shape[k]) break;
      index[k] = 0;
    }
  }
  return out;
}

std::string make_header(const NpyArray& array, const DTypeInfo& info) {
  return std::string("{'descr': '") + descr_of(info) +
         "', 'fortran_order': False, 'shape': " + shape_text(array.shape) + ", }";
}

// The whole file prefix: magic, version, length, dict padded so the data
// starts on a kAlign boundary. Version 2.0 only when 1.0's uint16 is too small.
std::vector<unsigned char> make_prefix(const std::string& dict) {
  std::size_t length_bytes = 2;
  std::size_t prelude = sizeof kMagic + 2 + length_bytes;
  std::size_t total = (prelude + dict.size() + 1 + kAlign - 1) / kAlign * kAlign;
  if (total - prelude > 0xffff) {
    length_bytes = 4;
    prelude = sizeof kMagic + 2 + length_bytes;
    total = (prelude + dict.size() + 1 + kAlign - 1) / kAlign * kAlign;
  }
  const std::size_t header_bytes = total - prelude;
  std::vector<unsigned char> prefix(kMagic, kMagic + sizeof kMagic);
  prefix.push_back(length_bytes == 2 ? 1 : 2);
  prefix.push_back(0);
  for (std::size_t i = 0; i < length_bytes; ++i) {
    prefix.push_back(static_cast<unsigned char>((header_bytes >> (8 * i)) & 0xff));
  }
  prefix.insert(prefix.end(), dict.begin(), dict.end());
  prefix.resize(total - 1, ' ');
  prefix.push_back('\n');
  return prefix;
}

}  // namespace

const char* to_string(DType dtype) {
  const DTypeInfo* info = find_dtype(dtype);
  return info != nullptr ? info->name : "unknown";
}

std::size_t dtype_bytes(DType dtype) {
  const DTypeInfo* info = find_dtype(dtype);
  if (info == nullptr) {
    throw Error(ErrorCode::InvalidArgument, "unknown dtype value " + std::to_string(static_cast<int>(dtype)));
  }
  return info->bytes;
}

std::int64_t NpyArray::elements() const {
  const std::int64_t count = checked_elements(shape);
  if (count < 0) {
    throw Error(ErrorCode::InvalidArgument,
                "shape " + shape_text(shape) + " has a negative dimension or too many elements");
  }
  return count;
}

bool is_npy_file(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) throw Error(ErrorCode::Io, "cannot open '" + path + "': " + std::strerror(errno));
  unsigned char head[sizeof kMagic] = {};
  const bool whole = std::fread(head, 1, sizeof head, f) == sizeof head;
  std::fclose(f);
  return whole && std::memcmp(head, kMagic, sizeof kMagic) == 0;
}

namespace {

// What a header says, checked against the file's size where it has one:
// read_npy and read_npy_header share it, so both refuse the same files.
struct Opened {
  Header header;
  ElementType element;
  std::size_t data_bytes = 0;
  bool sized = false;  // a regular file, whose size said it holds the data
};

std::FILE* open_to_read(const std::string& path) {
  errno = 0;
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (file == nullptr) throw Error(ErrorCode::Io, "cannot open '" + path + "': " + system_message(errno));
  return file;
}

Opened read_header(std::FILE* file, const std::string& path, const std::vector<DType>& accepted) {
  // Magic (6), version (2), then the header length: 2 bytes in 1.0, 4 after.
  std::array<unsigned char, 12> prelude{};
  const std::size_t got = read_some(file, path, prelude.data(), 8);
  if (got < sizeof kMagic || std::memcmp(prelude.data(), kMagic, sizeof kMagic) != 0) {
    fail(ErrorCode::Io, path, "not a .npy file (it does not start with \"\\x93NUMPY\")");
  }
  if (got < 8) {
    fail(ErrorCode::Io, path, "truncated .npy header: the file ends after " + std::to_string(got) + " bytes");
  }
  const unsigned major = prelude[6], minor = prelude[7];
  if (!(major >= 1 && major <= 3 && minor == 0)) {
    fail(ErrorCode::Unsupported, path,
         "unsupported .npy format version " + std::to_string(major) + "." + std::to_string(minor) +
             " (bfly reads 1.0, 2.0, 3.0)");
  }
  const std::size_t length_bytes = major == 1 ? 2 : 4;
  if (read_some(file, path, prelude.data() + 8, length_bytes) < length_bytes) {
    fail(ErrorCode::Io, path, "truncated .npy header: the file ends inside the header length");
  }
  std::size_t header_bytes = 0;
  for (std::size_t i = 0; i < length_bytes; ++i) {
    header_bytes |= static_cast<std::size_t>(prelude[8 + i]) << (8 * i);
  }
  if (header_bytes > kMaxHeaderBytes) {
    fail(ErrorCode::Io, path,
         "implausible .npy header length " + std::to_string(header_bytes) + " bytes (limit " +
             std::to_string(kMaxHeaderBytes) + ")");
  }
  // Versions 1.0 and 2.0 are latin-1 and 3.0 is utf-8: the keys and the
  // values bfly accepts are ASCII either way, so the bytes are parsed as is.
  std::string text(header_bytes, '\0');
  const std::size_t header_got = read_some(file, path, reinterpret_cast<unsigned char*>(&text[0]), header_bytes);
  if (header_got < header_bytes) {
    fail(ErrorCode::Io, path,
         "truncated .npy header: expected " + std::to_string(header_bytes) + " bytes, found " +
             std::to_string(header_got));
  }
  Opened opened{HeaderParser(path, text).parse(), {nullptr, false}};
  opened.element = element_type(path, opened.header, accepted);
  const std::vector<std::int64_t>& shape = opened.header.shape;
  const DType dtype = opened.element.info->dtype;
  const std::int64_t elements = checked_elements(shape);
  std::size_t& data_bytes = opened.data_bytes;
  if (elements < 0 || !checked_bytes(elements, dtype_bytes(dtype), &data_bytes)) {
    fail(ErrorCode::Io, path, "shape " + shape_text(shape) + " of " + to_string(dtype) + " has too many elements");
  }

  const std::size_t data_offset = sizeof kMagic + 2 + length_bytes + header_bytes;
  // A regular file's size says at once whether it holds the data: a short
  // one fails without allocating what its header declares. (Anything else,
  // a pipe, is read in pieces by read_npy and fails as it ends.)
  std::error_code size_error;
  const auto file_bytes = std::filesystem::file_size(path, size_error);
  if (!size_error && file_bytes < data_offset + data_bytes) {
    fail(ErrorCode::Io, path,
         "truncated data: shape " + shape_text(shape) + " of " + to_string(dtype) + " needs " +
             std::to_string(data_bytes) + " bytes, found " + std::to_string(file_bytes - data_offset));
  }
  opened.sized = !size_error;
  return opened;
}

}  // namespace

NpyHeader read_npy_header(const std::string& path, const std::vector<DType>& accepted) {
  const File file(open_to_read(path));
  const Opened opened = read_header(file.get(), path, accepted);
  return {opened.element.info->dtype, opened.header.shape, opened.header.fortran_order};
}

NpyArray read_npy(const std::string& path, const std::vector<DType>& accepted) {
  const File file(open_to_read(path));
  const Opened opened = read_header(file.get(), path, accepted);
  const Header& header = opened.header;
  const ElementType& element = opened.element;
  const std::size_t data_bytes = opened.data_bytes;
  NpyArray array;
  array.dtype = element.info->dtype;
  array.shape = header.shape;
  const std::string what = "shape " + shape_text(array.shape) + " of " + to_string(array.dtype);
  if (opened.sized) array.data.reserve(data_bytes);
  std::size_t data_got = 0;
  while (data_got < data_bytes) {
    const std::size_t chunk = std::min(kReadChunkBytes, data_bytes - data_got);
    array.data.resize(data_got + chunk);
    const std::size_t n = read_some(file.get(), path, array.data.data() + data_got, chunk);
    data_got += n;
    if (n < chunk) break;
  }
  if (data_got < data_bytes) {
    fail(ErrorCode::Io, path,
         "truncated data: " + what + " needs " + std::to_string(data_bytes) + " bytes, found " +
             std::to_string(data_got));
  }
  std::size_t extra = 0;
  unsigned char scratch[4096];
  for (;;) {
    const std::size_t n = read_some(file.get(), path, scratch, sizeof scratch);
    extra += n;
    if (n < sizeof scratch) break;
  }
  if (extra > 0) {
    fail(ErrorCode::Io, path,
         std::to_string(extra) + " unexpected bytes after the data (" + what + " needs " + std::to_string(data_bytes) +
             " bytes)");
  }
  if (element.swapped) swap_bytes(array.data, element.info->swap_bytes);
  // Rank 0 and 1 are the same in either order.
  if (header.fortran_order && array.shape.size() > 1)
    array.data = fortran_to_c(array.data, array.shape, element.info->bytes);
  return array;
}

void write_npy(OutputFile& output, const NpyArray& array) {
  const std::string& path = output.path();
  const DTypeInfo* info = find_dtype(array.dtype);
  if (info == nullptr) {
    fail(ErrorCode::InvalidArgument, path, "unknown dtype value " + std::to_string(static_cast<int>(array.dtype)));
  }
  const std::int64_t elements = checked_elements(array.shape);
  std::size_t data_bytes = 0;
  if (elements < 0 || !checked_bytes(elements, info->bytes, &data_bytes)) {
    fail(ErrorCode::InvalidArgument, path,
         "shape " + shape_text(array.shape) + " has a negative dimension or too many elements");
  }
  if (array.data.size() != data_bytes) {
    fail(ErrorCode::InvalidArgument, path,
         "shape " + shape_text(array.shape) + " of " + info->name + " needs " + std::to_string(data_bytes) +
             " bytes of data, got " + std::to_string(array.data.size()));
  }
  const std::vector<unsigned char> prefix = make_prefix(make_header(array, *info));
  output.write(prefix.data(), prefix.size());
  output.write(array.data.data(), data_bytes);
  output.commit();
}

void write_npy(const std::string& path, const NpyArray& array) {
  OutputFile output(path);
  write_npy(output, array);
}

}  // namespace bfly::io
