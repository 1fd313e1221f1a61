// bfly rfft / irfft: numpy.fft.rfftn / irfftn of an .npy file over --axes
// (by default the last axis only, as numpy.fft.rfft / irfft), and bfly hfft /
// ihfft: numpy.fft.hfft / ihfft along one axis. The last of --axes AS TYPED
// is the halved one (n -> n // 2 + 1 points), as in numpy, so the axes keep
// the user's order.
#include "commands.hpp"
#include "numpy_verb.hpp"

namespace bfly::cli {
namespace {

constexpr const char* kRealInput =
    "input .npy, real: bool, integers or float16 to float64 (not complex), either byte order, C or Fortran "
    "order; float32 and float16 compute in single precision, the rest in double";
constexpr const char* kSpectrumOutput =
    "output .npy: complex64 or complex128 by the input's precision; the input's shape with the last transformed "
    "axis n -> n // 2 + 1";
constexpr const char* kSpectrumInput =
    "input .npy of any numeric dtype (real input is promoted to complex), either byte order, C or Fortran order; "
    "complex64, float32 and float16 compute in single precision, the rest in double; the imaginary parts of the "
    "points at 0 and (for an even n) n/2 on the last axis are ignored, as in numpy";
constexpr const char* kRealOutput =
    "output .npy: float32 or float64 by the input's precision (float16 for float16 input, as NumPy 2); the "
    "input's shape with the last transformed axis m -> n";
constexpr const char* kOneAxis =
    "the axis to transform (numpy's axis; one, negatives counting from the end; default: the last)";

const NumpyVerb kVerbs[] = {
    {"rfft",
     "numpy.fft.rfftn of a real .npy file over --axes (default: the last axis, as numpy.fft.rfft)",
     kRealInput,
     kSpectrumOutput,
     "axes to transform, A[,B,...], negatives counting from the end (default: the last axis); the LAST one as "
     "typed is halved, as numpy.fft.rfftn's axes; an axis listed twice is transformed twice, as in NumPy 2",
     "length of the one transformed axis (numpy's n): the input cropped or zero-padded to n, n // 2 + 1 points out",
     Kind::R2C,
     Direction::Forward,
     false,
     {}},
    {"irfft",
     "numpy.fft.irfftn of an .npy half spectrum over --axes (default: the last axis, as numpy.fft.irfft)",
     kSpectrumInput,
     kRealOutput,
     "axes to transform, A[,B,...], negatives counting from the end (default: the last axis); the LAST one as "
     "typed is the real one, as numpy.fft.irfftn's axes; an axis listed twice is transformed twice, as in NumPy 2",
     "output length on the last transformed axis (numpy's n, or s[-1] of irfftn): the input there cropped or "
     "zero-padded to n // 2 + 1 points; default 2*(m-1) for m points",
     Kind::C2R,
     Direction::Inverse,
     false,
     {false, true, true}},
    {"hfft",
     "numpy.fft.hfft: the real spectrum of a Hermitian-symmetric signal given by its first half, along one axis "
     "(irfft of the conjugate, numpy's norm swapped)",
     kSpectrumInput,
     kRealOutput,
     kOneAxis,
     "output length (numpy's n): the input cropped or zero-padded to n // 2 + 1 points; default 2*(m-1) for m points",
     Kind::C2R,
     Direction::Inverse,
     true,
     {true, true, false}},
    {"ihfft",
     "numpy.fft.ihfft: the half spectrum of the inverse transform of a real signal, along one axis (the conjugate "
     "of rfft, numpy's norm swapped)",
     kRealInput,
     kSpectrumOutput,
     kOneAxis,
     "length of the axis (numpy's n): the input cropped or zero-padded to n, n // 2 + 1 points out",
     Kind::R2C,
     Direction::Forward,
     true,
     {true, false, false}},
};

}  // namespace

void add_real_transform_commands(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions) {
  for (const NumpyVerb& verb : kVerbs) add_numpy_verb(app, actions, verb);
}

}  // namespace bfly::cli
