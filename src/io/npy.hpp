// NumPy .npy files: the array format of the bfly CLI and applications.
//
// Format reference: numpy/lib/format.py (NEP 1). A file is the magic
// "\x93NUMPY", a version byte pair, a little-endian header length (uint16 for
// 1.0, uint32 for 2.0 and 3.0), a Python dict literal
//   {'descr': '<c8', 'fortran_order': False, 'shape': (3, 4), }
// padded with spaces and a newline, then the raw elements.
//
// bfly reads numpy's numeric element types (bool, integers, float16 to
// complex128) in either byte order and in C or Fortran order, and hands them
// over in the host's byte order and C order; each caller names the types it
// takes (anything else is reported, never converted silently). It writes in
// the host's byte order and C order. Every failure throws bfly::Error whose
// message names the path and the bad value.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "io/output_file.hpp"

namespace bfly::io {

enum class DType {
  Complex64,
  Complex128,
  Float32,
  Float64,
  Int64,
  Bool,
  Int8,
  Int16,
  Int32,
  UInt8,
  UInt16,
  UInt32,
  UInt64,
  Float16,
};

const char* to_string(DType dtype);  // numpy's name: "complex64", "float16", "uint8", "bool", ...
std::size_t dtype_bytes(DType dtype);

struct NpyArray {
  DType dtype = DType::Complex64;
  std::vector<std::int64_t> shape;  // outermost first; empty for a scalar
  std::vector<unsigned char> data;  // elements() * dtype_bytes(dtype) bytes, host byte order, C order
  std::int64_t elements() const;    // product of shape (1 for a scalar)
};

// Whether the file starts with the .npy magic ("\x93NUMPY"): how the CLI
// tells an .npy input from a text or PNG one. Throws Error(Io) naming an
// unreadable path.
bool is_npy_file(const std::string& path);

// The dtypes read_npy takes unless told: what bfly's transforms compute in.
inline const std::vector<DType>& float_dtypes() {
  static const std::vector<DType> types{DType::Complex64, DType::Complex128, DType::Float32, DType::Float64};
  return types;
}

// Reads a whole file: a big-endian ('>') or little-endian ('<') array comes
// back in the host's byte order, a Fortran-order one in C order (the same
// shape, the elements moved). `accepted`: the dtypes the caller takes
// (complex64, complex128, float32, float64 by default; int64 for exact integer
// work; every numeric type for numpy.fft's promotion); any other is
// Error(Unsupported) naming it. Throws Error(Io) when the file cannot be
// read, is not a .npy file, or its header or data are malformed or truncated
// (or followed by extra bytes); Error(Unsupported) for an unknown format
// version.
NpyArray read_npy(const std::string& path, const std::vector<DType>& accepted = float_dtypes());

// What read_npy would return but the data, from the header alone (the
// data is not read): the dtype and shape, with read_npy's errors for the
// header and for a regular file too short for its data. How a command sizes
// its work before it reads anything.
struct NpyHeader {
  DType dtype = DType::Complex64;
  std::vector<std::int64_t> shape;
  bool fortran_order = false;  // read_npy reorders the data, a copy
};
NpyHeader read_npy_header(const std::string& path, const std::vector<DType>& accepted = float_dtypes());

// Writes a version 1.0 file (2.0 only if the header needs it) with the data
// starting at a multiple of 64 bytes, as numpy.save does, to `output` by its
// rules (output_file.hpp: a regular file through a temporary and a rename,
// so a failure leaves an existing one untouched; a device, a FIFO or stdout
// in place). Error(InvalidArgument) when the data size does not match the
// shape, before anything is opened; Error(Io) when a write fails.
void write_npy(OutputFile& output, const NpyArray& array);
void write_npy(const std::string& path, const NpyArray& array);

}  // namespace bfly::io
