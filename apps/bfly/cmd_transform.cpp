// bfly fft / ifft: numpy.fft.fftn / ifftn of an .npy file over --axes (by
// default the last axis only, as numpy.fft.fft / ifft).
#include <complex>
#include <cstring>

#include "commands.hpp"
#include "io/npy.hpp"
#include "options.hpp"
#include "problem/text.hpp"

namespace bfly::cli {
namespace {

struct TransformOptions {
  std::string input, output, norm = "backward";
  std::string axes;  // "A[,B,...]"; empty: the last axis
  bool axes_given = false;
  DeviceOptions device;
};

// The input as complex<T>: complex data as it is, real data promoted.
template <class T>
std::vector<std::complex<T>> as_complex(const io::NpyArray& a) {
  std::vector<std::complex<T>> data(static_cast<std::size_t>(a.elements()));
  if (a.dtype == io::DType::Complex64 || a.dtype == io::DType::Complex128) {
    std::memcpy(data.data(), a.data.data(), data.size() * sizeof(data[0]));
  } else {
    const auto* real = reinterpret_cast<const T*>(a.data.data());
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = {real[i], T(0)};
  }
  return data;
}

// The axes of an array of `shape` that --axes names, ascending, negatives
// counted from the end as numpy does. A repeated or out-of-range axis is an
// error naming it as the user typed it.
std::vector<int> resolve_axes(const std::string& text, const std::vector<std::int64_t>& shape,
                              const std::string& path) {
  const int rank = static_cast<int>(shape.size());
  const std::string array = path + " (shape " + text::shape(shape) + ", rank " + std::to_string(rank) + ")";
  const std::vector<int> typed = parse_axes(text);
  if (typed.empty()) throw Error(ErrorCode::InvalidArgument, "--axes names no axis (expected A[,B,...])");
  std::vector<int> owner(rank, -1);  // which typed entry names each axis
  for (std::size_t i = 0; i < typed.size(); ++i) {
    const int a = typed[i];
    if (a < -rank || a >= rank)
      throw Error(ErrorCode::InvalidArgument, "axis " + std::to_string(a) + " is out of range for " + array +
                                                  ": expected " + std::to_string(-rank) + " to " +
                                                  std::to_string(rank - 1));
    const int k = a < 0 ? a + rank : a;
    if (owner[k] >= 0) {
      const int first = typed[owner[k]];
      throw Error(ErrorCode::InvalidArgument,
                  first == a ? "axis " + std::to_string(a) + " is repeated in --axes " + text
                             : "axis " + std::to_string(a) + " in --axes " + text + " repeats axis " +
                                   std::to_string(first) + " of " + array);
    }
    owner[k] = static_cast<int>(i);
  }
  std::vector<int> axes;
  for (int k = 0; k < rank; ++k)
    if (owner[k] >= 0) axes.push_back(k);
  return axes;
}

bool contains(const std::vector<int>& v, int x) {
  for (int y : v)
    if (y == x) return true;
  return false;
}

// The array of `shape` viewed for transforming the axes `group` (ascending):
// the axes before the first of them become batch, and each run of other axes
// after it one axis. The same elements in the same order, so the problem runs
// on the array's memory as it is.
Problem view(const std::vector<std::int64_t>& shape, const std::vector<int>& group) {
  Problem p;
  p.shape.clear();
  const int rank = static_cast<int>(shape.size());
  p.batch = 1;
  for (int k = 0; k < group.front(); ++k) p.batch *= shape[k];
  for (int k = group.front(); k < rank;) {
    if (contains(group, k)) {
      p.axes.push_back(static_cast<int>(p.shape.size()));
      p.shape.push_back(shape[k++]);
    } else {
      std::int64_t n = 1;
      while (k < rank && !contains(group, k)) n *= shape[k++];
      p.shape.push_back(n);
    }
  }
  return p;
}

// The problems, run one after another in place, that transform `axes` of an
// array of `shape`. One problem on the array's own shape where bfly takes it
// (rank <= 4, <= 3 axes); otherwise the axes are split into groups, from the
// last, each as large as a problem of rank <= 4 over <= 3 axes allows (the
// transform is separable, and so is every norm's factor).
std::vector<Problem> steps(const std::vector<std::int64_t>& shape, const std::vector<int>& axes) {
  constexpr std::size_t kMaxRank = 4, kMaxAxes = 3;
  if (shape.size() <= kMaxRank && axes.size() <= kMaxAxes) {
    Problem p;
    p.shape = shape;
    p.axes = axes;
    return {p};
  }
  std::vector<Problem> out;
  std::vector<int> group{axes.back()};
  for (std::size_t i = axes.size() - 1; i-- > 0;) {
    std::vector<int> wider{axes[i]};
    wider.insert(wider.end(), group.begin(), group.end());
    if (wider.size() <= kMaxAxes && view(shape, wider).shape.size() <= kMaxRank) {
      group = wider;
    } else {
      out.push_back(view(shape, group));
      group = {axes[i]};
    }
  }
  out.push_back(view(shape, group));
  return out;
}

int run(const TransformOptions& o, Direction direction) {
  if (o.norm != "backward" && o.norm != "ortho" && o.norm != "forward")
    throw Error(ErrorCode::InvalidArgument, "invalid norm '" + o.norm + "' (expected backward, ortho or forward, as numpy.fft)");
  const Norm norm = parse_norm(o.norm);
  const io::NpyArray input = io::read_npy(o.input);
  if (input.shape.empty())
    throw Error(ErrorCode::InvalidArgument, o.input + ": a 0-dimensional array has no axis to transform");
  const int rank = static_cast<int>(input.shape.size());
  const std::vector<int> axes =
      o.axes_given ? resolve_axes(o.axes, input.shape, o.input) : std::vector<int>{rank - 1};
  for (int k : axes)
    if (input.shape[k] == 0)
      throw Error(ErrorCode::InvalidArgument, o.input + ": invalid number of data points (0) on axis " +
                                                  std::to_string(k) + " (shape " + text::shape(input.shape) + ")");
  // The precision follows the input, as NumPy 2 does: complex64 and float32
  // in single, complex128 and float64 in double.
  const bool f64 = input.dtype == io::DType::Complex128 || input.dtype == io::DType::Float64;
  io::NpyArray result;
  result.dtype = f64 ? io::DType::Complex128 : io::DType::Complex64;
  result.shape = input.shape;
  auto transform = [&](auto data) {
    result.data.resize(data.size() * sizeof(data[0]));
    if (data.empty()) return;  // an empty array (a zero-length axis not transformed) stays empty, as in numpy
    const Device device = o.device.open();
    for (Problem problem : steps(input.shape, axes)) {
      problem.precision = f64 ? Precision::Double : Precision::Single;
      problem.direction = direction;
      problem.placement = Placement::InPlace;
      problem.norm = norm;
      const Plan plan(device, problem);
      plan.execute_host(data.data(), data.data());
    }
    std::memcpy(result.data.data(), data.data(), result.data.size());
  };
  if (f64) transform(as_complex<double>(input));
  else transform(as_complex<float>(input));
  io::write_npy(o.output, result);
  return 0;
}

void add(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions, const char* name, Direction direction,
         const char* help) {
  auto options = std::make_shared<TransformOptions>();
  CLI::App* command = app.add_subcommand(name, help);
  command->add_option("input", options->input,
                      "input .npy: complex64 or float32 (single precision), complex128 or float64 (double)")
      ->required();
  command->add_option("output", options->output, "output .npy (complex64 or complex128 as the input, same shape)")
      ->required();
  CLI::Option* axes = command->add_option(
      "--axes", options->axes,
      "axes to transform, A[,B,...], negatives counting from the end (default: the last axis), as numpy.fft.fftn's axes");
  command->add_option("--norm", options->norm, "backward (default), ortho or forward, as numpy.fft");
  options->device.add_to(*command);
  actions.emplace_back(command, [options, direction, axes] {
    options->axes_given = axes->count() > 0;
    return run(*options, direction);
  });
}

}  // namespace

void add_transform_commands(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions) {
  add(app, actions, "fft", Direction::Forward,
      "numpy.fft.fftn of an .npy file over --axes (default: the last axis, as numpy.fft.fft)");
  add(app, actions, "ifft", Direction::Inverse,
      "numpy.fft.ifftn of an .npy file over --axes (default: the last axis, as numpy.fft.ifft)");
}

}  // namespace bfly::cli
