// The input types of the commands that compute through FFTs (the transform
// verbs, convolve, filter) and their promotion, NumPy 2's rules for
// numpy.fft and scipy.fft: bool and every integer type compute in double
// (float64, complex128 out), float16 in single (complex64 out; a real output
// of the transform verbs is float16 again, as numpy.fft.irfft and hfft give),
// float32 / complex64 in single and float64 / complex128 in double. The
// same table gives exact integer work (polymul) its int64 values.
#pragma once

#include <string>
#include <vector>

#include "io/npy.hpp"

namespace bfly::cli {

struct FftInput {
  io::NpyArray array;    // complex64, complex128, float32 or float64: the promoted input
  io::DType file_dtype;  // what the file held
};

// The dtypes the transform verbs read: numpy's numeric types (not float128).
const std::vector<io::DType>& fft_input_dtypes();

// What data of `file_dtype` computes as: complex64, complex128, float32 or float64.
io::DType promoted_dtype(io::DType file_dtype);

// `file` as read_npy(path, fft_input_dtypes()) returns it, promoted: its
// data taken over where it needs no conversion, else freed once converted.
FftInput promote(io::NpyArray file);
// promote(read_npy(path, fft_input_dtypes())): for commands that read the
// whole file at once (convolve).
FftInput read_fft_input(const std::string& path);

// For exact integer work (polymul): `path` with bool (as 0 and 1) or any
// integer type, each value as int64, exactly; a uint64 above 2^63 - 1 is an
// error naming it and its index, and every other type an error naming it.
io::NpyArray read_exact_integers(const std::string& path);

bool is_complex(io::DType dtype);

// The type two promoted inputs compute in together, numpy.result_type of
// them: complex if either is, double precision if either is.
io::DType common_type(io::DType a, io::DType b);

// The elements of a promoted array (float32, float64, complex64 or
// complex128) as T: float, double, std::complex<float> or
// std::complex<double>, each converted as numpy's astype converts it.
// Complex data for a real T is refused (Error(InvalidArgument) naming the
// dtype): the caller decides where complex input is an error.
template <class T>
std::vector<T> elements_as(const io::NpyArray& array);

// A real float32 result as numpy returns it for `file_dtype`: float16 when the
// input was float16 (rounded to nearest, ties to even), else unchanged.
io::NpyArray real_output_for(io::NpyArray result, io::DType file_dtype);

}  // namespace bfly::cli
