#include "runtime/generic_plan.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <complex>
#include <functional>
#include <map>
#include <thread>

#include "codegen/generic_kernels.hpp"
#include "codegen/multiply_kernel.hpp"
#include "twiddle/chirp.hpp"
#include "twiddle/oracle.hpp"

namespace bfly::detail {

using Slot = GenericPlan::Slot;
using Arg = GenericPlan::Arg;
using Step = GenericPlan::Step;

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

Arg u64(std::int64_t v) { return {Slot::Table, -1, KernelArg::of_u64(static_cast<std::uint64_t>(v))}; }
Arg buffer(Slot s) { return {s, -1, KernelArg::of_u64(0)}; }
Arg table(int index) { return {Slot::Table, index, KernelArg::of_u64(0)}; }

// Radices the row kernel runs, or empty where n has a prime factor past 13:
// lengths with 11 or 13 take the kernel of 16 slots and its codelets of 16
// and 9 (fewer stages), the rest the kernel of 8 (fewer registers), eights
// first (codegen::generic_row_radices).
std::vector<int> generic_radices(std::int64_t n) {
  const bool wide = n % 11 == 0 || n % 13 == 0;
  std::vector<int> radices;
  int twos = 0, threes = 0;
  while (n % 2 == 0) ++twos, n /= 2;
  while (n % 3 == 0) ++threes, n /= 3;
  for (int top : {wide ? 16 : 8, 8, 4, 2}) {
    const int bits = top == 16 ? 4 : top == 8 ? 3 : top == 4 ? 2 : 1;
    for (; twos >= bits; twos -= bits) radices.push_back(top);
  }
  for (; wide && threes >= 2; threes -= 2) radices.push_back(9);
  for (; threes > 0; --threes) radices.push_back(3);
  for (int p : {5, 7, 11, 13})
    while (n % p == 0) radices.push_back(p), n /= p;
  if (n != 1) return {};
  return radices;
}

bool smooth(std::int64_t n) { return n == 1 || !generic_radices(n).empty(); }

// The smallest 7-smooth length >= n.
std::int64_t smooth7_at_least(std::int64_t n) {
  for (std::int64_t m = std::max<std::int64_t>(n, 1);; ++m) {
    std::int64_t r = m;
    for (int p : {2, 3, 5, 7})
      while (r % p == 0) r /= p;
    if (r == 1) return m;
  }
}

template <class T>
std::vector<std::complex<T>> narrow(const std::vector<std::complex<long double>>& v) {
  std::vector<std::complex<T>> out(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = {static_cast<T>(v[i].real()), static_cast<T>(v[i].imag())};
  return out;
}

// w_n^(e stride) for e < count, from the twiddle oracle.
std::vector<std::complex<long double>> roots(std::int64_t n, std::int64_t count, std::int64_t stride) {
  std::vector<std::complex<long double>> out(static_cast<std::size_t>(count));
  for (std::int64_t e = 0; e < count; ++e) out[static_cast<std::size_t>(e)] = twiddle::root(e * stride, n);
  return out;
}

}  // namespace

struct GenericPlan::Workspace {
  std::mutex order;
  std::shared_ptr<BufferImpl> w0, w1, b0, b1;
};

// Emits the steps of a plan: the recursion over axes, four-step splits and
// Bluestein's chirps.
class GenericBuilder {
 public:
  GenericBuilder(GenericPlan& plan, const plan::DeviceLimits& limits, BuildStats& stats)
      : plan_(plan), device_(*plan.device_), precision_(plan.problem_.precision), stats_(stats) {
    capacity_ = GenericPlan::capacity(limits, precision_);
    point_ = precision_ == Precision::Double ? 16 : 8;
  }

  void build() {
    const Problem& p = plan_.problem_;
    const std::vector<std::int64_t> full = p.shape;  // the real shape for real kinds
    const int rank = p.rank();
    // The dense array: [batch, shape...], complex, row-major.
    std::vector<std::int64_t> dense(static_cast<std::size_t>(rank + 1));
    std::int64_t stride = 1;
    for (int a = rank - 1; a >= 0; --a) dense[static_cast<std::size_t>(a + 1)] = stride, stride *= full[a];
    dense[0] = stride;
    const std::int64_t elements = stride * p.batch;
    plan_.dense_bytes_ = static_cast<std::size_t>(elements) * point_;
    const std::vector<int> axes = p.transform_axes();
    const double sign = p.direction == Direction::Forward ? 1.0 : -1.0;

    // Complex arrays in the default layout whose every axis is rows in
    // local memory: row launches from the input to the output, then on the
    // output in place, the scale in the last; no workspace.
    const bool simple = p.kind == Kind::C2C && p.input.is_default() && p.output.is_default() &&
                        std::all_of(axes.begin(), axes.end(), [&](int a) {
                          const std::int64_t n = full[static_cast<std::size_t>(a)];
                          return smooth(n) && n <= capacity_;
                        });
    if (simple) {
      Slot from = Slot::In;
      for (std::size_t k = 0; k < axes.size(); ++k) {
        std::int64_t outer = p.batch, inner = 1;
        for (int b = 0; b < axes[k]; ++b) outer *= full[static_cast<std::size_t>(b)];
        for (int b = axes[k] + 1; b < rank; ++b) inner *= full[static_cast<std::size_t>(b)];
        const std::int64_t n = full[static_cast<std::size_t>(axes[k])];
        const std::int64_t rows_in[4] = {n * inner, 0, 1, inner};
        rows(from, Slot::Out, n, outer * inner, 1, inner, rows_in, rows_in, 0, sign,
             k + 1 == axes.size() ? p.scale() : 1.0,
             std::to_string(n) + "-point rows of axis " + std::to_string(axes[k]) + " in local memory");
        from = Slot::Out;
      }
      plan_.dense_bytes_ = 0;
      return;
    }

    // Gather.
    const Layout in = p.input_layout();
    std::vector<std::int64_t> extents{p.batch};
    for (std::int64_t e : full) extents.push_back(e);
    std::vector<std::int64_t> in_strides{in.distance};
    for (std::int64_t s : in.strides) in_strides.push_back(s);
    const int real_index = p.is_real() ? p.real_axis() + 1 : 0;
    std::int64_t mirror = 0;
    for (int a : axes) mirror |= std::int64_t{1} << (a + 1);
    const int gather_mode = p.kind == Kind::C2C ? 0 : p.kind == Kind::R2C ? 1 : 2;
    const std::int64_t half = p.is_real() ? full[static_cast<std::size_t>(p.real_axis())] / 2 + 1 : 0;
    reshape(Slot::In, Slot::W0, extents, in_strides, dense, gather_mode, real_index, half, extents, mirror, 1.0,
            "gather the input into a dense complex array");

    // Each axis.
    Slot cur = Slot::W0;
    for (int a : axes) {
      std::int64_t outer = p.batch, inner = 1;
      for (int b = 0; b < a; ++b) outer *= full[b];
      for (int b = a + 1; b < rank; ++b) inner *= full[b];
      cur = axis(cur, other(cur), outer, full[static_cast<std::size_t>(a)], inner, sign);
    }

    // Scatter.
    const Layout out = p.output_layout();
    std::vector<std::int64_t> out_extents{p.batch};
    for (std::int64_t e : p.output_shape()) out_extents.push_back(e);
    std::vector<std::int64_t> out_strides{out.distance};
    for (std::int64_t s : out.strides) out_strides.push_back(s);
    reshape(cur, Slot::Out, out_extents, dense, out_strides, p.kind == Kind::C2R ? 3 : 0, 0, 0, out_extents, 0,
            p.scale(), "scatter to the output layout");
    if (p.kind == Kind::C2C && p.input.is_default() && p.output.is_default()) skip_identity_copies(p.scale());
  }

  // Complex default layouts are the dense array's own: the gather and the
  // scatter copy point for point. Without them the first launch after the
  // gather reads the input where it read the gathered copy, and the last
  // before the scatter writes the output, with the norm's scale, where it
  // wrote its slot (every launch of the axes reads its source at args[0]
  // and writes every point of its destination at args[1], the scale last;
  // the first reads the gathered array, the last writes the final one).
  void skip_identity_copies(double scale) {
    std::vector<Step>& steps = plan_.steps_;
    if (steps.size() < 4) return;
    steps.erase(steps.begin());
    steps.pop_back();
    steps.front().args[0] = buffer(Slot::In);
    Step& last = steps.back();
    last.args[1] = buffer(Slot::Out);
    const double before = last.args.back().value.real;
    last.args.back() = {Slot::Table, -1, real(before * scale)};
  }

 private:
  static Slot other(Slot s) {
    return s == Slot::W0 ? Slot::W1 : s == Slot::W1 ? Slot::W0 : s == Slot::B0 ? Slot::B1 : Slot::B0;
  }

  std::shared_ptr<KernelImpl> kernel(const std::string& name, const std::function<std::string()>& generate) {
    return device_.memo<KernelImpl>("kernel:" + name, [&] {
      auto start = Clock::now();
      const std::string source = generate();
      stats_.codegen_ms += ms_since(start);
      start = Clock::now();
      CompileOutcome outcome = device_.compile(source, name);
      ++stats_.built;
      stats_.compile_ms += ms_since(start);
      stats_.cache_hits += outcome.cache_hit ? 1 : 0;
      stats_.shipped += outcome.shipped ? 1 : 0;
      return outcome.kernel;
    });
  }

  int add_table(const std::vector<std::complex<long double>>& values) {
    auto start = Clock::now();
    const std::size_t bytes = std::max<std::size_t>(values.size(), 1) * point_;
    auto b = device_.allocate(bytes);
    if (!values.empty()) {
      if (precision_ == Precision::Single) {
        const auto v = narrow<float>(values);
        device_.write(*b, v.data(), v.size() * sizeof(v[0]), 0);
      } else {
        const auto v = narrow<double>(values);
        device_.write(*b, v.data(), v.size() * sizeof(v[0]), 0);
      }
    }
    plan_.tables_.push_back(b);
    stats_.twiddle_ms += ms_since(start);
    return static_cast<int>(plan_.tables_.size()) - 1;
  }

  // The n-point table of a row kernel, one a length.
  int roots_table(std::int64_t n) {
    auto found = roots_.find(n);
    if (found != roots_.end()) return found->second;
    return roots_[n] = add_table(roots(n, n, 1));
  }

  void push(Step step, std::size_t count_threads) {
    step.group_size = codegen::kGenericGroupSize;
    if (step.groups == 0) step.groups = (count_threads + step.group_size - 1) / step.group_size;
    plan_.steps_.push_back(std::move(step));
  }

  // Rows of n <= capacity points (smooth): transforms (o, a, q) as the row
  // kernel addresses them.
  void rows(Slot from, Slot to, std::int64_t n, std::int64_t count, std::int64_t mid, std::int64_t inner,
            const std::int64_t (&in)[4], const std::int64_t (&out)[4], std::int64_t big_n, double sign, double scale,
            const std::string& what) {
    const std::vector<int> radices = generic_radices(n);
    std::uint64_t packed = 0;
    for (std::size_t s = 0; s < radices.size(); ++s) packed |= static_cast<std::uint64_t>(radices[s]) << (8 * s);
    const int max_radix = radices.empty() || *std::max_element(radices.begin(), radices.end()) <= 8 ? 8 : 16;
    const std::string name = codegen::generic_row_name(precision_, capacity_, max_radix);
    const codegen::DialectKind dialect = device_.dialect();
    const Precision precision = precision_;
    const std::int64_t capacity = capacity_;
    Step step;
    step.kernel = kernel(name, [=] { return codegen::generate_generic_row(dialect, precision, capacity, max_radix); });
    // About eight points a thread (a radix-8 stage then has a butterfly for
    // every thread): short rows share a group. Rows whose points are strided
    // are visited across transforms, at least 16 side by side where they
    // fit (whole sectors of memory); a group's transforms are kept an odd
    // number of points apart in local memory (no bank conflicts).
    const std::int64_t padded = n % 2 == 0 ? n + 1 : n;
    const bool strided_in = in[3] != 1, strided_out = out[3] != 1;
    std::int64_t want = std::max<std::int64_t>(1, 8 * codegen::kGenericGroupSize / n);
    if (strided_in || strided_out) want = std::max<std::int64_t>(want, 16);
    std::int64_t per_group = std::max<std::int64_t>(1, std::min(want, capacity_ / padded));
    // Visited across, a group's transforms come a power of two (the kernel
    // splits its threads among them with a mask).
    if (strided_in || strided_out)
      while ((per_group & (per_group - 1)) != 0) per_group &= per_group - 1;
    const std::int64_t ns = per_group > 1 ? padded : n;
    const std::int64_t order = (strided_in && per_group > 1 ? 1 : 0) | (strided_out && per_group > 1 ? 2 : 0);
    step.groups = static_cast<std::size_t>((count + per_group - 1) / per_group);
    step.local_bytes = codegen::generic_row_local_bytes(precision_, per_group * ns);
    step.dynamic_local = true;
    int fine = roots_table(1), coarse = fine;
    std::int64_t bits = 0;
    if (big_n > 0) {
      bits = static_cast<std::int64_t>(std::ceil(std::log2(static_cast<double>(big_n)) / 2));
      const std::int64_t low = std::int64_t{1} << bits;
      fine = add_table(roots(big_n, low, 1));
      coarse = add_table(roots(big_n, (big_n + low - 1) / low + 1, low));
    }
    step.args = {buffer(from),
                 buffer(to),
                 table(roots_table(n)),
                 table(fine),
                 table(coarse),
                 u64(n),
                 u64(ns),
                 u64(static_cast<std::int64_t>(packed)),
                 u64(static_cast<std::int64_t>(radices.size())),
                 u64(count),
                 u64(per_group),
                 u64(order),
                 u64(mid),
                 u64(inner),
                 u64(in[0]),
                 u64(in[1]),
                 u64(in[2]),
                 u64(in[3]),
                 u64(out[0]),
                 u64(out[1]),
                 u64(out[2]),
                 u64(out[3]),
                 u64(big_n),
                 u64(bits)};
    step.args.push_back({Slot::Table, -1, real(sign)});
    step.args.push_back({Slot::Table, -1, real(scale)});
    step.what = what;
    push(std::move(step), 0);
  }

  KernelArg real(double v) const {
    return precision_ == Precision::Single ? KernelArg::of_f32(v) : KernelArg::of_f64(v);
  }

  // One reshape launch over `extents` (up to 5), src strides `s`, dst `t`.
  void reshape(Slot from, Slot to, const std::vector<std::int64_t>& extents, const std::vector<std::int64_t>& s,
               const std::vector<std::int64_t>& t, int mode, int real_axis, std::int64_t half,
               const std::vector<std::int64_t>& full, std::int64_t mirror, double scale, const std::string& what) {
    std::int64_t count = 1;
    for (std::int64_t e : extents) count *= e;
    auto at = [](const std::vector<std::int64_t>& v, std::size_t j, std::int64_t none) {
      return j < v.size() ? v[j] : none;
    };
    const std::string name = codegen::generic_reshape_name(precision_);
    const codegen::DialectKind dialect = device_.dialect();
    const Precision precision = precision_;
    Step step;
    step.kernel = kernel(name, [=] { return codegen::generate_generic_reshape(dialect, precision); });
    step.args = {buffer(from), buffer(to), u64(count)};
    for (std::size_t j = 1; j < 5; ++j) step.args.push_back(u64(at(extents, j, 1)));
    for (std::size_t j = 0; j < 5; ++j) step.args.push_back(u64(at(s, j, 0)));
    for (std::size_t j = 0; j < 5; ++j) step.args.push_back(u64(at(t, j, 0)));
    step.args.push_back(u64(mode));
    step.args.push_back(u64(real_axis));
    step.args.push_back(u64(half));
    for (std::size_t j = 0; j < 5; ++j) step.args.push_back(u64(at(full, j, 1)));
    step.args.push_back(u64(mirror));
    step.args.push_back({Slot::Table, -1, real(scale)});
    step.what = what;
    push(std::move(step), static_cast<std::size_t>(count));
  }

  // The axis of n points of the dense view [outer, n, inner] in `cur`
  // (`spare` the same size): returns the slot holding the result.
  Slot axis(Slot cur, Slot spare, std::int64_t outer, std::int64_t n, std::int64_t inner, double sign) {
    if (n == 1) return cur;
    const std::string length = std::to_string(n);
    if (smooth(n) && n <= capacity_) {
      const std::int64_t in[4] = {n * inner, 0, 1, inner};
      rows(cur, cur, n, outer * inner, 1, inner, in, in, 0, sign, 1.0, length + "-point rows in local memory");
      return cur;
    }
    if (smooth(n)) {
      // DIF four-step, i = i1 n2 + i2: n1-point columns over i1 (the
      // twiddles w_n^(i2 k1) as they store), in place, then the n2-point
      // rest, X[k2 n1 + k1] from [k1][k2]. Where n2 fits local memory, its
      // rows store X in order themselves (two passes, the balanced split
      // whose columns still come four or more to a group); longer, they
      // recurse and a transpose follows.
      const std::int64_t widest = std::max<std::int64_t>(2, capacity_ / 4);
      std::int64_t n1 = 0;
      for (std::int64_t d = 2; d <= widest && d < n; ++d)
        if (n % d == 0 && n / d <= capacity_ && (n1 == 0 || std::max(d, n / d) < std::max(n1, n / n1))) n1 = d;
      const bool two_pass = n1 > 0;
      if (!two_pass)
        for (std::int64_t d = std::min(widest, n - 1); d > 1; --d)
          if (n % d == 0) {
            n1 = d;
            break;
          }
      const std::int64_t n2 = n / n1;
      const std::int64_t in[4] = {n * inner, inner, 1, n2 * inner};
      rows(cur, cur, n1, outer * n2 * inner, n2, inner, in, in, n, sign, 1.0,
           std::to_string(n1) + "-point columns of " + length + " (four-step, with its twiddles)");
      if (two_pass) {
        const std::int64_t from[4] = {n * inner, n2 * inner, 1, inner};
        const std::int64_t to[4] = {n * inner, inner, 1, n1 * inner};
        rows(cur, spare, n2, outer * n1 * inner, n1, inner, from, to, 0, sign, 1.0,
             std::to_string(n2) + "-point rows of " + length + ", stored in order");
        return spare;
      }
      const Slot done = axis(cur, spare, outer * n1, n2, inner, sign);
      const Slot to = other(done);
      reshape(done, to, {outer, n2, n1, inner}, {n * inner, inner, n2 * inner, 1}, {n * inner, n1 * inner, inner, 1}, 0,
              0, 0, {outer, n2, n1, inner}, 0, 1.0, "transpose " + std::to_string(n1) + " x " + std::to_string(n2));
      return to;
    }
    // Bluestein: X_k = c_k sum_j (x_j c_j) conj(c_(k-j)), c_m = exp(-i pi m^2 / n),
    // as a cyclic convolution of m >= 2n - 1 points.
    const std::int64_t m = smooth7_at_least(2 * n - 1);
    const std::int64_t rows_count = outer * inner;
    plan_.padded_bytes_ = std::max(plan_.padded_bytes_, static_cast<std::size_t>(rows_count * m) * point_);
    // c_j = exp(-i pi j^2 / n), j < n (twiddle/chirp.hpp).
    const std::vector<std::complex<long double>> c = twiddle::chirp(n, n);
    const int chirp = add_table(c);
    const int spectrum = spectrum_table(c, m, sign);
    const std::string name = codegen::generic_chirp_name(precision_);
    const codegen::DialectKind dialect = device_.dialect();
    const Precision precision = precision_;
    auto chirp_step = [&](Slot from, Slot to, int mode, double scale, const std::string& what) {
      Step step;
      step.kernel = kernel(name, [=] { return codegen::generate_generic_chirp(dialect, precision); });
      step.args = {buffer(from), buffer(to),     table(chirp), u64(n),     u64(m),   u64(rows_count),
                   u64(inner),   u64(n * inner), u64(1),       u64(inner), u64(mode)};
      step.args.push_back({Slot::Table, -1, real(sign)});
      step.args.push_back({Slot::Table, -1, real(scale)});
      step.what = what;
      push(std::move(step), static_cast<std::size_t>(rows_count * (mode == 0 ? m : n)));
    };
    chirp_step(cur, Slot::B0, 0, 1.0, length + " points times the chirp, padded to " + std::to_string(m));
    const Slot a = axis(Slot::B0, Slot::B1, rows_count, m, 1, 1.0);
    multiply(a, spectrum, rows_count, m);
    const Slot b = axis(a, other(a), rows_count, m, 1, -1.0);
    chirp_step(b, cur, 1, 1.0 / static_cast<double>(m), "the first " + length + " points times the chirp");
    return cur;
  }

  void multiply(Slot data, int spectrum, std::int64_t rows_count, std::int64_t m) {
    const std::string name = codegen::multiply_kernel_name(precision_);
    const codegen::DialectKind dialect = device_.dialect();
    const Precision precision = precision_;
    Step step;
    step.kernel = kernel(name, [=] { return codegen::generate_multiply(dialect, precision); });
    step.args = {buffer(data), buffer(data), table(spectrum), u64(rows_count * m),
                 u64(1),       u64(1),       u64(m),          u64(m),
                 u64(0),       u64(0),       u64(1),          u64(0),
                 u64(0),       u64(0),       u64(1)};
    step.args.push_back({Slot::Table, -1, real(1.0)});
    step.what = "times the chirp's spectrum";
    step.group_size = codegen::kMultiplyGroupSize;
    step.groups =
        static_cast<std::size_t>((rows_count * m + codegen::kMultiplyGroupSize - 1) / codegen::kMultiplyGroupSize);
    plan_.steps_.push_back(std::move(step));
  }

  // The spectrum of b_j = conj(c_j) (sign +1; c_j itself for -1) wrapped to
  // m points, c the chirp: made on the device by this tier's own m-point
  // transform (twiddle::bluestein_kernel would take the host about 0.5 s
  // at a million points).
  int spectrum_table(const std::vector<std::complex<long double>>& c, std::int64_t m, double sign) {
    const std::int64_t n = static_cast<std::int64_t>(c.size());
    std::vector<std::complex<long double>> b(static_cast<std::size_t>(m));
    for (std::int64_t j = 0; j < n; ++j) {
      const std::complex<long double> v = c[static_cast<std::size_t>(j)];
      b[static_cast<std::size_t>(j)] = sign > 0 ? std::conj(v) : v;
      if (j > 0) b[static_cast<std::size_t>(m - j)] = b[static_cast<std::size_t>(j)];
    }
    const int index = add_table(b);
    // Its m-point forward transform, in place in the table, by steps run
    // now on scratch buffers (B0 / B1 of one row).
    const std::size_t first = plan_.steps_.size();
    const Slot result = axis(Slot::B0, Slot::B1, 1, m, 1, 1.0);
    std::vector<Step> made(plan_.steps_.begin() + static_cast<std::ptrdiff_t>(first), plan_.steps_.end());
    plan_.steps_.resize(first);
    auto b0 = plan_.tables_[static_cast<std::size_t>(index)];
    auto b1 = device_.allocate(static_cast<std::size_t>(m) * point_);
    for (const Step& s : made) launch_now(s, *b0, *b1);
    if (result == Slot::B1) plan_.tables_[static_cast<std::size_t>(index)] = b1;
    device_.finish();
    return index;
  }

  void launch_now(const Step& s, BufferImpl& b0, BufferImpl& b1) {
    std::vector<KernelArg> args;
    for (const Arg& a : s.args) {
      if (a.table >= 0)
        args.push_back(KernelArg::of(*plan_.tables_[static_cast<std::size_t>(a.table)]));
      else if (a.slot == Slot::B0)
        args.push_back(KernelArg::of(b0));
      else if (a.slot == Slot::B1)
        args.push_back(KernelArg::of(b1));
      else
        args.push_back(a.value);
    }
    device_.launch(*s.kernel, s.groups, s.group_size, s.local_bytes, args, nullptr, s.dynamic_local);
  }

  GenericPlan& plan_;
  DeviceImpl& device_;
  Precision precision_;
  BuildStats& stats_;
  std::int64_t capacity_ = 0;
  std::size_t point_ = 8;
  std::map<std::int64_t, int> roots_;
};

std::int64_t GenericPlan::capacity(const plan::DeviceLimits& limits, Precision precision) {
  return codegen::generic_capacity(limits.local_memory_bytes, precision);
}

GenericPlan::GenericPlan(std::shared_ptr<DeviceImpl> device, const Problem& problem, const plan::DeviceLimits& limits,
                         BuildStats& stats)
    : device_(std::move(device)), problem_(problem) {
  // Its scatter takes strides alone: a split output is the specialised plan's.
  if (!problem.output.split.none())
    throw Error(ErrorCode::Unsupported,
                "the generic tier does not store an output split (" + problem.token() + "): plan it specialised");
  GenericBuilder(*this, limits, stats).build();
  stats.kernels = 0;
  std::vector<const KernelImpl*> seen;
  for (const Step& s : steps_)
    if (std::find(seen.begin(), seen.end(), s.kernel.get()) == seen.end()) seen.push_back(s.kernel.get());
  stats.kernels = static_cast<int>(seen.size());
  text_ = "plan " + problem_.token() + "\n  generic tier: " + std::to_string(steps_.size()) + " launches of " +
          std::to_string(seen.size()) + " fixed kernels, rows of up to " +
          std::to_string(capacity(limits, problem_.precision)) + " points in local memory, workspace " +
          std::to_string(workspace_bytes()) + " bytes\n";
  for (std::size_t i = 0; i < steps_.size(); ++i) text_ += "  step " + std::to_string(i) + ": " + steps_[i].what + "\n";
  // One queue's workspace now: the first queue's executions allocate
  // nothing (a CUDA graph can capture them), and a plan the device cannot
  // hold fails here.
  spare_ = std::make_unique<Workspace>();
  make(*spare_);
}

void GenericPlan::make(Workspace& w) const {
  if (w.w0 || dense_bytes_ == 0) return;
  w.w0 = device_->allocate(dense_bytes_);
  w.w1 = device_->allocate(dense_bytes_);
  if (padded_bytes_ > 0) {
    w.b0 = device_->allocate(padded_bytes_);
    w.b1 = device_->allocate(padded_bytes_);
  }
}

GenericPlan::~GenericPlan() = default;

std::string GenericPlan::describe() const { return text_; }

std::size_t GenericPlan::workspace_bytes() const { return 2 * dense_bytes_ + 2 * padded_bytes_; }

GenericPlan::Workspace& GenericPlan::workspace_of(void* stream) const {
  const std::size_t thread =
      device_->thread_local_stream(stream) ? std::hash<std::thread::id>()(std::this_thread::get_id()) : 0;
  std::lock_guard<std::mutex> lock(workspaces_mutex_);
  for (auto& [key, w] : workspaces_)
    if (key.first == stream && key.second == thread) return *w;
  workspaces_.emplace_back(std::make_pair(stream, thread), spare_ ? std::move(spare_) : std::make_unique<Workspace>());
  return *workspaces_.back().second;
}

void GenericPlan::execute(const BufferImpl& in, const BufferImpl& out, void* stream) const {
  Workspace& w = workspace_of(stream);
  std::lock_guard<std::mutex> lock(w.order);
  make(w);
  for (const Step& s : steps_) {
    std::vector<KernelArg> args;
    args.reserve(s.args.size());
    for (const Arg& a : s.args) {
      if (a.table >= 0) {
        args.push_back(KernelArg::of(*tables_[static_cast<std::size_t>(a.table)]));
        continue;
      }
      switch (a.slot) {
        case Slot::In:
          args.push_back(KernelArg::of(in));
          break;
        case Slot::Out:
          args.push_back(KernelArg::of(out));
          break;
        case Slot::W0:
          args.push_back(KernelArg::of(*w.w0));
          break;
        case Slot::W1:
          args.push_back(KernelArg::of(*w.w1));
          break;
        case Slot::B0:
          args.push_back(KernelArg::of(*w.b0));
          break;
        case Slot::B1:
          args.push_back(KernelArg::of(*w.b1));
          break;
        case Slot::Table:
          args.push_back(a.value);
          break;
      }
    }
    device_->launch(*s.kernel, s.groups, s.group_size, s.local_bytes, args, stream, s.dynamic_local);
  }
}

}  // namespace bfly::detail
