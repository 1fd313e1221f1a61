// The input types of the transform verbs and their promotion, NumPy 2's
// rules for numpy.fft: bool and every integer type compute in double
// (float64, complex128 out), float16 in single (complex64 out; a real output
// is float16 again, as numpy.fft.irfft and hfft give), float32 / complex64 in
// single and float64 / complex128 in double.
#pragma once

#include <string>
#include <vector>

#include "io/npy.hpp"

namespace bfly::cli {

struct FftInput {
  io::NpyArray array;     // complex64, complex128, float32 or float64: the promoted input
  io::DType file_dtype;   // what the file held
};

// The dtypes the transform verbs read: numpy's numeric types (not float128).
const std::vector<io::DType>& fft_input_dtypes();

// What data of `file_dtype` computes as: complex64, complex128, float32 or float64.
io::DType promoted_dtype(io::DType file_dtype);

// `file` as read_npy(path, fft_input_dtypes()) returns it, promoted: its
// data taken over where it needs no conversion, else freed once converted.
FftInput promote(io::NpyArray file);

bool is_complex(io::DType dtype);

// A real float32 result as numpy returns it for `file_dtype`: float16 when the
// input was float16 (rounded to nearest, ties to even), else unchanged.
io::NpyArray real_output_for(io::NpyArray result, io::DType file_dtype);

}  // namespace bfly::cli
