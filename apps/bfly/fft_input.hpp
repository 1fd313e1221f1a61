// The input types of the transform verbs and their promotion, NumPy 2's
// rules for numpy.fft: bool and every integer type compute in double
// (float64, complex128 out), float16 in single (complex64 out; a real output
// is float16 again, as numpy.fft.irfft and hfft give), float32 / complex64 in
// single and float64 / complex128 in double.
#pragma once

#include <string>

#include "io/npy.hpp"

namespace bfly::cli {

struct FftInput {
  io::NpyArray array;     // complex64, complex128, float32 or float64: the promoted input
  io::DType file_dtype;   // what the file held
};

// Reads `path` (any byte order, C or Fortran order) and promotes it; a
// non-numeric dtype (or float128) is an error naming it.
FftInput read_fft_input(const std::string& path);

bool is_complex(io::DType dtype);

// A real float32 result as numpy returns it for `file_dtype`: float16 when the
// input was float16 (rounded to nearest, ties to even), else unchanged.
io::NpyArray real_output_for(io::NpyArray result, io::DType file_dtype);

}  // namespace bfly::cli
