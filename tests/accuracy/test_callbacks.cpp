// Callbacks (PlanOptions::load, store; issue 42) against FFTW in double:
// fresh input, the load's ops applied on the host to the values FFTW reads
// (the windows computed here from their definitions, not bfly's tables),
// FFTW's result put through the store's ops, compared with what the plan
// wrote. Fused (one pass, two passes, real rows, 2D, padded layouts) and
// apart (Bluestein, the DCT, half storage's end kernels); user code in the
// backend's dialect from one text; the errors a bad callback gets.
// Outputs are poisoned (NaN) first; elements the layout skips keep it.
#include <cmath>
#include <functional>

#include "accuracy/fixture.hpp"

namespace bfly::test {
namespace {

using Shape = std::vector<std::int64_t>;
using Value = std::complex<double>;
// A host op: the value of element `index` (per axis, outermost first; the
// batch entry apart) at `offset`.
using HostOp = std::function<Value(Value v, const Shape& index, std::int64_t offset)>;

const double kPi = 3.14159265358979323846;

// scipy.signal.get_window(name, n): periodic.
double window(const std::string& name, std::int64_t i, std::int64_t n, double beta = 0) {
  if (n == 1) return 1;
  const double x = 2 * kPi * static_cast<double>(i) / static_cast<double>(n);
  if (name == "hann") return 0.5 * (1 - std::cos(x));
  if (name == "hamming") return 0.54 - 0.46 * std::cos(x);
  if (name == "blackman") return 0.42 - 0.5 * std::cos(x) + 0.08 * std::cos(2 * x);
  const double r = 2.0 * static_cast<double>(i) / static_cast<double>(n) - 1;  // kaiser
  return std::cyl_bessel_i(0.0, beta * std::sqrt(1 - r * r)) / std::cyl_bessel_i(0.0, beta);
}

// The window over the transformed axes of a side of `shape`.
HostOp windowed(const Problem& p, const Shape& shape, const std::string& name, double beta = 0) {
  const std::vector<int> axes = p.transform_axes();
  return [=](Value v, const Shape& index, std::int64_t) {
    for (int a : axes) v *= window(name, index[static_cast<std::size_t>(a)], shape[static_cast<std::size_t>(a)], beta);
    return v;
  };
}

HostOp scaled(double s) {
  return [s](Value v, const Shape&, std::int64_t) { return v * s; };
}

enum class Result { Complex, Magnitude, Power, Decibel };

struct Case {
  Problem problem;
  PlanOptions options = test_options();
  HostOp load, store;  // (null: identity)
  Result result = Result::Complex;
  // Input elements the load drops (pad): NaN in the plan's input, 0 in
  // FFTW's, so a value the kernel used would show.
  std::function<bool(const Shape& index)> dropped;
};

Problem make(Kind kind, Shape shape, std::int64_t batch = 1, Precision precision = Precision::Single) {
  Problem p;
  p.kind = kind;
  p.shape = std::move(shape);
  p.batch = batch;
  p.precision = precision;
  p.direction = kind == Kind::C2R ? Direction::Inverse : Direction::Forward;
  return p;
}

// Each element of a side: its offset and its index per axis.
template <class Visit>
void each_element(const Shape& shape, std::int64_t batch, const Layout& layout, Visit visit) {
  const std::vector<std::int64_t> offsets = element_offsets(shape, batch, layout);
  Shape index(shape.size());
  for (std::size_t e = 0; e < offsets.size(); ++e) {
    std::size_t rest = e;
    for (std::size_t a = shape.size(); a-- > 0;) {
      index[a] = static_cast<std::int64_t>(rest % static_cast<std::size_t>(shape[a]));
      rest /= static_cast<std::size_t>(shape[a]);
    }
    visit(offsets[e], index);
  }
}

class Callbacks : public BackendTest {
 protected:
  template <class T>
  Errors run(const Case& c) const {
    const Problem& p = c.problem;
    const Plan plan(device(), p, c.options);
    const bool in_complex = p.kind == Kind::C2C || p.kind == Kind::C2R;
    const bool out_complex = p.kind == Kind::C2C || p.kind == Kind::R2C;
    const std::size_t in_n = static_cast<std::size_t>(p.input_extent());
    const std::size_t out_n = static_cast<std::size_t>(p.output_extent());
    // Fresh input, and what FFTW reads: the load's ops applied.
    std::vector<std::complex<T>> cin;
    std::vector<T> rin;
    if (in_complex) {
      if constexpr (std::is_same<T, float>::value)
        cin = random_data(in_n);
      else
        cin = random_data_f64(in_n);
      if (p.kind == Kind::C2R) make_hermitian(p, cin);
    } else {
      if constexpr (std::is_same<T, float>::value)
        rin = random_real_data(in_n);
      else
        rin = random_real_data_f64(in_n);
    }
    std::vector<std::complex<T>> cref = cin;
    std::vector<T> rref = rin;
    if (c.dropped)
      each_element(p.input_shape(), p.batch, p.input_layout(), [&](std::int64_t o, const Shape& index) {
        if (!c.dropped(index)) return;
        const std::size_t i = static_cast<std::size_t>(o);
        const T nan = std::numeric_limits<T>::quiet_NaN();
        if (in_complex)
          cin[i] = std::complex<T>(nan, nan), cref[i] = 0;
        else
          rin[i] = nan, rref[i] = 0;
      });
    if (c.load)
      each_element(p.input_shape(), p.batch, p.input_layout(), [&](std::int64_t o, const Shape& index) {
        const std::size_t i = static_cast<std::size_t>(o);
        if (in_complex)
          cref[i] = std::complex<T>(c.load(Value(cref[i]), index, o));
        else
          rref[i] = static_cast<T>(c.load(Value(rref[i]), index, o).real());
      });
    Expected expected = in_complex ? fftw_reference(p, cref) : fftw_reference(p, rref);
    // The store's ops on FFTW's result, element by element in its order.
    std::size_t e = 0;
    if (c.store)
      each_element(p.output_shape(), p.batch, p.output_layout(), [&](std::int64_t o, const Shape& index) {
        expected.values[e] = c.store(expected.values[e], index, o);
        ++e;
      });
    const bool reals = !out_complex || c.result != Result::Complex;
    if (c.result != Result::Complex)
      for (Value& v : expected.values) v = c.result == Result::Magnitude ? std::abs(v) : std::norm(v);
    Errors errors;
    if (reals) {
      std::vector<T> out(out_n, std::numeric_limits<T>::quiet_NaN());
      if (in_complex)
        plan.execute_host(cin.data(), out.data());
      else
        plan.execute_host(rin.data(), out.data());
      if (c.result == Result::Decibel)  // (compared as the power they say)
        for (T& v : out) v = static_cast<T>(std::pow(10.0, static_cast<double>(v) / 10));
      errors = compare(out, expected);
      check_poison(p, expected, [&](std::size_t i) { return std::isnan(out[i]); });
    } else {
      std::vector<std::complex<T>> out(out_n, std::complex<T>(std::numeric_limits<T>::quiet_NaN(), 0));
      if (p.placement == Placement::InPlace) {  // (a C2C's: one buffer, the input first)
        out = cin;
        plan.execute_host(out.data(), out.data());
      } else if (in_complex) {
        plan.execute_host(cin.data(), out.data());
      } else {
        plan.execute_host(rin.data(), out.data());
      }
      errors = compare(out, expected);
      if (p.placement == Placement::OutOfPlace)
        check_poison(p, expected, [&](std::size_t i) { return std::isnan(out[i].real()); });
    }
    return errors;
  }

  template <class Poisoned>
  static void check_poison(const Problem& p, const Expected& expected, Poisoned poisoned) {
    std::vector<bool> addressed(static_cast<std::size_t>(p.output_extent()), false);
    for (std::int64_t o : expected.offsets) addressed[static_cast<std::size_t>(o)] = true;
    for (std::size_t i = 0; i < addressed.size(); ++i)
      if (!addressed[i] && !poisoned(i)) {
        ADD_FAILURE() << p.token() << ": element " << i << " outside the output layout was written";
        return;
      }
  }

  void expect_accurate(const Case& c, double bar = 2e-6) const {
    Errors e;
    try {
      e = c.problem.precision == Precision::Double ? run<double>(c) : run<float>(c);
    } catch (const std::exception& x) {
      ADD_FAILURE() << c.problem.token() << ": " << x.what();
      return;
    }
    const std::string what =
        c.problem.token() + " load '" + c.options.load.ops + "' store '" + c.options.store.ops + "'";
    EXPECT_TRUE(e.finite) << what << ": unwritten or non-finite output";
    EXPECT_LE(e.relative_l2, c.problem.precision == Precision::Double ? 1e-13 : bar)
        << what << " (max error " << e.relative_max << ")";
  }

  // The one-line error a plan of `c` gets, or "" where it is made.
  std::string refusal(const Case& c) const {
    try {
      const Plan plan(device(), c.problem, c.options);
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  }
};

Case with(Problem p, const std::string& load, HostOp load_op, const std::string& store, HostOp store_op,
          Result result = Result::Complex) {
  Case c;
  c.problem = std::move(p);
  c.options.load.ops = load;
  c.options.store.ops = store;
  c.load = std::move(load_op);
  c.store = std::move(store_op);
  c.result = result;
  return c;
}

// The windows and the scale, fused: one pass, 2D, real rows, two passes.
TEST_P(Callbacks, WindowsAndScaleFused) {
  Problem p = make(Kind::C2C, {1024}, 4);
  expect_accurate(with(p, "hann", windowed(p, p.input_shape(), "hann"), "scale:0.5", scaled(0.5)));
  p = make(Kind::C2C, {48, 64});
  expect_accurate(with(
      p, "hamming,scale:3",
      [&](Value v, const Shape& i, std::int64_t o) { return windowed(p, p.input_shape(), "hamming")(v, i, o) * 3.0; },
      "", nullptr));
  p = make(Kind::R2C, {1000}, 3);
  expect_accurate(with(p, "blackman", windowed(p, p.input_shape(), "blackman"), "", nullptr));
  p = make(Kind::R2C, {4096}, 2);
  expect_accurate(with(p, "kaiser:8.6", windowed(p, p.input_shape(), "kaiser", 8.6), "", nullptr));
  p = make(Kind::C2C, {65536});
  expect_accurate(with(p, "hann", windowed(p, p.input_shape(), "hann"), "scale:2", scaled(2)));
  // (Past 16384 points the cosine sums are computed in the kernel.)
  p = make(Kind::C2C, {24000});
  expect_accurate(with(p, "blackman", windowed(p, p.input_shape(), "blackman"), "", nullptr));
  p = make(Kind::C2C, {20000});
  expect_accurate(with(p, "hamming", windowed(p, p.input_shape(), "hamming"), "", nullptr));
  // A real side read and written as complex points (a pass of half the
  // length): each point's two reals at their own offsets.
  p = make(Kind::R2C, {65536}, 2);
  expect_accurate(with(p, "hann", windowed(p, p.input_shape(), "hann"), "", nullptr));
  p = make(Kind::C2R, {65536});
  Case c = with(p, "", nullptr, "mask", nullptr);
  c.options.store.values.resize(65536);
  for (std::size_t i = 0; i < 65536; ++i) c.options.store.values[i] = static_cast<double>(i % 3);
  c.store = [](Value v, const Shape&, std::int64_t o) { return v * static_cast<double>(o % 3); };
  expect_accurate(c);
}

// Magnitude, power and dB: the output holds reals.
TEST_P(Callbacks, SpectraAsReals) {
  Problem p = make(Kind::R2C, {1024}, 5);
  expect_accurate(with(p, "hann", windowed(p, p.input_shape(), "hann"), "db", nullptr, Result::Decibel), 1e-5);
  p = make(Kind::C2C, {60, 36});
  expect_accurate(with(p, "", nullptr, "power", nullptr, Result::Power));
  p = make(Kind::R2C, {30, 40});
  expect_accurate(with(p, "", nullptr, "scale:0.25,magnitude", scaled(0.25), Result::Magnitude));
}

// A window of the caller's values and a mask of them.
TEST_P(Callbacks, ValuesWindowAndMask) {
  Problem p = make(Kind::C2C, {384}, 3);
  Case c = with(p, "window", nullptr, "mask", nullptr);
  c.options.load.values.resize(384);
  for (std::size_t i = 0; i < 384; ++i) c.options.load.values[i] = 1 + 0.01 * static_cast<double>(i % 17);
  const std::vector<double> w = c.options.load.values;
  c.load = [w](Value v, const Shape& i, std::int64_t) { return v * w[static_cast<std::size_t>(i[0])]; };
  c.options.store.values.resize(static_cast<std::size_t>(p.output_extent()));
  for (std::size_t i = 0; i < c.options.store.values.size(); ++i) c.options.store.values[i] = (i % 3) * 0.5;
  const std::vector<double> m = c.options.store.values;
  c.store = [m](Value v, const Shape&, std::int64_t o) { return v * m[static_cast<std::size_t>(o)]; };
  expect_accurate(c);
  // A C2R's mask on its half spectrum (a real one keeps X[0] and X[n/2] real).
  p = make(Kind::C2R, {512}, 2);
  Case r = with(p, "mask", nullptr, "scale:2", scaled(2));
  r.options.load.values.resize(static_cast<std::size_t>(p.input_extent()));
  for (std::size_t i = 0; i < r.options.load.values.size(); ++i) r.options.load.values[i] = i % 5 == 0 ? 0 : 1;
  const std::vector<double> lm = r.options.load.values;
  r.load = [lm](Value v, const Shape&, std::int64_t o) { return v * lm[static_cast<std::size_t>(o)]; };
  expect_accurate(r);
}

// Where the first or last pass cannot take them (Bluestein's, the DCT's,
// a padded layout's strided sides): the end kernels, the same functions.
TEST_P(Callbacks, ApartAndPadded) {
  Problem p = make(Kind::C2C, {10007});
  expect_accurate(with(p, "hann", windowed(p, p.input_shape(), "hann"), "power", nullptr, Result::Power));
  // Rader past one kernel: its later passes read the input again.
  p = make(Kind::C2C, {65537});
  expect_accurate(with(p, "hann", windowed(p, p.input_shape(), "hann"), "scale:0.5", scaled(0.5)));
  p = make(Kind::R2C, {20, 30}, 2);
  p.input.strides = {40, 1};  // rows of 30 reals at a pitch of 40
  p.input.distance = 900;
  expect_accurate(with(p, "hann", windowed(p, p.input_shape(), "hann"), "", nullptr));
  // In place, one pass and two (the intermediates in the caller's buffer).
  for (std::int64_t n : {1024, 65536}) {
    p = make(Kind::C2C, {n}, 2);
    p.placement = Placement::InPlace;
    expect_accurate(with(p, "hann", windowed(p, p.input_shape(), "hann"), "scale:0.5", scaled(0.5)));
  }
  p = make(Kind::C2C, {360}, 2, Precision::Double);
  expect_accurate(with(p, "hann", windowed(p, p.input_shape(), "hann"), "scale:0.125", scaled(0.125)));
}

// Zero padding (pad:N, or one length a transformed axis): the points at
// or past N along an axis read as zero, whatever the buffer holds there
// (NaN here). Fused in one and two passes, 2D, real rows (and a real side
// read as complex points), Bluestein's end kernel, fp64; a length at or
// past the axis's keeps it whole.
TEST_P(Callbacks, ZeroPadding) {
  auto padded = [](const Problem& p, const std::string& ops, std::vector<std::int64_t> keep) {
    Case c = with(p, ops, nullptr, "", nullptr);
    const std::vector<int> axes = p.transform_axes();
    c.dropped = [axes, keep](const Shape& index) {
      for (std::size_t i = 0; i < axes.size(); ++i)
        if (index[static_cast<std::size_t>(axes[i])] >= keep[keep.size() == 1 ? 0 : i]) return true;
      return false;
    };
    return c;
  };
  expect_accurate(padded(make(Kind::C2C, {1000}, 3), "pad:700", {700}));
  expect_accurate(padded(make(Kind::C2C, {65536}), "pad:40000", {40000}));
  expect_accurate(padded(make(Kind::C2C, {48, 64}, 2), "pad:30x50", {30, 50}));
  expect_accurate(padded(make(Kind::R2C, {1000}, 2), "pad:999", {999}));
  expect_accurate(padded(make(Kind::R2C, {65536}), "pad:1001", {1001}));
  expect_accurate(padded(make(Kind::C2C, {10007}), "pad:5000", {5000}));
  expect_accurate(padded(make(Kind::C2C, {360}, 2, Precision::Double), "pad:100", {100}));
  // With a window and a scale: the window is the full length's.
  Problem p = make(Kind::C2C, {512}, 2);
  Case w = padded(p, "pad:300,hann,scale:2", {300});
  w.load = [&](Value v, const Shape& i, std::int64_t o) { return windowed(p, p.input_shape(), "hann")(v, i, o) * 2.0; };
  expect_accurate(w);
  Case whole = with(make(Kind::C2C, {1024}), "pad:5000", nullptr, "", nullptr);
  expect_accurate(whole);
}

// User code: one text for both dialects, the caller's data.
TEST_P(Callbacks, UserCode) {
  Problem p = make(Kind::C2C, {256}, 2);
  Case c = with(
      p, "code",
      [](Value v, const Shape&, std::int64_t o) { return Value(v.real() * 2, -v.imag()) + (o % 2 ? 1.0 : 0.0); }, "",
      nullptr);
  c.options.load.code = "cpx w = cmake(v.x * 2, -v.y);\nif (o % 2) w.x += 1;\nreturn w;";
  expect_accurate(c);
  // Reals times the caller's data, on an R2C's loads.
  p = make(Kind::R2C, {210}, 3);
  Case r = with(p, "code", nullptr, "", nullptr);
  r.options.load.code = "return v * data[o % 7];";
  std::vector<float> factors{1, 2, 3, 4, 5, 6, 7};
  r.options.load.data = std::make_shared<Buffer>(device(), factors.size() * sizeof(float));
  r.options.load.data->write(factors.data(), factors.size() * sizeof(float));
  r.load = [](Value v, const Shape&, std::int64_t o) { return v * static_cast<double>(o % 7 + 1); };
  expect_accurate(r);
}

// A plan's callbacks replaced: the new ones run, the old ones no more; a
// bad one leaves the plan as it was.
TEST_P(Callbacks, Replaced) {
  const Problem p = make(Kind::C2C, {512}, 2);
  PlanOptions options = test_options();
  options.load.ops = "scale:3";
  Plan plan(device(), p, options);
  std::vector<std::complex<float>> x = random_data(1024), a(1024), b(1024);
  plan.execute_host(x.data(), a.data());
  Callback hann, none;
  hann.ops = "hann";
  plan.set_callbacks(hann, none);
  plan.execute_host(x.data(), b.data());
  Callback bad;
  bad.ops = "hanning";
  EXPECT_THROW(plan.set_callbacks(bad, none), Error);
  std::vector<std::complex<float>> c(1024);
  plan.execute_host(x.data(), c.data());
  // a = 3 X; b = c = the windowed transform: against FFTW's.
  std::vector<std::complex<float>> windowed = x;
  for (std::size_t i = 0; i < windowed.size(); ++i)
    windowed[i] *= static_cast<float>(window("hann", static_cast<std::int64_t>(i % 512), 512));
  const Expected bare = fftw_reference(p, x), want = fftw_reference(p, windowed);
  EXPECT_LE(compare(a, bare, 3.0).relative_l2, 2e-6);
  EXPECT_LE(compare(b, want).relative_l2, 2e-6);
  EXPECT_LE(compare(c, want).relative_l2, 2e-6);
}

// Bad callbacks: one line naming what is wrong, and no plan.
TEST_P(Callbacks, Refusals) {
  auto refused = [&](const std::string& load, const std::string& store, const std::string& code, Kind kind,
                     const std::string& says) {
    Case c = with(make(kind, {64}), load, nullptr, store, nullptr);
    c.options.load.code = code;
    const std::string why = refusal(c);
    EXPECT_NE(why.find(says), std::string::npos) << "load '" << load << "' store '" << store << "': " << why;
    EXPECT_EQ(why.find('\n'), std::string::npos) << why;
  };
  refused("hanning", "", "", Kind::C2C, "unknown op 'hanning'");
  refused("scale:x", "", "", Kind::C2C, "bad number 'x'");
  refused("power", "", "", Kind::C2C, "'power' is a store op");
  refused("", "power,scale:2", "", Kind::C2C, "after magnitude, power or db");
  refused("hann,mask", "", "", Kind::C2C, "more than one op that reads");
  refused("window", "", "", Kind::C2C, "'window' has 0 values; it needs 64");
  refused("", "db", "", Kind::C2R, "needs a complex output");
  refused("code", "", "", Kind::C2C, "needs the code");
  refused("", "pad:10", "", Kind::C2C, "'pad' is a load op");
  refused("pad:0", "", "", Kind::C2C, "bad length '0'");
  refused("pad:2.5", "", "", Kind::C2C, "bad length '2.5'");
  refused("pad:4x4", "", "", Kind::C2C, "names 2 lengths; it takes one, or one a transformed axis (1)");
  refused("code", "", "return v;\n#include <x>", Kind::C2C, "line 2 of the code is a preprocessor line");
  // Code the compiler refuses: its message, at the line of the code.
  Case broken = with(make(Kind::C2C, {64}), "code", nullptr, "", nullptr);
  broken.options.load.code = "cpx w = v;\nw = not_declared(w);\nreturn w;";
  const std::string why = refusal(broken);
  EXPECT_NE(why.find("load callback line 2:"), std::string::npos) << why;
  EXPECT_NE(why.find("not_declared"), std::string::npos) << why;
  EXPECT_EQ(why.find('\n'), std::string::npos) << why;
  // In place, a store of reals.
  Case in_place = with(make(Kind::C2C, {64}), "", nullptr, "power", nullptr);
  in_place.problem.placement = Placement::InPlace;
  EXPECT_NE(refusal(in_place).find("plan it out of place"), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(Backends, Callbacks, ::testing::Values("cuda", "opencl"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace bfly::test
