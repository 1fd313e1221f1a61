// bfly fft / ifft: numpy.fft.fftn / ifftn of an .npy file over --axes (by
// default the last axis only, as numpy.fft.fft / ifft), with numpy's n and s.
#include "commands.hpp"
#include "numpy_verb.hpp"

namespace bfly::cli {
namespace {

constexpr const char* kInput =
    "input .npy of any numeric dtype, either byte order, C or Fortran order: complex64, float32 and float16 "
    "compute in single precision, the rest in double (bool and integers as float64, as NumPy 2)";
constexpr const char* kOutput =
    "output .npy: complex64 or complex128 by the input's precision; the input's shape, each transformed axis "
    "at its --n / --s length";
constexpr const char* kAxes =
    "axes to transform, A[,B,...], negatives counting from the end (default: the last axis), as numpy.fft.fftn's "
    "axes; an axis listed twice is transformed twice, as in NumPy 2";
constexpr const char* kN = "length of the one transformed axis (numpy's n): the input cropped or zero-padded to it";

const NumpyVerb kVerbs[] = {
    {"fft",
     "numpy.fft.fftn of an .npy file over --axes (default: the last axis, as numpy.fft.fft)",
     kInput,
     kOutput,
     kAxes,
     kN,
     Kind::C2C,
     Direction::Forward,
     false,
     {}},
    {"ifft",
     "numpy.fft.ifftn of an .npy file over --axes (default: the last axis, as numpy.fft.ifft)",
     kInput,
     kOutput,
     kAxes,
     kN,
     Kind::C2C,
     Direction::Inverse,
     false,
     {}},
};

}  // namespace

void add_transform_commands(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions) {
  for (const NumpyVerb& verb : kVerbs) add_numpy_verb(app, actions, verb);
}

}  // namespace bfly::cli
