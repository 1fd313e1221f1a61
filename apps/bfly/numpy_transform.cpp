#include "numpy_transform.hpp"

#include <algorithm>
#include <complex>
#include <cstdio>
#include <cstring>
#include <new>

#include "fft_input.hpp"
#include "memory_needs.hpp"
#include "problem/text.hpp"
#include "bfly/array.hpp"
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

// The bytes of `data`, elements E of `shape`, cropped or zero-padded to
// `target` (same rank) on every axis: numpy keeps the leading points of
// each axis. Taken and returned as they are when the shapes agree.
template <class E>
std::vector<unsigned char> crop_or_pad(std::vector<unsigned char> data, const std::vector<std::int64_t>& shape,
                                       const std::vector<std::int64_t>& target) {
  if (shape == target) return data;
  std::vector<unsigned char> out(static_cast<std::size_t>(elements(target)) * sizeof(E));
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
    std::memcpy(out.data() + to * sizeof(E), data.data() + from * sizeof(E), box[rank - 1] * sizeof(E));
    int k = rank - 2;
    for (; k >= 0; --k) {
      if (++index[k] < box[k]) break;
      index[k] = 0;
    }
    if (k < 0) return out;
  }
}

}  // namespace

StageShapes shapes_of(const std::vector<std::int64_t>& shape, const Stage& stage) {
  StageShapes s{shape, shape};
  for (const AxisLength& a : stage.axes) s.in[a.axis] = s.out[a.axis] = a.n;
  const AxisLength last = stage.axes.back();  // R2C and C2R: the real axis
  if (stage.kind == Kind::R2C) s.out[last.axis] = last.n / 2 + 1;
  if (stage.kind == Kind::C2R) s.in[last.axis] = last.n / 2 + 1;
  return s;
}

ArraySteps stage_steps(const NumpyTransform& t, const Stage& stage, const StageShapes& s, Precision precision) {
  ArrayTransform a;
  a.kind = stage.kind;
  a.precision = precision;
  a.norm = t.norm;
  // fftn's or ifftn's direction; rfftn's complex stages run forward, irfftn's backward.
  const Direction complex_direction = t.kind == Kind::C2C   ? t.direction
                                      : t.kind == Kind::C2R ? Direction::Inverse
                                                            : Direction::Forward;
  a.direction = stage.kind == Kind::C2C   ? complex_direction
                : stage.kind == Kind::R2C ? Direction::Forward
                                          : Direction::Inverse;
  a.shape = stage.kind == Kind::C2R ? s.out : s.in;
  for (const AxisLength& x : stage.axes) a.axes.push_back(x.axis);  // R2C and C2R: the real axis last
  if (stage.kind == Kind::C2C) std::sort(a.axes.begin(), a.axes.end());
  a.placement = stage.kind == Kind::C2C ? Placement::InPlace : Placement::OutOfPlace;
  ArraySteps steps = array_steps(a);
  for (ArrayStep& step : steps.steps) step.problem.storage = t.storage;
  return steps;
}

namespace {

// The array between stages, as the bytes of its elements: complex<T>, or T
// before an R2C stage and after a C2R one. Bytes, so the input's are taken
// over and the result's handed to the .npy writer without a copy.
struct Array {
  std::vector<std::int64_t> shape;
  std::vector<unsigned char> bytes;
  template <class E>
  E* as() {
    return reinterpret_cast<E*>(bytes.data());
  }
};

template <class T>
class Runner {
 public:
  Runner(const NumpyTransform& t, const Device* device) : t_(t), device_(device) {}

  // One stage (check_memory sized them all before anything was allocated).
  void run(Array& a, const Stage& stage) {
    try {
      run_stage(a, stage);
    } catch (const std::bad_alloc&) {
      throw Error(ErrorCode::OutOfMemory, "out of host memory for a stage over shape " + text::shape(a.shape) + " (" +
                                              std::to_string(elements(a.shape)) + " elements of " +
                                              std::to_string(sizeof(std::complex<T>)) + " bytes, and its result)");
    }
  }

 private:
  using C = std::complex<T>;

  void run_stage(Array& a, const Stage& stage) {
    const StageShapes s = shapes_of(a.shape, stage);
    // A zero-length batch axis: nothing to transform, the output is as empty.
    const bool empty = elements(s.in) == 0;
    const ArraySteps steps =
        empty ? ArraySteps{}
              : stage_steps(t_, stage, s, sizeof(T) == sizeof(double) ? Precision::Double : Precision::Single);
    if (stage.kind == Kind::C2C) {
      a.bytes = crop_or_pad<C>(std::move(a.bytes), a.shape, s.in);
      run_steps(steps, a.bytes.data(), a.bytes.data());
    } else {
      const bool r2c = stage.kind == Kind::R2C;
      Array input{s.in, r2c ? crop_or_pad<T>(std::move(a.bytes), a.shape, s.in)
                            : crop_or_pad<C>(std::move(a.bytes), a.shape, s.in)};
      a.bytes.assign(static_cast<std::size_t>(elements(s.out)) * (r2c ? sizeof(C) : sizeof(T)), 0);
      run_steps(steps, input.bytes.data(), a.bytes.data());
    }
    a.shape = s.out;
  }

  // The steps on host memory: a C2R stage's temporary is its input (the
  // complex input's shape, C-contiguous, and the runner's own copy).
  void run_steps(const ArraySteps& steps, unsigned char* input, unsigned char* output) {
    for (const ArrayStep& step : steps.steps) {
      // A size new to the device compiles first: say so on stderr where
      // that takes more than a second (issue 40), the output unaffected.
      PlanOptions options;
      options.tier = t_.tier;
      options.load.ops = t_.window;
      options.on_wait = [](const std::string& message) { std::fprintf(stderr, "bfly: %s\n", message.c_str()); };
      const Plan plan(*device_, step.problem, options);
      auto at = [&](ArrayOperand o) { return o == ArrayOperand::Output ? output : input; };
      for (const auto& [from, to] : step.offsets) launch(plan, at(step.source) + from, at(step.target) + to);
    }
  }

  static void launch(const Plan& plan, unsigned char* in, unsigned char* out) {
    if (plan.problem().storage != Storage::Native) return launch_half(plan, in, out);
    switch (plan.problem().kind) {
      case Kind::C2C:
        plan.execute_host(reinterpret_cast<const C*>(in), reinterpret_cast<C*>(out));
        break;
      case Kind::R2C:
        plan.execute_host(reinterpret_cast<const T*>(in), reinterpret_cast<C*>(out));
        break;
      case Kind::C2R:
      case Kind::R2R:  // (the DCT's verbs run their own plans: cmd_r2r.cpp)
        plan.execute_host(reinterpret_cast<const C*>(in), reinterpret_cast<T*>(out));
        break;
    }
  }

  // Half storage: the step's sides as 16-bit values (the output's too, so
  // the elements its layout skips come back as they were), then widened.
  static void launch_half(const Plan& plan, unsigned char* in, unsigned char* out) {
    const Problem& p = plan.problem();
    const Storage storage = p.storage;
    auto scalars = [&](std::int64_t extent, bool real) { return static_cast<std::size_t>(extent) * (real ? 1 : 2); };
    const std::size_t n_in = scalars(p.input_extent(), p.kind == Kind::R2C);
    const std::size_t n_out = scalars(p.output_extent(), p.kind == Kind::C2R);
    const auto* x = reinterpret_cast<const T*>(in);
    auto* y = reinterpret_cast<T*>(out);
    std::vector<std::uint16_t> a(n_in), b(n_out);
    for (std::size_t i = 0; i < n_in; ++i) a[i] = to_storage(static_cast<float>(x[i]), storage);
    for (std::size_t i = 0; i < n_out; ++i) b[i] = to_storage(static_cast<float>(y[i]), storage);
    plan.execute_host(a.data(), b.data());
    for (std::size_t i = 0; i < n_out; ++i) y[i] = from_storage(b[i], storage);
  }

  const NumpyTransform& t_;
  const Device* device_;
};

template <class T>
void conjugate(Array& a) {
  auto* z = a.as<std::complex<T>>();
  for (std::size_t i = 0; i < a.bytes.size() / sizeof(std::complex<T>); ++i) z[i] = std::conj(z[i]);
}

template <class T>
io::NpyArray run(io::NpyArray input, const NumpyTransform& t, const Device* device) {
  Array a{input.shape, {}};
  if (t.kind == Kind::R2C || is_complex(input.dtype)) {
    a.bytes = std::move(input.data);
  } else {  // real input to a complex transform
    const auto count = static_cast<std::size_t>(input.elements());
    a.bytes.resize(count * sizeof(std::complex<T>));
    const T* real = reinterpret_cast<const T*>(input.data.data());
    std::complex<T>* z = a.as<std::complex<T>>();
    for (std::size_t i = 0; i < count; ++i) z[i] = {real[i], T(0)};
    std::vector<unsigned char>().swap(input.data);
  }
  if (t.conjugate_input) conjugate<T>(a);
  Runner<T> runner(t, device);
  for (const Stage& stage : stages(t)) runner.run(a, stage);
  if (t.conjugate_output) conjugate<T>(a);
  const bool f64 = sizeof(T) == sizeof(double);
  io::NpyArray out;
  out.shape = a.shape;
  if (t.kind == Kind::C2R)
    out.dtype = f64 ? io::DType::Float64 : io::DType::Float32;
  else
    out.dtype = f64 ? io::DType::Complex128 : io::DType::Complex64;
  out.data = std::move(a.bytes);
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

bool transforms_anything(const std::vector<std::int64_t>& shape, const NumpyTransform& t) {
  std::vector<std::int64_t> now = shape;
  for (const Stage& stage : stages(t)) {
    const StageShapes s = shapes_of(now, stage);
    if (elements(s.in) > 0) return true;
    now = s.out;
  }
  return false;
}

io::MemoryNeeds transform_needs(const io::NpyHeader& file, const NumpyTransform& t, const Device* device,
                                const std::string& what) {
  using io::saturating_product;
  auto sum = [](std::uint64_t a, std::uint64_t b) { return io::saturating_sum(a, b); };
  auto bytes = [](const std::vector<std::int64_t>& shape, std::uint64_t each) {
    return io::saturating_product(static_cast<std::uint64_t>(elements(shape)), each);
  };
  const io::DType promoted = promoted_dtype(file.dtype);
  const std::uint64_t real = is_double(promoted) ? 8 : 4, complex = 2 * real;
  io::MemoryNeeds needs;
  // read_npy: the data, and its C-order copy of a Fortran-order file; then
  // the promoted copy (fft_input.cpp), and a real input's complex one.
  std::uint64_t held = bytes(file.shape, io::dtype_bytes(file.dtype));
  needs.at(file.fortran_order && file.shape.size() > 1 ? sum(held, held) : held);
  for (const std::uint64_t next : {promoted != file.dtype ? bytes(file.shape, io::dtype_bytes(promoted)) : 0,
                                   t.kind != Kind::R2C && !is_complex(promoted) ? bytes(file.shape, complex) : 0}) {
    if (next == 0) continue;
    needs.at(sum(held, next));
    held = next;
  }
  // Each stage: its input cropped or padded beside the array before it,
  // then its input and output (one array in place) while its plans run, one
  // after another, with their buffers and workspace.
  std::vector<std::int64_t> now = file.shape;
  for (const Stage& stage : stages(t)) {
    const StageShapes s = shapes_of(now, stage);
    const std::uint64_t in = bytes(s.in, stage.kind == Kind::R2C ? real : complex);
    const std::uint64_t out = bytes(s.out, stage.kind == Kind::C2R ? real : complex);
    if (s.in != now) needs.at(sum(held, in));
    const std::uint64_t both = stage.kind == Kind::C2C ? in : sum(in, out);
    needs.at(both);
    if (device != nullptr && elements(s.in) > 0)
      for (const ArrayStep& step : stage_steps(t, stage, s, real == 8 ? Precision::Double : Precision::Single).steps) {
        const DeviceBytes d = plan_bytes(*device, step.problem);
        needs.at(both, d.total, d.largest);
      }
    held = out;
    now = s.out;
  }
  // real_output_for: a float16 file's real result, converted.
  if (t.kind == Kind::C2R && file.dtype == io::DType::Float16) needs.at(sum(held, bytes(now, 2)));
  needs.what =
      what + " (shape " + text::shape(file.shape) + ", " + io::to_string(file.dtype) + ") to shape " + text::shape(now);
  return needs;
}

io::NpyArray run_numpy_transform(io::NpyArray input, const NumpyTransform& t, const Device* device) {
  if (!t.window.empty() && stages(t).size() > 1)
    throw Error(ErrorCode::InvalidArgument,
                "--window with an axis listed twice: a window applies once an axis (list each axis once)");
  if (t.kind == Kind::R2C && is_complex(input.dtype))
    throw Error(ErrorCode::InvalidArgument,
                std::string("a real-input transform of ") + io::to_string(input.dtype) + " data");
  if (is_double(input.dtype)) return run<double>(std::move(input), t, device);
  return run<float>(std::move(input), t, device);
}

}  // namespace bfly::cli
