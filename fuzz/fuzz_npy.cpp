// libFuzzer target: bfly::io::read_npy and is_npy_file on any bytes.
// Properties: only bfly::Error escapes; an array read has exactly its
// shape's bytes, no more than the file holds; written back and read again it
// is the same array; the default (float) reader takes it or refuses its
// dtype as unsupported.
#include <cstring>

#include "bfly/bfly.hpp"
#include "fuzz_util.hpp"
#include "io/npy.hpp"

using bfly::io::DType;

namespace {

const std::vector<DType> kEveryDType = {
    DType::Complex64, DType::Complex128, DType::Float32, DType::Float64, DType::Int64,  DType::Bool,   DType::Int8,
    DType::Int16,     DType::Int32,      DType::UInt8,   DType::UInt16,  DType::UInt32, DType::UInt64, DType::Float16,
};

bool same(const bfly::io::NpyArray& a, const bfly::io::NpyArray& b) {
  return a.dtype == b.dtype && a.shape == b.shape && a.data == b.data;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string path = bfly::fuzz::write_scratch("input.npy", data, size);
  const bool magic = size >= 6 && std::memcmp(data, "\x93NUMPY", 6) == 0;
  if (bfly::io::is_npy_file(path) != magic) bfly::fuzz::fail("is_npy_file disagrees with the magic");
  bfly::io::NpyArray array;
  try {
    array = bfly::io::read_npy(path, kEveryDType);
  } catch (const bfly::Error&) {
    return 0;
  }
  if (!magic) bfly::fuzz::fail("read_npy took a file without the magic");
  const std::size_t bytes = static_cast<std::size_t>(array.elements()) * bfly::io::dtype_bytes(array.dtype);
  if (array.data.size() != bytes || bytes > size)
    bfly::fuzz::fail("read_npy returned " + std::to_string(array.data.size()) + " bytes for " + std::to_string(bytes) +
                     " (a file of " + std::to_string(size) + ")");

  const std::string copy = bfly::fuzz::scratch_directory() + "/copy.npy";
  bfly::io::write_npy(copy, array);  // a valid array: must not throw
  if (!same(bfly::io::read_npy(copy, kEveryDType), array)) bfly::fuzz::fail("write_npy + read_npy changed the array");

  const bool is_float = array.dtype == DType::Complex64 || array.dtype == DType::Complex128 ||
                        array.dtype == DType::Float32 || array.dtype == DType::Float64;
  try {
    if (!same(bfly::io::read_npy(path), array)) bfly::fuzz::fail("the default reader read another array");
    if (!is_float) bfly::fuzz::fail("the default reader took a non-float dtype");
  } catch (const bfly::Error& e) {
    if (is_float || e.code() != bfly::ErrorCode::Unsupported)
      bfly::fuzz::fail(std::string("the default reader refused a readable file: ") + e.what());
  }
  return 0;
}
