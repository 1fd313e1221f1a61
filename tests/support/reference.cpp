#include "support/reference.hpp"

#include <fftw3.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>
#include <limits>
#include <random>
#include <stdexcept>

namespace bfly::test {

std::vector<std::complex<float>> random_data(std::size_t count) {
  static std::mt19937_64 engine{std::random_device{}()};
  std::uniform_real_distribution<float> uniform(-1.0f, 1.0f);
  std::vector<std::complex<float>> data(count);
  for (auto& v : data) v = {uniform(engine), uniform(engine)};
  return data;
}

std::vector<std::complex<double>> random_data_f64(std::size_t count) {
  static std::mt19937_64 engine{std::random_device{}()};
  std::uniform_real_distribution<double> uniform(-1.0, 1.0);
  std::vector<std::complex<double>> data(count);
  for (auto& v : data) v = {uniform(engine), uniform(engine)};
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

std::vector<std::complex<double>> fftw_reference(const std::vector<std::complex<float>>& input, std::int64_t length,
                                                 std::int64_t batch, Direction direction) {
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

// Every logical element (batch, i0, i1, ...) of the output layout, with its
// offset, picking the values from `out`.
template <class C>
Expected pick(const Problem& p, const std::vector<C>& out) {
  const Layout out_layout = p.output_layout();
  Expected e;
  std::vector<std::int64_t> index(p.shape.size() + 1, 0);
  for (std::int64_t count = 0; count < p.elements(); ++count) {
    std::int64_t offset = index[0] * out_layout.distance;
    for (std::size_t a = 0; a < p.shape.size(); ++a) offset += index[a + 1] * out_layout.strides[a];
    e.offsets.push_back(offset);
    const C& v = out[static_cast<std::size_t>(offset)];
    e.values.push_back({static_cast<double>(v.real()), static_cast<double>(v.imag())});
    for (std::size_t k = p.shape.size() + 1; k-- > 0;) {
      const std::int64_t extent = k == 0 ? p.batch : p.shape[k - 1];
      if (++index[k] < extent) break;
      index[k] = 0;
    }
  }
  return e;
}

// FFTW's guru dims of a problem: transformed axes, then the others and the batch.
template <class Dim>
void guru_dims(const Problem& p, std::vector<Dim>* dims, std::vector<Dim>* loops) {
  const Layout in_layout = p.input_layout(), out_layout = p.output_layout();
  std::vector<bool> transformed(p.shape.size(), false);
  for (int a : p.transform_axes()) transformed[a] = true;
  for (std::size_t a = 0; a < p.shape.size(); ++a) {
    const Dim d{p.shape[a], in_layout.strides[a], out_layout.strides[a]};
    (transformed[a] ? dims : loops)->push_back(d);
  }
  loops->push_back({p.batch, in_layout.distance, out_layout.distance});
}

}  // namespace

Expected fftw_reference(const Problem& p, const std::vector<std::complex<float>>& input) {
  std::vector<std::complex<double>> in(input.begin(), input.end());
  std::vector<std::complex<double>> out(static_cast<std::size_t>(p.output_extent()));
  std::vector<fftw_iodim64> dims, loops;
  guru_dims(p, &dims, &loops);
  fftw_plan plan = fftw_plan_guru64_dft(static_cast<int>(dims.size()), dims.data(), static_cast<int>(loops.size()),
                                        loops.data(), reinterpret_cast<fftw_complex*>(in.data()),
                                        reinterpret_cast<fftw_complex*>(out.data()),
                                        p.direction == Direction::Forward ? FFTW_FORWARD : FFTW_BACKWARD, FFTW_ESTIMATE);
  if (!plan) throw std::runtime_error("FFTW cannot plan " + p.token());
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  return pick(p, out);
}

Expected fftw_reference(const Problem& p, const std::vector<std::complex<double>>& input) {
  std::vector<std::complex<long double>> in(input.begin(), input.end());
  std::vector<std::complex<long double>> out(static_cast<std::size_t>(p.output_extent()));
  std::vector<fftwl_iodim64> dims, loops;
  guru_dims(p, &dims, &loops);
  fftwl_plan plan = fftwl_plan_guru64_dft(static_cast<int>(dims.size()), dims.data(), static_cast<int>(loops.size()),
                                          loops.data(), reinterpret_cast<fftwl_complex*>(in.data()),
                                          reinterpret_cast<fftwl_complex*>(out.data()),
                                          p.direction == Direction::Forward ? FFTW_FORWARD : FFTW_BACKWARD, FFTW_ESTIMATE);
  if (!plan) throw std::runtime_error("FFTW (long double) cannot plan " + p.token());
  fftwl_execute(plan);
  fftwl_destroy_plan(plan);
  return pick(p, out);
}

Errors compare(const std::vector<std::complex<double>>& result, const Expected& expected, double scale) {
  Errors e;
  double diff2 = 0, ref2 = 0, diff_max = 0, ref_max = 0;
  for (std::size_t i = 0; i < expected.offsets.size(); ++i) {
    const std::complex<double> y = result[static_cast<std::size_t>(expected.offsets[i])];
    const std::complex<double> r = expected.values[i] * scale;
    if (!std::isfinite(y.real()) || !std::isfinite(y.imag())) e.finite = false;
    diff2 += std::norm(y - r);
    ref2 += std::norm(r);
    diff_max = std::max(diff_max, std::abs(y - r));
    ref_max = std::max(ref_max, std::abs(r));
  }
  e.relative_l2 = ref2 > 0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2);
  e.relative_max = ref_max > 0 ? diff_max / ref_max : diff_max;
  if (!e.finite) e.relative_l2 = e.relative_max = std::numeric_limits<double>::infinity();
  return e;
}

Errors compare(const std::vector<std::complex<float>>& result, const Expected& expected, double scale) {
  std::vector<std::complex<float>> picked(expected.offsets.size());
  for (std::size_t i = 0; i < picked.size(); ++i) picked[i] = result[static_cast<std::size_t>(expected.offsets[i])];
  return compare(picked, expected.values, scale);
}

Errors compare(const std::vector<std::complex<float>>& result, const std::vector<std::complex<double>>& reference,
               double scale) {
  Errors e;
  double diff2 = 0, ref2 = 0, diff_max = 0, ref_max = 0;
  for (std::size_t i = 0; i < result.size(); ++i) {
    const std::complex<double> y(result[i].real(), result[i].imag());
    const std::complex<double> r = reference[i] * scale;
    if (!std::isfinite(y.real()) || !std::isfinite(y.imag())) e.finite = false;
    diff2 += std::norm(y - r);
    ref2 += std::norm(r);
    diff_max = std::max(diff_max, std::abs(y - r));
    ref_max = std::max(ref_max, std::abs(r));
  }
  e.relative_l2 = ref2 > 0 ? std::sqrt(diff2 / ref2) : std::sqrt(diff2);
  e.relative_max = ref_max > 0 ? diff_max / ref_max : diff_max;
  if (!e.finite) e.relative_l2 = e.relative_max = std::numeric_limits<double>::infinity();
  return e;
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
        if (d.info().backend == backend) device = std::make_unique<Device>(d);
        else reason = std::string("BFLY_TEST_DEVICE=") + pinned + " selects another backend";
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
