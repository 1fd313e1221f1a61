// A numpy.fft verb of the CLI (fft, ifft, rfft, irfft, hfft, ihfft) as data:
// what it computes and its help texts. add_numpy_verb gives it the shared
// options (--axes, --n, --s, --norm, --device) and the one way to run:
// read and promote the input (fft_input.hpp), resolve axes and lengths as
// numpy does (transform_axes.hpp), transform (numpy_transform.hpp), write.
#pragma once

#include "commands.hpp"
#include "transform_axes.hpp"

namespace bfly::cli {

struct NumpyVerb {
  const char* name;
  const char* help;
  const char* input_help;
  const char* output_help;
  const char* axes_help;
  const char* n_help;
  Kind kind;            // R2C: rfftn, ihfft; C2R: irfftn, hfft
  Direction direction;  // C2C: fftn or ifftn
  // hfft = irfft(conj(a)), ihfft = conj(rfft(a)), each with numpy's norm
  // swapped (backward <-> forward, ortho kept).
  bool hermitian;
  LengthRules lengths;  // one_axis: no --s, one axis
};

void add_numpy_verb(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions, const NumpyVerb& verb);

}  // namespace bfly::cli
