#include "numpy_transform.hpp"

#include <algorithm>
#include <complex>
#include <cstring>
#include <new>
#include <optional>
#include <tuple>

#include "problem/text.hpp"
#include "transform_axes.hpp"

namespace bfly::cli {
namespace {

bool names(const Stage& stage, int axis) {
  return std::any_of(stage.axes.begin(), stage.axes.end(), [&](const AxisLength& a) { return a.axis == axis; });
}

// C2C stages of order[first, last), each as long as its axes stay distinct.
void add_complex_stages(const std::vector<AxisLength>& order, std::size_t first, std::size_t last,
                        std::vector<Stage>& out) {
  Stage stage{Kind::C2C, {}};
  for (std::size_t i = first; i < last; ++i) {
    if (names(stage, order[i].axis)) {
      out.push_back(stage);
      stage.axes.clear();
    }
    stage.axes.push_back(order[i]);
  }
  if (!stage.axes.empty()) out.push_back(stage);
}

std::int64_t elements(const std::vector<std::int64_t>& shape) {
  std::int64_t n = 1;
  for (std::int64_t s : shape) n *= s;
  return n;
}

// `data` of `shape` cropped or zero-padded to `target` (same rank) on every
// axis: numpy keeps the leading points of each axis.
template <class E>
std::vector<E> crop_or_pad(std::vector<E> data, const std::vector<std::int64_t>& shape,
                           const std::vector<std::int64_t>& target) {
  if (shape == target) return data;
  std::vector<E> out(static_cast<std::size_t>(elements(target)));
  const int rank = static_cast<int>(shape.size());
  std::vector<std::int64_t> box(rank);  // what both share, copied a row (the last axis) at a time
  for (int k = 0; k < rank; ++k) box[k] = std::min(shape[k], target[k]);
  if (elements(box) == 0) return out;
  std::vector<std::int64_t> index(rank, 0);  // the row's; index[rank - 1] stays 0
  for (;;) {
    std::int64_t from = 0, to = 0;
    for (int k = 0; k < rank; ++k) {
      from = from * shape[k] + index[k];
      to = to * target[k] + index[k];
    }
    std::copy_n(data.begin() + from, box[rank - 1], out.begin() + to);
    int k = rank - 2;
    for (; k >= 0; --k) {
      if (++index[k] < box[k]) break;
      index[k] = 0;
    }
    if (k < 0) return out;
  }
}

// The array between stages: complex, or real before an R2C stage and after a C2R one.
template <class T>
struct Array {
  std::vector<std::int64_t> shape;
  std::vector<std::complex<T>> complex;
  std::vector<T> real;
};

template <class T>
class Runner {
 public:
  Runner(const NumpyTransform& t, const DeviceOptions& device) : t_(t), device_options_(device) {}

  // One stage; arrays the device or the host cannot hold are refused
  // naming their bytes and the limit, before any is allocated.
  void run(Array<T>& a, const Stage& stage) {
    try {
      run_stage(a, stage);
    } catch (const std::bad_alloc&) {
      throw Error(ErrorCode::OutOfMemory, "out of host memory for a stage over shape " + text::shape(a.shape) + " (" +
                                              std::to_string(elements(a.shape)) + " elements of " +
                                              std::to_string(sizeof(std::complex<T>)) + " bytes, and its result)");
    }
  }

 private:
  void run_stage(Array<T>& a, const Stage& stage) {
    std::vector<std::int64_t> in_shape = a.shape, out_shape = a.shape;
    std::vector<int> axes;  // R2C and C2R: the real axis last, as Problem takes them
    for (const AxisLength& s : stage.axes) {
      in_shape[s.axis] = out_shape[s.axis] = s.n;
      axes.push_back(s.axis);
    }
    const AxisLength last = stage.axes.back();  // R2C and C2R: the real axis
    if (stage.kind == Kind::R2C) out_shape[last.axis] = last.n / 2 + 1;
    if (stage.kind == Kind::C2R) in_shape[last.axis] = last.n / 2 + 1;
    // (Element counts: resolve_lengths refused anything past 2^58.)
    // A zero-length batch axis: nothing to transform, the output is as empty.
    const bool empty = elements(in_shape) == 0;
    if (!empty) {
      const std::size_t limit = device().info().max_allocation_bytes;
      for (const auto& [what, shape, bytes] :
           {std::tuple{"input", in_shape, stage.kind == Kind::R2C ? sizeof(T) : sizeof(std::complex<T>)},
            std::tuple{"output", out_shape, stage.kind == Kind::C2R ? sizeof(T) : sizeof(std::complex<T>)}}) {
        const std::size_t total = static_cast<std::size_t>(elements(shape)) * bytes;
        if (limit > 0 && total > limit)
          throw Error(ErrorCode::OutOfMemory, std::string("the transform's ") + what + " of shape " + text::shape(shape) +
                                                  " needs " + std::to_string(total) + " bytes; the largest allocation on " +
                                                  device().info().spec + " is " + std::to_string(limit) + " bytes");
      }
    }
    if (stage.kind == Kind::C2C) {
      a.complex = crop_or_pad(std::move(a.complex), a.shape, in_shape);
      if (!empty) complex_steps(a.complex.data(), in_shape, axes, complex_direction());
    } else if (stage.kind == Kind::R2C) {
      const std::vector<T> input = crop_or_pad(std::move(a.real), a.shape, in_shape);
      a.real.clear();
      a.complex.assign(static_cast<std::size_t>(elements(out_shape)), {});
      if (!empty) r2c(input.data(), a.complex.data(), in_shape, out_shape, axes);
    } else {
      std::vector<std::complex<T>> input = crop_or_pad(std::move(a.complex), a.shape, in_shape);
      a.complex.clear();
      a.real.assign(static_cast<std::size_t>(elements(out_shape)), T(0));
      if (!empty) c2r(input.data(), a.real.data(), in_shape, out_shape, axes);
    }
    a.shape = out_shape;
  }

  // fftn's or ifftn's; rfftn's complex stages run forward, irfftn's backward.
  Direction complex_direction() const {
    if (t_.kind == Kind::C2C) return t_.direction;
    return t_.kind == Kind::C2R ? Direction::Inverse : Direction::Forward;
  }

  const Device& device() {
    if (!device_) device_ = device_options_.open();
    return *device_;
  }

  Problem with(Problem p, Kind kind, Direction direction, Placement placement) const {
    p.kind = kind;
    p.precision = sizeof(T) == sizeof(double) ? Precision::Double : Precision::Single;
    p.direction = direction;
    p.placement = placement;
    p.norm = t_.norm;
    return p;
  }

  // In place over distinct `axes` (any order) of `data` of `shape`.
  void complex_steps(std::complex<T>* data, const std::vector<std::int64_t>& shape, std::vector<int> axes,
                     Direction direction) {
    if (axes.empty()) return;
    std::sort(axes.begin(), axes.end());
    for (const Problem& p : steps(shape, axes))
      Plan(device(), with(p, Kind::C2C, direction, Placement::InPlace)).execute_host(data, data);
  }

  void r2c(const T* in, std::complex<T>* out, const std::vector<std::int64_t>& real_shape,
           const std::vector<std::int64_t>& out_shape, std::vector<int> axes) {
    if (one_problem(real_shape.size(), axes.size())) {
      Problem p;
      p.shape = real_shape;
      p.axes = axes;
      Plan(device(), with(p, Kind::R2C, Direction::Forward, Placement::OutOfPlace)).execute_host(in, out);
      return;
    }
    // Past one problem: the real axis alone, then the others as complex
    // transforms of the half spectrum (rfftn is fftn of rfft over the last axis).
    const int real_axis = axes.back();
    Plan(device(), with(view(real_shape, {real_axis}), Kind::R2C, Direction::Forward, Placement::OutOfPlace))
        .execute_host(in, out);
    axes.pop_back();
    complex_steps(out, out_shape, axes, Direction::Forward);
  }

  void c2r(std::complex<T>* in, T* out, const std::vector<std::int64_t>& in_shape,
           const std::vector<std::int64_t>& real_shape, std::vector<int> axes) {
    if (one_problem(real_shape.size(), axes.size())) {
      Problem p;
      p.shape = real_shape;
      p.axes = axes;
      Plan(device(), with(p, Kind::C2R, Direction::Inverse, Placement::OutOfPlace)).execute_host(in, out);
      return;
    }
    // numpy's order: the complex inverse over the other axes, then the real one.
    const int real_axis = axes.back();
    axes.pop_back();
    complex_steps(in, in_shape, axes, Direction::Inverse);
    Plan(device(), with(view(real_shape, {real_axis}), Kind::C2R, Direction::Inverse, Placement::OutOfPlace))
        .execute_host(in, out);
  }

  const NumpyTransform& t_;
  const DeviceOptions& device_options_;
  std::optional<Device> device_;
};

template <class T>
std::vector<unsigned char> bytes_of(const std::vector<T>& v) {
  std::vector<unsigned char> out(v.size() * sizeof(T));
  if (!v.empty()) std::memcpy(out.data(), v.data(), out.size());
  return out;
}

template <class T>
io::NpyArray run(const io::NpyArray& input, const NumpyTransform& t, const DeviceOptions& device) {
  Array<T> a;
  a.shape = input.shape;
  if (t.kind == Kind::R2C) {
    a.real.resize(static_cast<std::size_t>(input.elements()));
    if (!a.real.empty()) std::memcpy(a.real.data(), input.data.data(), a.real.size() * sizeof(T));
  } else {
    a.complex = as_complex<T>(input);
  }
  if (t.conjugate_input)
    for (std::complex<T>& z : a.complex) z = std::conj(z);
  Runner<T> runner(t, device);
  for (const Stage& stage : stages(t)) runner.run(a, stage);
  if (t.conjugate_output)
    for (std::complex<T>& z : a.complex) z = std::conj(z);
  const bool f64 = sizeof(T) == sizeof(double);
  io::NpyArray out;
  out.shape = a.shape;
  if (t.kind == Kind::C2R) {
    out.dtype = f64 ? io::DType::Float64 : io::DType::Float32;
    out.data = bytes_of(a.real);
  } else {
    out.dtype = f64 ? io::DType::Complex128 : io::DType::Complex64;
    out.data = bytes_of(a.complex);
  }
  return out;
}

}  // namespace

std::vector<Stage> stages(const NumpyTransform& t) {
  const std::size_t count = t.axes.size();
  // numpy's 1D transforms in the order it runs them: irfftn the complex
  // inverse over axes[:-1] first to last, then irfft over the last; fftn
  // and rfftn from the last axis back to the first.
  std::vector<AxisLength> order;
  if (t.kind == Kind::C2R) {
    for (std::size_t i = 0; i < count; ++i) order.push_back({t.axes[i], t.lengths[i]});
  } else {
    for (std::size_t i = count; i-- > 0;) order.push_back({t.axes[i], t.lengths[i]});
  }
  std::vector<Stage> out;
  if (t.kind == Kind::C2C) {
    add_complex_stages(order, 0, count, out);
  } else if (t.kind == Kind::R2C) {
    // The real transform takes the complex ones after it up to a repeat.
    Stage real{Kind::R2C, {order.front()}};
    std::size_t next = 1;
    for (; next < count && !names(real, order[next].axis); ++next) real.axes.insert(real.axes.begin(), order[next]);
    out.push_back(real);
    add_complex_stages(order, next, count, out);
  } else {
    // The real transform takes the complex ones before it back to a repeat.
    Stage real{Kind::C2R, {order.back()}};
    std::size_t first = count - 1;
    for (; first > 0 && !names(real, order[first - 1].axis); --first)
      real.axes.insert(real.axes.begin(), order[first - 1]);
    add_complex_stages(order, 0, first, out);
    out.push_back(real);
  }
  return out;
}

io::NpyArray run_numpy_transform(const io::NpyArray& input, const NumpyTransform& t, const DeviceOptions& device) {
  const bool complex = input.dtype == io::DType::Complex64 || input.dtype == io::DType::Complex128;
  if (t.kind == Kind::R2C && complex)
    throw Error(ErrorCode::InvalidArgument,
                std::string("a real-input transform of ") + io::to_string(input.dtype) + " data");
  if (is_double(input.dtype)) return run<double>(input, t, device);
  return run<float>(input, t, device);
}

}  // namespace bfly::cli
