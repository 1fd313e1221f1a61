// numpy.fft's n-dimensional transforms on a host array, computed as numpy
// defines them (numpy/fft/_pocketfft.py in NumPy 2: _raw_fftnd, rfftn,
// irfftn): one 1D transform per listed axis, in numpy's order, each first
// cropping or zero-padding its axis to its n. Consecutive transforms over
// distinct axes run as one stage (the problems of bfly::array_steps,
// bfly/array.hpp: the crops and pads commute with transforms over other axes, and
// every norm's factor splits per axis); an axis listed again starts the next
// stage, since a problem cannot hold an axis twice.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bfly/array.hpp"
#include "bfly/bfly.hpp"
#include "io/memory_budget.hpp"
#include "io/npy.hpp"

namespace bfly::cli {

struct NumpyTransform {
  Kind kind = Kind::C2C;                     // R2C: numpy's rfftn; C2R: irfftn
  Direction direction = Direction::Forward;  // C2C: fftn or ifftn
  std::vector<int> axes;                     // as typed, repeats allowed; R2C and C2R halve the last
  std::vector<std::int64_t> lengths;         // numpy's s, one per axis
  Norm norm = Norm::Backward;
  bool conjugate_input = false;   // hfft: irfft of conj(a)
  bool conjugate_output = false;  // ihfft: conj(rfft(a))
  // The plans' tier: a one-shot process answers a new size with the
  // generic tier's kernels rather than wait to compile (or wait at exit for
  // a tiered plan's background compile).
  Tier tier = Tier::AtHand;
  // Half storage (`--precision half|bfloat16`; single-precision input):
  // each plan reads and writes 16-bit values, the stage's data rounded to
  // them going in and widened coming out.
  Storage storage = Storage::Native;
  // --window (hann, hamming, blackman, kaiser:BETA; forward verbs): the load
  // op of every plan of the one stage, each windowing along the axes it
  // transforms (a product over them: a window along one axis commutes
  // with the transforms along the others). The window of the axis's
  // length after the crop or pad, as bfly.fft's window=.
  std::string window;
};

struct AxisLength {
  int axis;
  std::int64_t n;  // numpy's n on the axis
};

// One stage: transforms over distinct axes, run as bfly problems after the
// input is cropped or padded to their lengths (a C2R stage's real axis to
// n // 2 + 1).
struct Stage {
  Kind kind;                     // R2C is only ever first, C2R last
  std::vector<AxisLength> axes;  // R2C and C2R: the real axis last
};

// The stages of `t`, in the order they run.
std::vector<Stage> stages(const NumpyTransform& t);

// A stage's arrays: its input (cropped or padded; a C2R stage's real axis
// at n // 2 + 1) and its output, from the array's `shape` before it.
struct StageShapes {
  std::vector<std::int64_t> in, out;
};
StageShapes shapes_of(const std::vector<std::int64_t>& shape, const Stage& stage);

// The steps one stage runs, in order (bfly::array_steps over the stage's
// C-contiguous arrays): a C2C stage's in place; an R2C stage's from its
// real input to its output; a C2R stage's from its input, which serves as
// their temporary where they need one (the runner owns that copy).
ArraySteps stage_steps(const NumpyTransform& t, const Stage& stage, const StageShapes& s, Precision precision);

// Whether `t` transforms anything of an array of `shape` (not where a
// batch axis has no points): where it does not, no device is opened.
bool transforms_anything(const std::vector<std::int64_t>& shape, const NumpyTransform& t);

// What reading `file` (its header) and running `t` on it hold, moment by
// moment, for the verb's one memory check: the data as read and promoted
// (fft_input.hpp), each stage's arrays and its plans' buffers and workspace
// on `device` (null where nothing is transformed), the result as written.
// `what` ("fft of a.npy") is completed with the shapes.
io::MemoryNeeds transform_needs(const io::NpyHeader& file, const NumpyTransform& t, const Device* device,
                                const std::string& what);

// Runs `t` on `input` (complex64, complex128, float32 or float64; real input
// to a C2C or C2R transform is promoted, R2C takes real input only) in its
// precision: complex output of the input's precision, real for C2R. Takes
// the input's data over (a complex input's as the first stage's array) and
// hands the last stage's array over as the result's. `device`: null only
// where transforms_anything is false.
io::NpyArray run_numpy_transform(io::NpyArray input, const NumpyTransform& t, const Device* device);

}  // namespace bfly::cli
