// Transforms over any axes of an array of any rank with any strides: what
// numpy.fft's fftn, rfftn and irfftn do to an ndarray view.
//
// A Problem covers at most 3 transformed axes of an array of rank at most 4,
// plus a batch with a distance. array_steps() maps any array transform onto
// Problems, each launched at one or more byte offsets into the caller's
// arrays (or a temporary the caller provides):
//
//   bfly::ArrayTransform t;
//   t.shape = {2, 3, 4, 5, 6};  t.axes = {0, 2, 4};
//   for (const bfly::ArrayStep& s : bfly::array_steps(t).steps) {
//     bfly::Plan plan(device, s.problem);
//     for (auto [in, out] : s.offsets) plan.execute_host(input + in, output + out);  // byte offsets
//   }
//
// The rules, in order: the transformed axes go in groups of at most 3 from
// the last (a transform is separable, and so is every norm's factor); the
// axes outside a group are batch, neighbours whose strides chain on both
// sides merged into one, unit ones dropped; the outermost becomes the
// Problem's batch, the next ones stay axes of its shape while rank 4 allows,
// and the rest are looped over as offsets. The bfly CLI and the Python
// package both plan through this function.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "bfly/bfly.hpp"

namespace bfly {

struct ArrayTransform {
  Kind kind = Kind::C2C;
  Precision precision = Precision::Single;
  // C2C either; R2C is forward and C2R inverse, as in a Problem.
  Direction direction = Direction::Forward;
  Norm norm = Norm::None;
  // The array's shape (the real side's for R2C and C2R, as Problem::shape):
  // rank 1 or more, every length positive.
  std::vector<std::int64_t> shape;
  // The axes to transform, distinct; negatives count from the end; empty:
  // all. R2C and C2R: the last one given is the real axis (numpy's rfftn).
  std::vector<int> axes;
  // Element strides of each side, in elements of that side (reals on a real
  // side, complex points on a complex one): positive, except that a unit
  // axis takes any. Empty: C-contiguous.
  std::vector<std::int64_t> input_strides, output_strides;
  // In place: the output is the input's memory (complex to complex; or the
  // first group of R2C in FFTW's padded layout, as a Problem takes it).
  Placement placement = Placement::OutOfPlace;

  // The two sides' shapes: the complex side's real axis n/2 + 1.
  std::vector<std::int64_t> input_shape() const;
  std::vector<std::int64_t> output_shape() const;
  // The axes resolved (negatives counted from the end), in the order given.
  std::vector<int> resolved_axes() const;
  // Throws Error(InvalidArgument) naming the bad field.
  void validate() const;
};

// The memory a step reads or writes.
enum class ArrayOperand { Input, Output, Temporary };
const char* to_string(ArrayOperand o);

struct ArrayStep {
  Problem problem;
  ArrayOperand source = ArrayOperand::Input, target = ArrayOperand::Output;
  // One launch per pair: the problem's input at source + first and its
  // output at target + second, in bytes.
  std::vector<std::pair<std::int64_t, std::int64_t>> offsets{{0, 0}};
};

struct ArraySteps {
  std::vector<ArrayStep> steps;  // run in order
  // C2R past one group: the complex axes run first, from the input into a
  // C-contiguous complex temporary of this shape (the input's), so that the
  // input is left as it was; the real axis then from there. Empty: none.
  std::vector<std::int64_t> temporary_shape;
  // Whether the transform is one launch of one Problem on the arrays as
  // they are.
  bool single_launch() const;
};

// Throws Error(InvalidArgument) naming the bad value (validate()).
ArraySteps array_steps(const ArrayTransform& t);

}  // namespace bfly
