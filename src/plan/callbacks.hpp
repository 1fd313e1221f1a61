// A Callback (include/bfly/bfly.hpp) read against one side of a problem:
// its ops checked and resolved to the EndOps the kernels carry
// (plan/end_ops.hpp), and the values its data buffer holds where bfly
// makes them (a window's table, a mask's values).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "bfly/bfly.hpp"
#include "plan/end_ops.hpp"

namespace bfly::plan {

struct ResolvedEnd {
  EndOps ops;
  // The data buffer's values, in the working precision, where bfly
  // uploads them (empty: none, or the caller's `data`).
  std::vector<double> table;
  std::shared_ptr<Buffer> data;  // the caller's
};

// Throws Error(InvalidArgument) with one line naming the bad op, value or
// layout. `input`: the load side (the problem's input), else the store side.
ResolvedEnd resolve_callback(const Callback& callback, const Problem& problem, bool input);

// The periodic window `name` ("hann", "hamming", "blackman", "kaiser") of
// n points, as scipy.signal.get_window(name, n) (beta: Kaiser's).
std::vector<double> window_values(const std::string& name, std::int64_t n, double beta = 0);

}  // namespace bfly::plan
