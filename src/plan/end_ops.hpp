// A side's callback chain as the kernels see it (issue 42): what a pass's
// first loads or last stores do to each element besides reading or writing
// it (pieces/callback.cpp writes the code), resolved from a Callback
// (include/bfly/bfly.hpp) against one side of a problem by
// plan/callbacks.hpp, or made by the convolution (the pointwise product:
// runtime/fused_plan.hpp). A value type in KernelSpec: its text is part of
// the kernel's name.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace bfly::plan {

enum class EndOp {
  Scale,  // times `value`
  // Times the product of the windowed dims' table entries (data[base +
  // index]; `value` 1), or (`value` 2, 3, 4: Hann, Hamming, Blackman) of the windows
  // computed in the kernel: their tables past 64 KiB cost a pass that reads
  // them at a stride as much again as its input.
  Window,
  Mask,       // times data[o] (reals)
  Pad,        // zero where an axis's index reaches its Dim::pad (a select: the values there are not used)
  Multiply,   // times the complex data[o % period] (period 0: the whole extent)
  Code,       // the user's function body
  Magnitude,  // |v|: a real (the last op)
  Power,      // |v|^2
  Decibel,    // 10 log10 |v|^2
};

struct EndStep {
  EndOp op = EndOp::Scale;
  double value = 1;
  std::int64_t period = 0;
  bool operator==(const EndStep& o) const { return op == o.op && value == o.value && period == o.period; }
};

struct EndOps {
  std::vector<EndStep> steps;
  // The side's layout, outermost (largest stride) first, as a window finds
  // an element's index along each axis from its offset: index = rest /
  // stride, rest -= index * stride. base: the axis's window in the data
  // (-1: not windowed); pad: the points kept along the axis by EndOp::Pad
  // (0: all).
  struct Dim {
    std::int64_t stride = 1, extent = 1, base = -1, pad = 0;
    bool operator==(const Dim& o) const {
      return stride == o.stride && extent == o.extent && base == o.base && pad == o.pad;
    }
  };
  std::vector<Dim> dims;
  std::string code;            // EndOp::Code's body
  bool complex_values = true;  // the side holds complex points (else reals)
  // The side's offsets may pass 2^32 (else the ops index in 32 bits: the
  // 64-bit division a window's index takes costs a pass that is short of
  // instructions several percent).
  bool wide = true;

  bool empty() const { return steps.empty(); }
  // Whether the chain ends in a real of a complex value (the output then holds reals).
  bool real_result() const;
  // Canonical: "scale(0.5),window(1024:1@0),code#1a2b3c4d" (the code's hash).
  std::string text() const;
  // A hash of text() for kernel names (48 bits: the code is in the name only
  // through it, and a device keeps the kernels it made by name).
  std::string hash() const;
  bool operator==(const EndOps& o) const {
    return steps == o.steps && dims == o.dims && code == o.code && complex_values == o.complex_values && wide == o.wide;
  }
  bool operator!=(const EndOps& o) const { return !(*this == o); }
};

// The convolution's pointwise product (runtime/fused_plan.hpp): times the
// complex data[o % period], on a side of `extent` elements.
inline EndOps multiply_ops(std::int64_t period, std::int64_t extent) {
  EndOps ops;
  ops.steps.push_back({EndOp::Multiply, 1, period});
  ops.wide = extent > 0xffffffffll;
  return ops;
}

}  // namespace bfly::plan
