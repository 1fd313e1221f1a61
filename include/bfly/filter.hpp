// Frequency-domain image filtering through bfly's FFTs: low-, high- and
// band-pass masks (ideal, Gaussian, Butterworth), a Gaussian blur, and the
// centred log-magnitude spectrum. Images are planes of height x width
// doubles, row-major, one plane after another (a colour image's channels
// are planes); `bfly filter` reads and writes them as PNG or .npy.
//
// Frequencies are fractions of Nyquist (0.5 cycles a pixel): the radius of
// (f_y, f_x) over 0.5. Masks, for a cutoff F and radius rho:
//   ideal        rho <= F
//   gaussian     exp(-rho^2 / (2 F^2))
//   butterworth  1 / (1 + (rho / F)^(2 order))  (skimage.filters.butterworth
//                with cutoff_frequency_ratio = F / 2, squared as it is there)
// high-pass = 1 - low-pass; band-pass(F1, F2) = low-pass(F2) x high-pass(F1).
// The blur multiplies by exp(-2 pi^2 sigma^2 r^2), r in cycles a pixel: the
// transform of a Gaussian of sigma pixels.
//
// Borders: Padding::Wrap transforms the image as it is (the FFT's periodic
// extension; this is what skimage does with npad=0). Zero and Reflect first
// extend each side by half the image's length (zeros, or the image mirrored
// about its edge pixels as numpy.pad's "reflect"), then cut the result back.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "bfly/bfly.hpp"

namespace bfly {

enum class FilterMask { Ideal, Gaussian, Butterworth };
enum class Padding { Zero, Reflect, Wrap };
Padding parse_padding(const std::string& text);  // zero, reflect, wrap; throws naming the text

struct FrequencyFilter {
  enum class Pass { Low, High, Band, Blur } pass = Pass::Low;
  double low = 0;    // Low, High: the cutoff; Band: the lower edge (fractions of Nyquist)
  double high = 0;   // Band: the upper edge
  double sigma = 0;  // Blur: the Gaussian's sigma in pixels
  FilterMask mask = FilterMask::Butterworth;
  double order = 2;  // Butterworth
  Padding padding = Padding::Reflect;

  void validate() const;  // throws Error(InvalidArgument) naming the bad value
  // The mask's value at radius rho (a fraction of Nyquist).
  double response(double rho) const;
};

// Filters `planes` images of height x width in place.
void filter_images(const Device& device, const FrequencyFilter& filter, double* data, std::int64_t planes,
                   std::int64_t height, std::int64_t width);

// Convolves each plane with `kernel` (kh x kw, row-major), the result the
// plane's size, centred as scipy.signal.fftconvolve's mode "same"; the
// image beyond its borders is zero, its mirror (Reflect) or its periodic
// repetition (Wrap). Through bfly::Convolver (fp64, the planes a broadcast
// axis).
void convolve_images(const Device& device, const double* kernel, std::int64_t kernel_height, std::int64_t kernel_width,
                     Padding padding, double* data, std::int64_t planes, std::int64_t height, std::int64_t width);

// log(1 + |F|) of each plane, centred (the zero frequency in the middle, as
// numpy.fft.fftshift), height x width values a plane.
std::vector<double> log_spectrum(const Device& device, const double* data, std::int64_t planes, std::int64_t height,
                                 std::int64_t width);

}  // namespace bfly
