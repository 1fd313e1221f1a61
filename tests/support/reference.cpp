#include "support/reference.hpp"

#include <fftw3.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <limits>
#include <random>
#include <stdexcept>

#include "support/tier.hpp"

namespace bfly::test {

namespace {

// The concurrency and fork tests call these helpers from several threads at
// once: FFTW's planner (plan creation and destruction) and the shared random
// engines are not thread-safe. (Three threads checking their transforms
// against FFTW while a fork landed crashed 18 runs of 30 in FFTW's planner:
// "planner.c: assertion failed", double frees.)
std::mutex& support_lock() {
  static std::mutex lock;
  return lock;
}

}  // namespace

std::vector<std::complex<float>> random_data(std::size_t count) {
  const std::lock_guard<std::mutex> lock(support_lock());
  static std::mt19937_64 engine = engine_for("random_data");
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<std::complex<float>> data(count);
  for (auto& v : data) v = {uniform(engine), uniform(engine)};
  return data;
}

std::vector<std::complex<double>> random_data_f64(std::size_t count) {
  const std::lock_guard<std::mutex> lock(support_lock());
  static std::mt19937_64 engine = engine_for("random_data_f64");
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<std::complex<double>> data(count);
  for (auto& v : data) v = {uniform(engine), uniform(engine)};
  return data;
}

std::vector<float> random_real_data(std::size_t count) {
  const std::lock_guard<std::mutex> lock(support_lock());
  static std::mt19937_64 engine = engine_for("random_real_data");
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<float> data(count);
  for (auto& v : data) v = uniform(engine);
  return data;
}

std::vector<double> random_real_data_f64(std::size_t count) {
  const std::lock_guard<std::mutex> lock(support_lock());
  static std::mt19937_64 engine = engine_for("random_real_data_f64");
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<double> data(count);
  for (auto& v : data) v = uniform(engine);
  return data;
}

void poison(std::vector<std::complex<double>>& data) {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  for (auto& v : data) v = {nan, nan};
}

void poison(std::vector<std::complex<float>>& data) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (auto& v : data) v = {nan, nan};
}

void poison(std::vector<float>& data) { std::fill(data.begin(), data.end(), std::numeric_limits<float>::quiet_NaN()); }
void poison(std::vector<double>& data) {
  std::fill(data.begin(), data.end(), std::numeric_limits<double>::quiet_NaN());
}

std::vector<std::complex<double>> fftw_reference(const std::vector<std::complex<float>>& input, std::int64_t length,
                                                 std::int64_t batch, Direction direction) {
  const std::lock_guard<std::mutex> lock(support_lock());
  std::vector<std::complex<double>> in(input.begin(), input.end()), out(input.size());
  const int n = static_cast<int>(length);
  fftw_plan plan = fftw_plan_many_dft(1, &n, static_cast<int>(batch), reinterpret_cast<fftw_complex*>(in.data()),
                                      nullptr, 1, n, reinterpret_cast<fftw_complex*>(out.data()), nullptr, 1, n,
                                      direction == Direction::Forward ? FFTW_FORWARD : FFTW_BACKWARD, FFTW_ESTIMATE);
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  return out;
}

namespace {

template <class T>
std::complex<double> as_complex(const std::complex<T>& v) {
  return {static_cast<double>(v.real()), static_cast<double>(v.imag())};
}
template <class T>
std::complex<double> as_complex(const T& v) {
  return {static_cast<double>(v), 0.0};
}

// Calls visit(batch, index, offset) for every logical element of an array of
// `shape` (times `batch`) in `layout`, row-major order.
template <class Visit>
void for_each_element(const std::vector<std::int64_t>& shape, std::int64_t batch, const Layout& layout, Visit&& visit) {
  std::int64_t count = batch;
  for (std::int64_t n : shape) count *= n;
  std::vector<std::int64_t> index(shape.size() + 1, 0);  // batch, then the axes
  for (std::int64_t i = 0; i < count; ++i) {
    std::int64_t offset = index[0] * layout.distance;
    for (std::size_t a = 0; a < shape.size(); ++a) {
      const std::int64_t i = index[a + 1];
      const Split& split = layout.split;  // (its blocks: Layout::split)
      offset += static_cast<int>(a) == split.axis
                    ? i / split.length * split.stride + i % split.length * layout.strides[a]
                    : i * layout.strides[a];
    }
    visit(index, offset);
    for (std::size_t k = shape.size() + 1; k-- > 0;) {
      const std::int64_t extent = k == 0 ? batch : shape[k - 1];
      if (++index[k] < extent) break;
      index[k] = 0;
    }
  }
}

// Every logical element (batch, i0, i1, ...) of the output layout, with its
// offset, picking the values from `out`.
template <class V>
Expected pick(const Problem& p, const std::vector<V>& out) {
  Expected e;
  e.offsets = element_offsets(p.output_shape(), p.batch, p.output_layout());
  e.values.reserve(e.offsets.size());
  for (std::int64_t offset : e.offsets) e.values.push_back(as_complex(out[static_cast<std::size_t>(offset)]));
  return e;
}

// FFTW's guru dims of a problem: transformed axes, then the others and the
// batch. FFTW's r2c / c2r halve the last of the transformed dims, so the real
// axis goes last; `n` is always the real length.
template <class Dim>
void guru_dims(const Problem& p, std::vector<Dim>* dims, std::vector<Dim>* loops) {
  const Layout in_layout = p.input_layout(), out_layout = p.output_layout();
  std::vector<int> axes = p.transform_axes();
  if (p.is_real()) {
    axes.erase(std::remove(axes.begin(), axes.end(), p.real_axis()), axes.end());
    axes.push_back(p.real_axis());
  }
  std::vector<bool> transformed(p.shape.size(), false);
  for (int a : axes) {
    transformed[a] = true;
    dims->push_back({p.shape[a], in_layout.strides[a], out_layout.strides[a]});
  }
  for (std::size_t a = 0; a < p.shape.size(); ++a)
    if (!transformed[a]) loops->push_back({p.shape[a], in_layout.strides[a], out_layout.strides[a]});
  loops->push_back({p.batch, in_layout.distance, out_layout.distance});
}

}  // namespace

std::vector<std::int64_t> element_offsets(const std::vector<std::int64_t>& shape, std::int64_t batch,
                                          const Layout& layout) {
  std::vector<std::int64_t> offsets;
  for_each_element(shape, batch, layout,
                   [&](const std::vector<std::int64_t>&, std::int64_t offset) { offsets.push_back(offset); });
  return offsets;
}

namespace {

void require(const Problem& p, Kind kind, const char* input) {
  if (p.kind != kind && !(kind == Kind::C2C && p.kind == Kind::C2R))
    throw std::invalid_argument(std::string("fftw_reference: ") + p.token() + " does not take " + input + " input");
}

template <class T>
void symmetrise(const Problem& p, std::vector<std::complex<T>>& data) {
  if (p.kind != Kind::C2R) throw std::invalid_argument("make_hermitian: " + p.token() + " is not c2r");
  const Layout layout = p.input_layout();
  const int real = p.real_axis();
  const std::int64_t n = p.shape[real];
  std::vector<bool> mirrored(p.shape.size(), false);
  for (int a : p.transform_axes()) mirrored[a] = a != real;
  for_each_element(p.input_shape(), p.batch, layout, [&](const std::vector<std::int64_t>& index, std::int64_t offset) {
    const std::int64_t k = index[real + 1];
    if (k != 0 && !(n % 2 == 0 && k == n / 2)) return;
    // The offset of X[-k]: every other transformed axis negated modulo its length.
    std::int64_t mirror = index[0] * layout.distance;
    for (std::size_t a = 0; a < p.shape.size(); ++a) {
      const std::int64_t i = index[a + 1];
      mirror += (mirrored[a] ? (p.shape[a] - i) % p.shape[a] : i) * layout.strides[a];
    }
    auto& x = data[static_cast<std::size_t>(offset)];
    auto& y = data[static_cast<std::size_t>(mirror)];
    if (offset == mirror)
      x = {x.real(), T(0)};
    else if (offset < mirror) {
      const std::complex<T> v = (x + std::conj(y)) / T(2);
      x = v;
      y = std::conj(v);
    }
  });
}

}  // namespace

void make_hermitian(const Problem& p, std::vector<std::complex<float>>& data) { symmetrise(p, data); }
void make_hermitian(const Problem& p, std::vector<std::complex<double>>& data) { symmetrise(p, data); }

namespace {

// An output split (Layout::split) is no FFTW layout: the values of the
// problem with a dense output, at the split layout's offsets (the same
// row-major order of the elements).
template <class V>
Expected split_reference(const Problem& p, const std::vector<V>& input) {
  Problem dense = p;
  dense.output = Layout{};
  Expected e = fftw_reference(dense, input);
  e.offsets = element_offsets(p.output_shape(), p.batch, p.output_layout());
  return e;
}

}  // namespace

Expected fftw_reference(const Problem& p, const std::vector<std::complex<float>>& input) {
  if (!p.output.split.none()) return split_reference(p, input);
  const std::lock_guard<std::mutex> lock(support_lock());
  require(p, Kind::C2C, "complex");
  std::vector<std::complex<double>> in(input.begin(), input.end());  // a copy: FFTW's c2r overwrites its input
  std::vector<fftw_iodim64> dims, loops;
  guru_dims(p, &dims, &loops);
  if (p.kind == Kind::C2R) {
    std::vector<double> out(static_cast<std::size_t>(p.output_extent()));
    fftw_plan plan =
        fftw_plan_guru64_dft_c2r(static_cast<int>(dims.size()), dims.data(), static_cast<int>(loops.size()),
                                 loops.data(), reinterpret_cast<fftw_complex*>(in.data()), out.data(), FFTW_ESTIMATE);
    if (!plan) throw std::runtime_error("FFTW cannot plan " + p.token());
    fftw_execute(plan);
    fftw_destroy_plan(plan);
    return pick(p, out);
  }
  std::vector<std::complex<double>> out(static_cast<std::size_t>(p.output_extent()));
  fftw_plan plan =
      fftw_plan_guru64_dft(static_cast<int>(dims.size()), dims.data(), static_cast<int>(loops.size()), loops.data(),
                           reinterpret_cast<fftw_complex*>(in.data()), reinterpret_cast<fftw_complex*>(out.data()),
                           p.direction == Direction::Forward ? FFTW_FORWARD : FFTW_BACKWARD, FFTW_ESTIMATE);
  if (!plan) throw std::runtime_error("FFTW cannot plan " + p.token());
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  return pick(p, out);
}

Expected fftw_reference(const Problem& p, const std::vector<float>& input) {
  const std::lock_guard<std::mutex> lock(support_lock());
  require(p, Kind::R2C, "real");
  std::vector<double> in(input.begin(), input.end());
  std::vector<std::complex<double>> out(static_cast<std::size_t>(p.output_extent()));
  std::vector<fftw_iodim64> dims, loops;
  guru_dims(p, &dims, &loops);
  fftw_plan plan =
      fftw_plan_guru64_dft_r2c(static_cast<int>(dims.size()), dims.data(), static_cast<int>(loops.size()), loops.data(),
                               in.data(), reinterpret_cast<fftw_complex*>(out.data()), FFTW_ESTIMATE);
  if (!plan) throw std::runtime_error("FFTW cannot plan " + p.token());
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  return pick(p, out);
}

Expected fftw_reference(const Problem& p, const std::vector<std::complex<double>>& input) {
  if (!p.output.split.none()) return split_reference(p, input);
  const std::lock_guard<std::mutex> lock(support_lock());
  require(p, Kind::C2C, "complex");
  std::vector<std::complex<long double>> in(input.begin(), input.end());  // a copy: FFTW's c2r overwrites its input
  std::vector<fftwl_iodim64> dims, loops;
  guru_dims(p, &dims, &loops);
  if (p.kind == Kind::C2R) {
    std::vector<long double> out(static_cast<std::size_t>(p.output_extent()));
    fftwl_plan plan =
        fftwl_plan_guru64_dft_c2r(static_cast<int>(dims.size()), dims.data(), static_cast<int>(loops.size()),
                                  loops.data(), reinterpret_cast<fftwl_complex*>(in.data()), out.data(), FFTW_ESTIMATE);
    if (!plan) throw std::runtime_error("FFTW (long double) cannot plan " + p.token());
    fftwl_execute(plan);
    fftwl_destroy_plan(plan);
    return pick(p, out);
  }
  std::vector<std::complex<long double>> out(static_cast<std::size_t>(p.output_extent()));
  fftwl_plan plan =
      fftwl_plan_guru64_dft(static_cast<int>(dims.size()), dims.data(), static_cast<int>(loops.size()), loops.data(),
                            reinterpret_cast<fftwl_complex*>(in.data()), reinterpret_cast<fftwl_complex*>(out.data()),
                            p.direction == Direction::Forward ? FFTW_FORWARD : FFTW_BACKWARD, FFTW_ESTIMATE);
  if (!plan) throw std::runtime_error("FFTW (long double) cannot plan " + p.token());
  fftwl_execute(plan);
  fftwl_destroy_plan(plan);
  return pick(p, out);
}

Expected fftw_reference(const Problem& p, const std::vector<double>& input) {
  const std::lock_guard<std::mutex> lock(support_lock());
  require(p, Kind::R2C, "real");
  std::vector<long double> in(input.begin(), input.end());
  std::vector<std::complex<long double>> out(static_cast<std::size_t>(p.output_extent()));
  std::vector<fftwl_iodim64> dims, loops;
  guru_dims(p, &dims, &loops);
  fftwl_plan plan =
      fftwl_plan_guru64_dft_r2c(static_cast<int>(dims.size()), dims.data(), static_cast<int>(loops.size()),
                                loops.data(), in.data(), reinterpret_cast<fftwl_complex*>(out.data()), FFTW_ESTIMATE);
  if (!plan) throw std::runtime_error("FFTW (long double) cannot plan " + p.token());
  fftwl_execute(plan);
  fftwl_destroy_plan(plan);
  return pick(p, out);
}

namespace {

// Relative L2 and max errors of y against r, accumulated one pair at a time.
class ErrorSum {
 public:
  void add(std::complex<double> y, std::complex<double> r) {
    if (!std::isfinite(y.real()) || !std::isfinite(y.imag())) finite_ = false;
    diff2_ += std::norm(y - r);
    ref2_ += std::norm(r);
    diff_max_ = std::max(diff_max_, std::abs(y - r));
    ref_max_ = std::max(ref_max_, std::abs(r));
  }
  Errors errors() const {
    Errors e;
    e.finite = finite_;
    e.relative_l2 = ref2_ > 0 ? std::sqrt(diff2_ / ref2_) : std::sqrt(diff2_);
    e.relative_max = ref_max_ > 0 ? diff_max_ / ref_max_ : diff_max_;
    if (!e.finite) e.relative_l2 = e.relative_max = std::numeric_limits<double>::infinity();
    return e;
  }

 private:
  double diff2_ = 0, ref2_ = 0, diff_max_ = 0, ref_max_ = 0;
  bool finite_ = true;
};

template <class V>
Errors compare_at(const std::vector<V>& result, const Expected& expected, double scale) {
  ErrorSum sum;
  for (std::size_t i = 0; i < expected.offsets.size(); ++i) {
    sum.add(as_complex(result[static_cast<std::size_t>(expected.offsets[i])]), expected.values[i] * scale);
  }
  return sum.errors();
}

}  // namespace

Errors compare(const std::vector<std::complex<double>>& result, const Expected& expected, double scale) {
  return compare_at(result, expected, scale);
}
Errors compare(const std::vector<std::complex<float>>& result, const Expected& expected, double scale) {
  return compare_at(result, expected, scale);
}
Errors compare(const std::vector<double>& result, const Expected& expected, double scale) {
  return compare_at(result, expected, scale);
}
Errors compare(const std::vector<float>& result, const Expected& expected, double scale) {
  return compare_at(result, expected, scale);
}

Errors compare(const std::vector<std::complex<float>>& result, const std::vector<std::complex<double>>& reference,
               double scale) {
  ErrorSum sum;
  for (std::size_t i = 0; i < result.size(); ++i) sum.add(as_complex(result[i]), reference[i] * scale);
  return sum.errors();
}

const Device* backend_device(const std::string& backend, std::string* why) {
  static std::map<std::string, std::pair<std::unique_ptr<Device>, std::string>> opened;
  auto found = opened.find(backend);
  if (found == opened.end()) {
    std::unique_ptr<Device> device;
    std::string reason;
    const char* pinned = std::getenv("BFLY_TEST_DEVICE");
    try {
      if (pinned && *pinned) {
        Device d = Device::open(pinned);
        if (d.info().backend == backend)
          device = std::make_unique<Device>(d);
        else
          reason = std::string("BFLY_TEST_DEVICE=") + pinned + " selects another backend";
      } else {
        for (const BackendStatus& status : Device::backends())
          if (status.backend == backend && status.devices == 0) reason = status.reason;
        if (reason.empty()) device = std::make_unique<Device>(Device::open(backend));
      }
    } catch (const Error& e) {
      reason = e.what();
    }
    found = opened.emplace(backend, std::make_pair(std::move(device), reason)).first;
  }
  if (why) *why = found->second.second;
  return found->second.first.get();
}

std::vector<std::int64_t> smooth_lengths(std::int64_t limit, int largest) {
  std::vector<std::int64_t> lengths;
  const std::int64_t e11 = largest >= 11 ? limit : 1, e13 = largest >= 13 ? limit : 1;
  for (std::int64_t a = 1; a <= limit; a *= 2)
    for (std::int64_t b = a; b <= limit; b *= 3)
      for (std::int64_t c = b; c <= limit; c *= 5)
        for (std::int64_t d = c; d <= limit; d *= 7)
          for (std::int64_t e = d; e <= limit && e / d <= e11; e *= 11)
            for (std::int64_t f = e; f <= limit && f / e <= e13; f *= 13) lengths.push_back(f);
  std::sort(lengths.begin(), lengths.end());
  return lengths;
}

}  // namespace bfly::test
