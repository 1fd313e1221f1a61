// .npy reading and writing: round trips, numpy's exact header layout, the
// header variants numpy and other writers produce, and every rejection.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "bfly/bfly.hpp"
#include "io/npy.hpp"

namespace bfly::io {
namespace {

namespace fs = std::filesystem;

// A fresh directory per test, removed afterwards.
class NpyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::random_device seed;
    dir_ = fs::temp_directory_path() / ("bfly_test_npy_" + std::to_string(seed()) + "_" + std::to_string(seed()));
    fs::create_directories(dir_);
  }
  void TearDown() override {
    std::error_code ignored;
    fs::remove_all(dir_, ignored);
  }

  std::string path(const std::string& name) const { return (dir_ / name).string(); }

  std::set<std::string> listing() const {
    std::set<std::string> names;
    for (const auto& entry : fs::directory_iterator(dir_)) {
      names.insert(entry.path().filename().string());
    }
    return names;
  }

  fs::path dir_;
};

std::vector<unsigned char> slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<unsigned char>(std::istreambuf_iterator<char>(in), {});
}

void spit(const std::string& path, const std::vector<unsigned char>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

// A .npy file with the given header dict text, version and payload; the
// dict is padded with spaces and '\n' to a multiple of 64 as numpy does.
std::vector<unsigned char> npy_bytes(const std::string& dict, std::size_t data_bytes, int major = 1, bool pad = true) {
  const std::size_t length_bytes = major == 1 ? 2 : 4;
  std::string header = dict;
  if (pad) {
    while ((6 + 2 + length_bytes + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
  }
  std::vector<unsigned char> bytes = {0x93, 'N', 'U', 'M', 'P', 'Y', static_cast<unsigned char>(major), 0};
  for (std::size_t i = 0; i < length_bytes; ++i) {
    bytes.push_back(static_cast<unsigned char>((header.size() >> (8 * i)) & 0xff));
  }
  bytes.insert(bytes.end(), header.begin(), header.end());
  for (std::size_t i = 0; i < data_bytes; ++i) bytes.push_back(static_cast<unsigned char>(i * 7));
  return bytes;
}

NpyArray make_array(DType dtype, std::vector<std::int64_t> shape) {
  NpyArray array;
  array.dtype = dtype;
  array.shape = std::move(shape);
  array.data.resize(static_cast<std::size_t>(array.elements()) * dtype_bytes(dtype));
  std::mt19937 engine(1234);
  for (unsigned char& byte : array.data) byte = static_cast<unsigned char>(engine());
  return array;
}

// Runs `call`, expecting a bfly::Error with `code` whose message contains
// every one of `needles`.
void expect_error(const std::function<void()>& call, ErrorCode code, const std::vector<std::string>& needles) {
  try {
    call();
    ADD_FAILURE() << "no bfly::Error thrown";
  } catch (const Error& error) {
    EXPECT_EQ(static_cast<int>(error.code()), static_cast<int>(code)) << error.what();
    const std::string message = error.what();
    EXPECT_EQ(message.find('\n'), std::string::npos) << "message is not one line: " << message;
    for (const std::string& needle : needles) {
      EXPECT_NE(message.find(needle), std::string::npos) << "message \"" << message << "\" lacks \"" << needle << "\"";
    }
  }
}

TEST(NpyDType, NamesAndSizes) {
  EXPECT_STREQ(to_string(DType::Complex64), "complex64");
  EXPECT_STREQ(to_string(DType::Complex128), "complex128");
  EXPECT_STREQ(to_string(DType::Float32), "float32");
  EXPECT_STREQ(to_string(DType::Float64), "float64");
  EXPECT_EQ(dtype_bytes(DType::Complex64), 8u);
  EXPECT_EQ(dtype_bytes(DType::Complex128), 16u);
  EXPECT_EQ(dtype_bytes(DType::Float32), 4u);
  EXPECT_EQ(dtype_bytes(DType::Float64), 8u);
  EXPECT_STREQ(to_string(DType::Float16), "float16");
  EXPECT_STREQ(to_string(DType::Bool), "bool");
  EXPECT_STREQ(to_string(DType::UInt8), "uint8");
  EXPECT_STREQ(to_string(DType::Int32), "int32");
  EXPECT_EQ(dtype_bytes(DType::Float16), 2u);
  EXPECT_EQ(dtype_bytes(DType::Bool), 1u);
  EXPECT_EQ(dtype_bytes(DType::UInt64), 8u);
}

TEST(NpyArrayTest, Elements) {
  NpyArray array;
  EXPECT_EQ(array.elements(), 1);  // scalar
  array.shape = {3, 0, 5};
  EXPECT_EQ(array.elements(), 0);
  array.shape = {3, 4, 5};
  EXPECT_EQ(array.elements(), 60);
  array.shape = {std::int64_t{1} << 40, std::int64_t{1} << 40};
  EXPECT_THROW(array.elements(), Error);
  array.shape = {-1};
  EXPECT_THROW(array.elements(), Error);
}

TEST_F(NpyTest, RoundTripsEveryDTypeAndShape) {
  const std::vector<std::vector<std::int64_t>> shapes = {{},        {0},       {1},          {7},   {3, 4},
                                                         {2, 0, 3}, {2, 3, 5}, {1, 1, 1, 1}, {1000}};
  for (DType dtype : {DType::Complex64, DType::Complex128, DType::Float32, DType::Float64}) {
    for (const auto& shape : shapes) {
      SCOPED_TRACE(std::string(to_string(dtype)) + " rank " + std::to_string(shape.size()));
      const NpyArray written = make_array(dtype, shape);
      const std::string file = path("round.npy");
      write_npy(file, written);
      const NpyArray read = read_npy(file);
      EXPECT_EQ(read.dtype, written.dtype);
      EXPECT_EQ(read.shape, written.shape);
      EXPECT_EQ(read.data, written.data);
      // numpy.save's layout: version 1.0, data aligned to 64 bytes.
      const std::vector<unsigned char> bytes = slurp(file);
      ASSERT_GE(bytes.size(), 10u);
      EXPECT_EQ(bytes[6], 1);
      EXPECT_EQ(bytes[7], 0);
      const std::size_t header = bytes[8] | (std::size_t{bytes[9]} << 8);
      EXPECT_EQ((10 + header) % 64, 0u);
      EXPECT_EQ(bytes[10 + header - 1], '\n');
      EXPECT_EQ(bytes.size(), 10 + header + written.data.size());
    }
  }
  EXPECT_EQ(listing(), std::set<std::string>{"round.npy"});  // no temporaries left
}

// Every other numeric type where the caller takes it, with numpy's descr
// ('|' where byte order does not apply).
TEST_F(NpyTest, RoundTripsTheOtherNumericTypes) {
  const std::vector<std::pair<DType, std::string>> types = {
      {DType::Float16, "'<f2'"}, {DType::Bool, "'|b1'"},   {DType::Int8, "'|i1'"},  {DType::Int16, "'<i2'"},
      {DType::Int32, "'<i4'"},   {DType::Int64, "'<i8'"},  {DType::UInt8, "'|u1'"}, {DType::UInt16, "'<u2'"},
      {DType::UInt32, "'<u4'"},  {DType::UInt64, "'<u8'"},
  };
  for (const auto& [dtype, descr] : types) {
    SCOPED_TRACE(to_string(dtype));
    const NpyArray written = make_array(dtype, {3, 5});
    write_npy(path("t.npy"), written);
    const std::vector<unsigned char> bytes = slurp(path("t.npy"));
    EXPECT_NE(std::string(bytes.begin(), bytes.end()).find("'descr': " + descr), std::string::npos);
    const NpyArray read = read_npy(path("t.npy"), {dtype});
    EXPECT_EQ(read.dtype, dtype);
    EXPECT_EQ(read.shape, written.shape);
    EXPECT_EQ(read.data, written.data);
  }
}

TEST_F(NpyTest, WritesTheHeaderNumpyWrites) {
  NpyArray array = make_array(DType::Complex64, {3, 4});
  write_npy(path("a.npy"), array);
  const std::vector<unsigned char> bytes = slurp(path("a.npy"));
  const std::string dict = "{'descr': '<c8', 'fortran_order': False, 'shape': (3, 4), }";
  const std::vector<unsigned char> expected = npy_bytes(dict, 0);
  ASSERT_GE(bytes.size(), expected.size());
  EXPECT_EQ(std::vector<unsigned char>(bytes.begin(), bytes.begin() + std::ptrdiff_t(expected.size())), expected);

  array = make_array(DType::Float64, {5});
  write_npy(path("b.npy"), array);
  const std::vector<unsigned char> bytes_b = slurp(path("b.npy"));
  EXPECT_EQ(std::string(bytes_b.begin() + 10, bytes_b.begin() + 128),
            std::string("{'descr': '<f8', 'fortran_order': False, 'shape': (5,), }") + std::string(60, ' ') + "\n");
}

TEST_F(NpyTest, WriteReplacesAnExistingFile) {
  spit(path("out.npy"), {1, 2, 3});
  const NpyArray array = make_array(DType::Float32, {4});
  write_npy(path("out.npy"), array);
  EXPECT_EQ(read_npy(path("out.npy")).data, array.data);
  EXPECT_EQ(listing(), std::set<std::string>{"out.npy"});
}

TEST_F(NpyTest, ReadsVersions2And3) {
  spit(path("v2.npy"), npy_bytes("{'descr': '<c16', 'fortran_order': False, 'shape': (2, 3), }", 96, 2));
  NpyArray array = read_npy(path("v2.npy"));
  EXPECT_EQ(array.dtype, DType::Complex128);
  EXPECT_EQ(array.shape, (std::vector<std::int64_t>{2, 3}));
  EXPECT_EQ(array.data.size(), 96u);
  EXPECT_EQ(array.data[1], 7);

  spit(path("v3.npy"), npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (5,), }", 20, 3));
  array = read_npy(path("v3.npy"));
  EXPECT_EQ(array.dtype, DType::Float32);
  EXPECT_EQ(array.shape, (std::vector<std::int64_t>{5}));
}

TEST_F(NpyTest, ToleratesHeaderVariants) {
  struct Case {
    std::string dict;
    DType dtype;
    std::vector<std::int64_t> shape;
  };
  const std::vector<Case> cases = {
      {"{'shape': (2,), 'fortran_order': False, 'descr': '<c8'}", DType::Complex64, {2}},
      {"{ \"descr\" : \"<f8\" ,\n\t'fortran_order':False,'shape':( 2 , 3 , ) , }", DType::Float64, {2, 3}},
      {"{'descr': '=f4', 'fortran_order': False, 'shape': (), }", DType::Float32, {}},
      {"{'descr': '=c16', 'fortran_order': False, 'shape': (1L, 2L), }", DType::Complex128, {1, 2}},
      {"{'descr': '<c8', 'fortran_order': False, 'shape': (0,), }", DType::Complex64, {0}},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.dict);
    std::int64_t elements = 1;
    for (std::int64_t dim : c.shape) elements *= dim;
    spit(path("v.npy"), npy_bytes(c.dict, static_cast<std::size_t>(elements) * dtype_bytes(c.dtype)));
    const NpyArray array = read_npy(path("v.npy"));
    EXPECT_EQ(array.dtype, c.dtype);
    EXPECT_EQ(array.shape, c.shape);
  }
  // No padding at all, as some writers do.
  spit(path("bare.npy"), npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (3,)}", 12, 1, false));
  EXPECT_EQ(read_npy(path("bare.npy")).shape, std::vector<std::int64_t>{3});
}

TEST_F(NpyTest, RejectsMissingFile) {
  const std::string missing = path("nope.npy");
  expect_error([&] { read_npy(missing); }, ErrorCode::Io, {"cannot open '" + missing + "': No such file or directory"});
}

TEST_F(NpyTest, RejectsDirectory) {
  expect_error([&] { read_npy(dir_.string()); }, ErrorCode::Io, {dir_.string()});
}

TEST_F(NpyTest, RejectsBadMagic) {
  spit(path("bad.npy"), {'P', 'K', 3, 4, 0, 0, 0, 0, 0, 0, 0, 0});
  expect_error([&] { read_npy(path("bad.npy")); }, ErrorCode::Io, {path("bad.npy"), "not a .npy"});
  spit(path("empty.npy"), {});
  expect_error([&] { read_npy(path("empty.npy")); }, ErrorCode::Io, {path("empty.npy")});
  std::vector<unsigned char> noise(300);
  std::mt19937 engine(7);
  for (unsigned char& byte : noise) byte = static_cast<unsigned char>(engine());
  spit(path("noise.npy"), noise);
  expect_error([&] { read_npy(path("noise.npy")); }, ErrorCode::Io, {path("noise.npy")});
}

TEST_F(NpyTest, RejectsTruncatedHeader) {
  std::vector<unsigned char> bytes = npy_bytes("{'descr': '<c8', 'fortran_order': False, 'shape': (3,), }", 24);
  spit(path("short.npy"), std::vector<unsigned char>(bytes.begin(), bytes.begin() + 40));
  expect_error([&] { read_npy(path("short.npy")); }, ErrorCode::Io, {path("short.npy"), "truncated", "118", "30"});
  spit(path("prelude.npy"), std::vector<unsigned char>(bytes.begin(), bytes.begin() + 7));
  expect_error([&] { read_npy(path("prelude.npy")); }, ErrorCode::Io, {path("prelude.npy"), "truncated"});
}

TEST_F(NpyTest, RejectsTruncatedData) {
  std::vector<unsigned char> bytes = npy_bytes("{'descr': '<c8', 'fortran_order': False, 'shape': (3, 4), }", 96);
  bytes.resize(bytes.size() - 56);
  spit(path("cut.npy"), bytes);
  expect_error([&] { read_npy(path("cut.npy")); }, ErrorCode::Io, {path("cut.npy"), "truncated data", "96", "40"});
}

// The header alone (a command sizes its work from it before reading): what
// read_npy returns but the data, and read_npy's refusals of a file too short.
TEST_F(NpyTest, HeaderAloneAsReadNpySeesIt) {
  spit(path("f.npy"), npy_bytes("{'descr': '>f8', 'fortran_order': True, 'shape': (2, 3), }", 48));
  const NpyHeader header = read_npy_header(path("f.npy"));
  EXPECT_EQ(header.dtype, DType::Float64);
  EXPECT_EQ(header.shape, (std::vector<std::int64_t>{2, 3}));
  EXPECT_TRUE(header.fortran_order);
  EXPECT_EQ(read_npy(path("f.npy")).shape, header.shape);
  // Declaring 2^40 elements in a few bytes: refused from the file's size.
  spit(path("big.npy"), npy_bytes("{'descr': '<c8', 'fortran_order': False, 'shape': (1099511627776,), }", 8));
  expect_error([&] { read_npy_header(path("big.npy")); }, ErrorCode::Io,
               {path("big.npy"), "truncated data", "8796093022208"});
  expect_error([&] { read_npy_header(path("big.npy"), {DType::Int64}); }, ErrorCode::Unsupported, {"'<c8'"});
}

TEST_F(NpyTest, RejectsTrailingBytes) {
  spit(path("long.npy"), npy_bytes("{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }", 12 + 5));
  expect_error([&] { read_npy(path("long.npy")); }, ErrorCode::Io, {path("long.npy"), "5 unexpected bytes"});
}

TEST_F(NpyTest, RejectsUnsupportedDTypes) {
  spit(path("int.npy"), npy_bytes("{'descr': '<i4', 'fortran_order': False, 'shape': (3,), }", 12));
  expect_error([&] { read_npy(path("int.npy")); }, ErrorCode::Unsupported,
               {path("int.npy") + ": unsupported dtype '<i4' (bfly reads complex64, complex128, "
                                  "float32, float64)"});
  spit(path("bool.npy"), npy_bytes("{'descr': '|b1', 'fortran_order': False, 'shape': (3,), }", 3));
  expect_error([&] { read_npy(path("bool.npy")); }, ErrorCode::Unsupported, {"'|b1'"});
  spit(path("half.npy"), npy_bytes("{'descr': '<f2', 'fortran_order': False, 'shape': (3,), }", 6));
  expect_error([&] { read_npy(path("half.npy")); }, ErrorCode::Unsupported, {"'<f2'"});
  // Types numpy has and bfly reads nowhere: long double, strings.
  const std::vector<DType> every = {DType::Complex64, DType::Complex128, DType::Float16, DType::Float32, DType::Float64,
                                    DType::Bool,      DType::Int8,       DType::Int16,   DType::Int32,   DType::Int64,
                                    DType::UInt8,     DType::UInt16,     DType::UInt32,  DType::UInt64};
  spit(path("long.npy"), npy_bytes("{'descr': '<f16', 'fortran_order': False, 'shape': (3,), }", 48));
  expect_error([&] { read_npy(path("long.npy"), every); }, ErrorCode::Unsupported, {"'<f16'", "uint64"});
  spit(path("text.npy"), npy_bytes("{'descr': '<U3', 'fortran_order': False, 'shape': (3,), }", 36));
  expect_error([&] { read_npy(path("text.npy"), every); }, ErrorCode::Unsupported, {"'<U3'"});
  spit(path("rec.npy"),
       npy_bytes("{'descr': [('re', '<f4'), ('im', '<f4')], 'fortran_order': False, 'shape': (3,), }", 24));
  expect_error([&] { read_npy(path("rec.npy")); }, ErrorCode::Unsupported,
               {path("rec.npy"), "structured", "('re', '<f4')"});
}

// int64 only where the caller asks for it (polymul), else an unsupported dtype.
TEST_F(NpyTest, Int64OnlyWhereAccepted) {
  std::vector<unsigned char> body(24);
  const std::int64_t values[3] = {-1, 0, std::int64_t{1} << 62};
  std::memcpy(body.data(), values, sizeof values);
  std::vector<unsigned char> file = npy_bytes("{'descr': '<i8', 'fortran_order': False, 'shape': (3,), }", 0);
  file.insert(file.end(), body.begin(), body.end());
  spit(path("i8.npy"), file);
  expect_error([&] { read_npy(path("i8.npy")); }, ErrorCode::Unsupported, {"'<i8'", "float64)"});
  const NpyArray a = read_npy(path("i8.npy"), {DType::Int64});
  EXPECT_EQ(a.dtype, DType::Int64);
  ASSERT_EQ(a.data.size(), 24u);
  EXPECT_EQ(std::memcmp(a.data.data(), values, 24), 0);
  expect_error([&] { read_npy(path("i8.npy"), {DType::Float64}); }, ErrorCode::Unsupported, {"(bfly reads float64)"});
}

bool host_is_little_endian() {
  const std::uint16_t one = 1;
  unsigned char first = 0;
  std::memcpy(&first, &one, 1);
  return first == 1;
}

// `values` as a file stores them in big-endian order: each `unit` bytes reversed on a little-endian host.
template <class T>
std::vector<unsigned char> big_endian(const std::vector<T>& values, std::size_t unit = sizeof(T)) {
  std::vector<unsigned char> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  if (host_is_little_endian())
    for (std::size_t i = 0; i < bytes.size(); i += unit) std::reverse(&bytes[i], &bytes[i] + unit);
  return bytes;
}

template <class T>
std::vector<unsigned char> host_bytes(const std::vector<T>& values) {
  std::vector<unsigned char> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

std::vector<unsigned char> with_body(std::vector<unsigned char> file, const std::vector<unsigned char>& body) {
  file.insert(file.end(), body.begin(), body.end());
  return file;
}

// Big-endian arrays come back in the host's order: a complex number's two
// parts swapped apart, one-byte types as they are.
TEST_F(NpyTest, ReadsBigEndian) {
  const std::vector<float> complex64 = {1.5f, -2.0f, 3.25f, 0.0f, -0.5f, 1e-3f};
  spit(path("c8.npy"),
       with_body(npy_bytes("{'descr': '>c8', 'fortran_order': False, 'shape': (3,), }", 0), big_endian(complex64)));
  NpyArray a = read_npy(path("c8.npy"));
  EXPECT_EQ(a.dtype, DType::Complex64);
  EXPECT_EQ(a.data, host_bytes(complex64));

  const std::vector<double> complex128 = {1.0 / 3, -2.5, 1e300, -1e-300};
  spit(path("c16.npy"),
       with_body(npy_bytes("{'descr': '>c16', 'fortran_order': False, 'shape': (2,), }", 0), big_endian(complex128)));
  a = read_npy(path("c16.npy"));
  EXPECT_EQ(a.dtype, DType::Complex128);
  EXPECT_EQ(a.data, host_bytes(complex128));

  const std::vector<double> float64 = {0.1, -7.0, 2e10};
  spit(path("f8.npy"),
       with_body(npy_bytes("{'descr': '>f8', 'fortran_order': False, 'shape': (3,), }", 0), big_endian(float64)));
  EXPECT_EQ(read_npy(path("f8.npy")).data, host_bytes(float64));

  const std::vector<std::int64_t> int64 = {-1, 258, std::int64_t{1} << 62};
  spit(path("i8.npy"),
       with_body(npy_bytes("{'descr': '>i8', 'fortran_order': False, 'shape': (3,), }", 0), big_endian(int64)));
  expect_error([&] { read_npy(path("i8.npy")); }, ErrorCode::Unsupported, {"'>i8'", "float64)"});
  a = read_npy(path("i8.npy"), {DType::Int64});
  EXPECT_EQ(a.dtype, DType::Int64);
  EXPECT_EQ(a.data, host_bytes(int64));

  const std::vector<std::uint16_t> uint16 = {1, 0x1234, 0xff00};
  spit(path("u2.npy"),
       with_body(npy_bytes("{'descr': '>u2', 'fortran_order': False, 'shape': (3,), }", 0), big_endian(uint16)));
  EXPECT_EQ(read_npy(path("u2.npy"), {DType::UInt16}).data, host_bytes(uint16));

  const std::vector<std::uint8_t> uint8 = {1, 2, 250};
  spit(path("u1.npy"), with_body(npy_bytes("{'descr': '|u1', 'fortran_order': False, 'shape': (3,), }", 0), uint8));
  EXPECT_EQ(read_npy(path("u1.npy"), {DType::UInt8}).data, uint8);

  // Little-endian names the host's order on a little-endian host, and '=' always.
  const std::vector<float> float32 = {1.0f, 2.0f};
  spit(path("eq.npy"),
       with_body(npy_bytes("{'descr': '=f4', 'fortran_order': False, 'shape': (2,), }", 0), host_bytes(float32)));
  EXPECT_EQ(read_npy(path("eq.npy")).data, host_bytes(float32));
}

// Fortran order (the first index fastest) comes back in C order, same shape.
TEST_F(NpyTest, ReadsFortranOrder) {
  // Element (i, j, k) of a 2x3x4 array is 100 i + 10 j + k; Fortran order
  // stores it at i + 2 (j + 3 k).
  std::vector<float> fortran(24), c(24);
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j)
      for (int k = 0; k < 4; ++k) {
        fortran[i + 2 * (j + 3 * k)] = float(100 * i + 10 * j + k);
        c[(i * 3 + j) * 4 + k] = float(100 * i + 10 * j + k);
      }
  spit(path("f.npy"),
       with_body(npy_bytes("{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3, 4), }", 0), host_bytes(fortran)));
  NpyArray a = read_npy(path("f.npy"));
  EXPECT_EQ(a.shape, (std::vector<std::int64_t>{2, 3, 4}));
  EXPECT_EQ(a.data, host_bytes(c));

  // Big-endian complex128 in Fortran order: both conversions. (i, j) of a
  // 2x3 array is i + 10 j + 0.5 i j.
  std::vector<double> fortran_complex, c_complex(12);
  for (int j = 0; j < 3; ++j)
    for (int i = 0; i < 2; ++i) {
      fortran_complex.push_back(i);
      fortran_complex.push_back(10 * j + 0.5 * i * j);
    }
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 3; ++j) {
      c_complex[2 * (i * 3 + j)] = i;
      c_complex[2 * (i * 3 + j) + 1] = 10 * j + 0.5 * i * j;
    }
  spit(path("fb.npy"), with_body(npy_bytes("{'descr': '>c16', 'fortran_order': True, 'shape': (2, 3), }", 0),
                                 big_endian(fortran_complex)));
  a = read_npy(path("fb.npy"));
  EXPECT_EQ(a.dtype, DType::Complex128);
  EXPECT_EQ(a.data, host_bytes(c_complex));

  // Rank 1 and 0 are the same in either order; an empty array stays empty.
  const std::vector<float> line = {1, 2, 3};
  spit(path("f1.npy"),
       with_body(npy_bytes("{'descr': '<f4', 'fortran_order': True, 'shape': (3,), }", 0), host_bytes(line)));
  EXPECT_EQ(read_npy(path("f1.npy")).data, host_bytes(line));
  spit(path("f0.npy"), npy_bytes("{'descr': '<c8', 'fortran_order': True, 'shape': (4, 0, 2), }", 0));
  a = read_npy(path("f0.npy"));
  EXPECT_EQ(a.shape, (std::vector<std::int64_t>{4, 0, 2}));
  EXPECT_TRUE(a.data.empty());
}

TEST_F(NpyTest, RejectsUnknownVersion) {
  std::vector<unsigned char> bytes = npy_bytes("{'descr': '<c8', 'fortran_order': False, 'shape': (3,), }", 24);
  bytes[6] = 4;
  spit(path("v4.npy"), bytes);
  expect_error([&] { read_npy(path("v4.npy")); }, ErrorCode::Unsupported, {path("v4.npy"), "version 4.0"});
}

TEST_F(NpyTest, RejectsMalformedHeaders) {
  struct Case {
    std::string dict;
    std::string needle;
  };
  const std::vector<Case> cases = {
      {"{'descr': '<c8', 'fortran_order': False}", "no 'shape'"},
      {"{'fortran_order': False, 'shape': (3,)}", "no 'descr'"},
      {"{'descr': '<c8', 'shape': (3,)}", "no 'fortran_order'"},
      {"{'descr': '<c8', 'fortran_order': False, 'shape': (3,), 'extra': 1}", "'extra'"},
      {"{'descr': '<c8', 'descr': '<c8', 'fortran_order': False, 'shape': (3,)}", "twice"},
      {"{'descr': '<c8', 'fortran_order': False, 'shape': (3)}", "not a tuple"},
      {"{'descr': '<c8', 'fortran_order': False, 'shape': (-3,)}", "negative"},
      {"{'descr': '<c8', 'fortran_order': False, 'shape': [3]}", "expected '('"},
      {"{'descr': '<c8', 'fortran_order': 0, 'shape': (3,)}", "True or False"},
      {"{'descr': '<c8' 'fortran_order': False, 'shape': (3,)}", "expected ',' or '}'"},
      {"{'descr': '<c8, 'fortran_order': False, 'shape': (3,)}", "malformed"},
      {"{'descr': '<c8', 'fortran_order': False, 'shape': (3,)} junk", "after the closing"},
      {"{'descr': '<c8', 'fortran_order': False, 'shape': (3,)", "expected ',' or '}'"},
      {"", "expected '{'"},
      {"{'descr': '<c8', 'fortran_order': False, 'shape': (99999999999999999999,)}", "64 bits"},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.dict);
    spit(path("m.npy"), npy_bytes(c.dict, 24));
    expect_error([&] { read_npy(path("m.npy")); }, ErrorCode::Io, {path("m.npy"), "malformed .npy header", c.needle});
  }
}

TEST_F(NpyTest, RejectsShapeOverflow) {
  spit(path("huge.npy"), npy_bytes("{'descr': '<c8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", 0));
  expect_error([&] { read_npy(path("huge.npy")); }, ErrorCode::Io, {path("huge.npy"), "too many elements"});
  // Fits in int64 elements but not in bytes.
  spit(path("bytes.npy"), npy_bytes("{'descr': '<c16', 'fortran_order': False, 'shape': (1152921504606846976,), }", 0));
  expect_error([&] { read_npy(path("bytes.npy")); }, ErrorCode::Io, {path("bytes.npy"), "too many elements"});
  // Plausible in size, but the file holds nothing: reported as truncated.
  spit(path("empty.npy"), npy_bytes("{'descr': '<c8', 'fortran_order': False, 'shape': (1000000000,), }", 0));
  expect_error([&] { read_npy(path("empty.npy")); }, ErrorCode::Io,
               {path("empty.npy"), "truncated data", "8000000000", "found 0"});
}

TEST_F(NpyTest, FailedWriteIntoMissingDirectoryLeavesNothing) {
  const std::string target = path("missing/out.npy");
  expect_error([&] { write_npy(target, make_array(DType::Complex64, {4})); }, ErrorCode::Io,
               {"cannot write '" + target + "'", "No such file or directory"});
  EXPECT_FALSE(fs::exists(target));
  EXPECT_TRUE(listing().empty());
}

TEST_F(NpyTest, FailedWriteOntoDirectoryLeavesNothing) {
  fs::create_directory(path("sub"));
  expect_error([&] { write_npy(path("sub"), make_array(DType::Complex64, {4})); }, ErrorCode::Io,
               {"cannot write '" + path("sub") + "'"});
  EXPECT_TRUE(fs::is_directory(path("sub")));
  EXPECT_TRUE(fs::is_empty(path("sub")));
  EXPECT_EQ(listing(), std::set<std::string>{"sub"});
}

TEST_F(NpyTest, InconsistentArrayIsRejectedAndKeepsExistingFile) {
  spit(path("keep.npy"), {9, 8, 7});
  NpyArray array = make_array(DType::Complex64, {4});
  array.data.pop_back();
  expect_error([&] { write_npy(path("keep.npy"), array); }, ErrorCode::InvalidArgument,
               {path("keep.npy"), "32 bytes", "got 31"});
  array.shape = {-4};
  expect_error([&] { write_npy(path("keep.npy"), array); }, ErrorCode::InvalidArgument, {path("keep.npy"), "(-4,)"});
  EXPECT_EQ(slurp(path("keep.npy")), (std::vector<unsigned char>{9, 8, 7}));
  EXPECT_EQ(listing(), std::set<std::string>{"keep.npy"});
}

}  // namespace
}  // namespace bfly::io
