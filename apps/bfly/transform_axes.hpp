// What the transform verbs (fft, ifft, rfft, irfft, hfft, ihfft) share:
// reading --axes, --n and --s as numpy.fft does. (The library maps a
// transform of any rank and any axes onto problems: bfly/array.hpp.)
#pragma once

#include <complex>
#include <cstdint>
#include <string>
#include <vector>

#include "bfly/bfly.hpp"
#include "fft_input.hpp"
#include "io/npy.hpp"

namespace bfly::cli {

// The axes of an array of `shape` that --axes names, negatives counted from
// the end as numpy does, in the order typed (numpy.fft.rfftn halves the LAST
// of them, so the order matters there), repeats kept (NumPy 2's fftn
// transforms a repeated axis again). An out-of-range axis, or an empty list,
// is an error naming it as the user typed it; `path` names the array in the
// message.
std::vector<int> resolve_axes_in_order(const std::string& text, const std::vector<std::int64_t>& shape,
                                       const std::string& path);

// --axes, --n and --s as typed.
struct LengthOptions {
  std::string axes, s;  // "A[,B,...]", "N[,M,...]"
  std::int64_t n = 0;
  bool axes_given = false, n_given = false, s_given = false;
};

// What numpy.fft's s and axes come to (_cook_nd_args in numpy/fft/_pocketfft.py):
// the transformed axes in the order typed, repeats kept, and the number of
// data points n on each (the input is cropped or zero-padded to n there;
// for irfft's and hfft's last axis, to n // 2 + 1, and n reals come out).
struct AxesAndLengths {
  std::vector<int> axes;
  std::vector<std::int64_t> lengths;
};

// How a verb reads the lengths: `one_axis`: hfft / ihfft (numpy's axis, no
// s); `half_spectrum_input`: irfft / hfft, whose default n on the last axis
// is 2*(m-1) for m points; `n_is_last_length`: irfft, whose --n is s[-1]
// with several axes (the others keep their lengths), where the others' --n
// takes exactly one axis.
struct LengthRules {
  bool one_axis = false;
  bool half_spectrum_input = false;
  bool n_is_last_length = false;
};

// The axes and lengths of a transform of an array of `shape` (rank >= 1):
// --axes as typed, else the last len(s) axes with --s, else the last axis;
// --s one length per axis, --n the one axis's. A bad combination, a length
// below 1 (a default one from an axis of 0 points too) is an error naming the
// value; `path` names the array in the message.
AxesAndLengths resolve_lengths(const LengthOptions& o, const LengthRules& rules, const std::vector<std::int64_t>& shape,
                               const std::string& path);

// The input (a promoted array: read_fft_input's) as complex<T>.
template <class T>
std::vector<std::complex<T>> as_complex(const io::NpyArray& a) {
  return elements_as<std::complex<T>>(a);
}

// The precision follows the input, as NumPy 2 does: complex64 and float32
// in single, complex128 and float64 in double.
inline bool is_double(io::DType dtype) { return dtype == io::DType::Complex128 || dtype == io::DType::Float64; }

// --norm as numpy.fft takes it (none is the C++ API's alone); throws naming the text.
Norm parse_numpy_norm(const std::string& text);

}  // namespace bfly::cli
