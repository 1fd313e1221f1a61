// Frequency-domain filters (include/bfly/filter.hpp): the planes padded on
// the host, one batched R2C / C2R pair over their two axes in fp64, the mask
// applied to the half spectra on the host.
#include <bfly/convolve.hpp>
#include <bfly/filter.hpp>

#include "ops/convolution_layout.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <sstream>

namespace bfly {
namespace {

// A double as a person would write it (1.5, not 1.500000).
std::string number(double v) {
  std::ostringstream out;
  out << v;
  return out.str();
}

}  // namespace

Padding parse_padding(const std::string& text) {
  if (text == "zero") return Padding::Zero;
  if (text == "reflect") return Padding::Reflect;
  if (text == "wrap") return Padding::Wrap;
  throw Error(ErrorCode::InvalidArgument, "unknown padding '" + text + "' (expected zero, reflect or wrap)");
}

void FrequencyFilter::validate() const {
  auto fraction = [](double f, const char* what) {
    if (!(f > 0 && f <= 1))
      throw Error(ErrorCode::InvalidArgument,
                  std::string(what) + " " + number(f) + " is not a fraction of Nyquist in (0, 1]");
  };
  switch (pass) {
    case Pass::Low:
    case Pass::High:
      fraction(low, "cutoff");
      break;
    case Pass::Band:
      fraction(low, "band edge");
      fraction(high, "band edge");
      if (!(low < high))
        throw Error(ErrorCode::InvalidArgument,
                    "band " + number(low) + "," + number(high) + ": the lower edge must be below the upper");
      break;
    case Pass::Blur:
      if (!(sigma > 0 && std::isfinite(sigma)))
        throw Error(ErrorCode::InvalidArgument, "blur sigma " + number(sigma) + " (must be positive)");
      break;
  }
  if (mask == FilterMask::Butterworth && !(order > 0 && std::isfinite(order)))
    throw Error(ErrorCode::InvalidArgument, "Butterworth order " + number(order) + " (must be positive)");
}

namespace {

double low_pass(FilterMask mask, double order, double cutoff, double rho) {
  switch (mask) {
    case FilterMask::Ideal:
      return rho <= cutoff ? 1.0 : 0.0;
    case FilterMask::Gaussian:
      return std::exp(-rho * rho / (2 * cutoff * cutoff));
    case FilterMask::Butterworth:
      return 1.0 / (1.0 + std::pow(rho / cutoff, 2 * order));
  }
  return 1.0;
}

// The padded length of one axis: half the length each side, then up to a
// 7-smooth length (the fastest bfly has); Wrap keeps the length.
std::int64_t padded_length(std::int64_t n, Padding padding) {
  return padding == Padding::Wrap ? n : ops::fast_length(2 * n);
}

// numpy.pad's "reflect" index: mirrored about the edge pixels, repeatedly.
std::int64_t reflect(std::int64_t i, std::int64_t n) {
  if (n == 1) return 0;
  const std::int64_t period = 2 * (n - 1);
  i %= period;
  if (i < 0) i += period;
  return i < n ? i : period - i;
}

}  // namespace

double FrequencyFilter::response(double rho) const {
  switch (pass) {
    case Pass::Low:
      return low_pass(mask, order, low, rho);
    case Pass::High:
      return 1.0 - low_pass(mask, order, low, rho);
    case Pass::Band:
      return low_pass(mask, order, high, rho) * (1.0 - low_pass(mask, order, low, rho));
    case Pass::Blur: {
      const double r = 0.5 * rho;  // cycles a pixel
      return std::exp(-2.0 * M_PI * M_PI * sigma * sigma * r * r);
    }
  }
  return 1.0;
}

void filter_images(const Device& device, const FrequencyFilter& filter, double* data, std::int64_t planes,
                   std::int64_t height, std::int64_t width) {
  filter.validate();
  if (planes < 1 || height < 1 || width < 1)
    throw Error(ErrorCode::InvalidArgument, "filter: " + std::to_string(planes) + " planes of " +
                                                std::to_string(height) + "x" + std::to_string(width));
  const std::int64_t ph = padded_length(height, filter.padding), pw = padded_length(width, filter.padding);
  // The image at the middle of its padded array (offsets oy, ox).
  const std::int64_t oy = (ph - height) / 2, ox = (pw - width) / 2;
  std::vector<double> padded(static_cast<std::size_t>(planes * ph * pw), 0.0);
  for (std::int64_t p = 0; p < planes; ++p)
    for (std::int64_t y = 0; y < ph; ++y)
      for (std::int64_t x = 0; x < pw; ++x) {
        std::int64_t sy = y - oy, sx = x - ox;
        if (filter.padding == Padding::Reflect) sy = reflect(sy, height), sx = reflect(sx, width);
        if (sy < 0 || sy >= height || sx < 0 || sx >= width) continue;  // zero
        padded[(p * ph + y) * pw + x] = data[(p * height + sy) * width + sx];
      }
  Problem forward;
  forward.kind = Kind::R2C;
  forward.shape = {planes, ph, pw};
  forward.axes = {1, 2};
  forward.precision = Precision::Double;
  Problem inverse = forward;
  inverse.kind = Kind::C2R;
  inverse.direction = Direction::Inverse;
  inverse.norm = Norm::Backward;
  const Plan r2c(device, forward), c2r(device, inverse);
  const std::int64_t hw = pw / 2 + 1;
  std::vector<std::complex<double>> spectrum(static_cast<std::size_t>(planes * ph * hw));
  r2c.execute_host(padded.data(), spectrum.data());
  std::vector<double> row_response(static_cast<std::size_t>(ph * hw));
  for (std::int64_t y = 0; y < ph; ++y) {
    const double fy = static_cast<double>(y <= (ph - 1) / 2 ? y : y - ph) / static_cast<double>(ph);
    for (std::int64_t x = 0; x < hw; ++x) {
      const double fx = static_cast<double>(x) / static_cast<double>(pw);
      row_response[y * hw + x] = filter.response(std::sqrt(fy * fy + fx * fx) / 0.5);
    }
  }
  for (std::int64_t p = 0; p < planes; ++p)
    for (std::int64_t i = 0; i < ph * hw; ++i) spectrum[p * ph * hw + i] *= row_response[i];
  c2r.execute_host(spectrum.data(), padded.data());
  for (std::int64_t p = 0; p < planes; ++p)
    for (std::int64_t y = 0; y < height; ++y)
      for (std::int64_t x = 0; x < width; ++x)
        data[(p * height + y) * width + x] = padded[(p * ph + y + oy) * pw + x + ox];
}

void convolve_images(const Device& device, const double* kernel, std::int64_t kh, std::int64_t kw, Padding padding,
                     double* data, std::int64_t planes, std::int64_t height, std::int64_t width) {
  if (kh < 1 || kw < 1)
    throw Error(ErrorCode::InvalidArgument,
                "filter: an empty kernel (" + std::to_string(kh) + "x" + std::to_string(kw) + ")");
  Convolution c;
  c.kernel_shape = {1, kh, kw};
  c.axes = {1, 2};
  c.precision = Precision::Double;
  if (padding == Padding::Zero) {
    c.signal_shape = {planes, height, width};
    c.mode = ConvolveMode::Same;
    const std::vector<double> out = convolve(device, c, data, kernel);
    std::copy(out.begin(), out.end(), data);
    return;
  }
  // Extended by kh - 1 rows and kw - 1 columns, then 'valid': the same
  // centring as mode same (SciPy's: (k - 1) / 2 before, the rest after).
  const std::int64_t top = kh - 1 - (kh - 1) / 2, left = kw - 1 - (kw - 1) / 2;
  const std::int64_t eh = height + kh - 1, ew = width + kw - 1;
  auto source = [&](std::int64_t i, std::int64_t n) {
    return padding == Padding::Reflect ? reflect(i, n) : ((i % n) + n) % n;
  };
  std::vector<double> extended(static_cast<std::size_t>(planes * eh * ew));
  for (std::int64_t p = 0; p < planes; ++p)
    for (std::int64_t y = 0; y < eh; ++y)
      for (std::int64_t x = 0; x < ew; ++x)
        extended[(p * eh + y) * ew + x] =
            data[(p * height + source(y - top, height)) * width + source(x - left, width)];
  c.signal_shape = {planes, eh, ew};
  c.mode = ConvolveMode::Valid;
  const std::vector<double> out = convolve(device, c, extended.data(), kernel);
  std::copy(out.begin(), out.end(), data);
}

std::vector<double> log_spectrum(const Device& device, const double* data, std::int64_t planes, std::int64_t height,
                                 std::int64_t width) {
  Problem forward;
  forward.shape = {planes, height, width};
  forward.axes = {1, 2};
  forward.precision = Precision::Double;
  const Plan plan(device, forward);
  std::vector<std::complex<double>> in(static_cast<std::size_t>(planes * height * width)), out(in.size());
  for (std::size_t i = 0; i < in.size(); ++i) in[i] = data[i];
  plan.execute_host(in.data(), out.data());
  std::vector<double> result(in.size());
  // fftshift: frequency k lands at (k + n / 2) mod n.
  for (std::int64_t p = 0; p < planes; ++p)
    for (std::int64_t y = 0; y < height; ++y)
      for (std::int64_t x = 0; x < width; ++x) {
        const std::int64_t ty = (y + height / 2) % height, tx = (x + width / 2) % width;
        result[(p * height + ty) * width + tx] = std::log1p(std::abs(out[(p * height + y) * width + x]));
      }
  return result;
}

}  // namespace bfly
