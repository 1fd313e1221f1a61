// bfly::convolve and bfly::correlate: linear (or circular) convolution of
// N-dimensional arrays through bfly's FFTs, with scipy.signal.fftconvolve's
// semantics.
//
//   bfly::Convolution c;                       // what to compute, as a value
//   c.signal_shape = {4096, 4096};
//   c.kernel_shape = {255, 255};
//   c.mode = bfly::ConvolveMode::Same;
//   bfly::Convolver conv(device, c);            // plans, compiles
//   conv.set_kernel(kernel.data());             // its spectrum, kept on the device
//   conv.execute_host(image.data(), out.data()); // as often as wanted
//
// Shapes (exactly as scipy.signal.fftconvolve): both arrays have the same
// rank; `axes` (all by default) are convolved; on every other axis the
// lengths are equal or one of them is 1 (broadcast). An axis where either
// array has length 1 is multiplied by broadcasting, not transformed. Output
// along a convolved axis of lengths n (signal) and m (kernel):
//   full   n + m - 1
//   same   n, centred in the full result as SciPy centres it (the full
//          result's elements from (m - 1) / 2, rounding down); also on
//          broadcast axes, where SciPy keeps the signal's length
//   valid  |n - m| + 1: the elements that need no zero padding. One array
//          must be at least as long as the other on every convolved axis;
//          SciPy swaps them when the kernel is the larger, and so does bfly.
// Correlation is the convolution with the kernel reversed along the
// convolved axes and conjugated (scipy.signal.correlate with method="fft",
// whose only axes are all of them). Circular convolution (`circular`) wraps
// the kernel onto the signal's lengths and returns the signal's shape
// (numpy.fft.ifftn(fftn(a) * fftn(k, a.shape)) for a kernel no longer than
// the signal).
//
// Real arrays give real results (real-to-complex transforms inside), complex
// ones complex; both arrays have the element type of the convolver. The
// transforms run over zero-padded lengths whose factors are 2, 3, 5 and 7
// only (the fastest bfly has); the pointwise product of the spectra and the
// 1/N of the inverse run on the device. A 1D signal far longer than its
// kernel is convolved by overlap-save (scipy.signal.oaconvolve's case):
// blocks of a few times the kernel's length, one batched transform, where
// the cost model in ops/convolution.cpp (x log2 x a transform of x points)
// finds it cheaper than one transform of the whole; describe() says which.
#pragma once

#include <complex>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "bfly/bfly.hpp"

namespace bfly {

enum class ConvolveMode { Full, Same, Valid };
const char* to_string(ConvolveMode mode);                   // "full", "same", "valid"
ConvolveMode parse_convolve_mode(const std::string& text);  // throws Error naming the text

// Where the pointwise product of the two spectra runs (Convolver::product_fused):
// Auto, the inverse FFT's first loads where they can take it, else the
// signal's forward FFT's last stores, else a pass of its own; the others
// allow only that place (or a pass of its own where it cannot), to measure
// the difference and to test each path.
enum class ProductAt { Auto, InverseLoads, ForwardStores, OwnPass };
ProductAt parse_product_at(const std::string& text);  // auto, loads, stores or pass; throws Error naming the text

// One convolution, as a value.
struct Convolution {
  std::vector<std::int64_t> signal_shape{1};  // rank 1..4, outermost first
  std::vector<std::int64_t> kernel_shape{1};  // the same rank
  std::vector<int> axes;                      // convolved axes; empty: all; negative counts from the end
  ConvolveMode mode = ConvolveMode::Full;
  bool correlate = false;
  bool circular = false;  // period: the signal's length on each convolved axis
  Precision precision = Precision::Single;
  bool complex = false;                 // complex arrays (else real)
  ProductAt product = ProductAt::Auto;  // where the spectra's product may run

  // Throws Error(InvalidArgument) naming the bad value: ranks, lengths,
  // axes, shapes that do not broadcast, a valid mode where neither array
  // covers the other, a circular kernel with a non-broadcast axis longer
  // than the signal's... every case SciPy rejects too.
  void validate() const;
  std::vector<std::int64_t> output_shape() const;
  std::int64_t signal_elements() const;
  std::int64_t kernel_elements() const;
  std::int64_t output_elements() const;
  std::string describe() const;  // one line: shapes, mode, padded transform shape
};

namespace detail {
class ConvolverImpl;
}

// A planned convolution on a device: the transforms compiled once, the
// kernel's spectrum computed once by set_kernel and reused by every execute.
// Not for concurrent use from several threads (its buffers are its own).
class Convolver {
 public:
  Convolver(const Device& device, const Convolution& convolution);
  ~Convolver();
  Convolver(Convolver&&) noexcept;
  Convolver& operator=(Convolver&&) noexcept;

  const Convolution& convolution() const;
  std::vector<std::int64_t> transform_shape() const;  // the zero-padded array the FFTs run over
  // Whether the pointwise product rides on a transform's pass (no pass of
  // its own): the inverse FFT's first loads, or else the signal's forward
  // FFT's last stores. It does unless the signal is broadcast against
  // several kernels, the kernel broadcasts along an inner axis, or neither
  // pass is of a kind that can take it (a cluster, a plane, a staged or
  // chained pass, Bluestein or Rader); then the product is a pass of its own.
  bool product_fused() const;
  // Where the product runs: "inverse's first loads", "forward's last stores"
  // or "a pass of its own".
  std::string product_placement() const;

  // The kernel: kernel_elements() elements, row-major, of the convolver's
  // type (float / double for real convolutions, complex otherwise). Throws
  // Error(InvalidArgument) for the wrong type.
  void set_kernel(const float* kernel);
  void set_kernel(const double* kernel);
  void set_kernel(const std::complex<float>* kernel);
  void set_kernel(const std::complex<double>* kernel);

  // On the device: `signal` holds signal_elements() elements of the
  // convolver's type, `out` receives output_elements(); both on its device.
  // Enqueued on the device's own queue (the zero padding, the transforms,
  // the product and the cut are all kernels): device.synchronize() waits.
  void execute(const Buffer& signal, const Buffer& out) const;

  // signal: signal_elements() elements; out: output_elements(). Blocking.
  // Throws Error(InvalidArgument) before set_kernel, or for the wrong type.
  void execute_host(const float* signal, float* out) const;
  void execute_host(const double* signal, double* out) const;
  void execute_host(const std::complex<float>* signal, std::complex<float>* out) const;
  void execute_host(const std::complex<double>* signal, std::complex<double>* out) const;

 private:
  std::unique_ptr<detail::ConvolverImpl> impl_;
};

// One-shot forms: plan, set the kernel, execute. `convolution.complex` and
// `precision` must match T.
template <class T>
std::vector<T> convolve(const Device& device, Convolution convolution, const T* signal, const T* kernel);
template <class T>
std::vector<T> correlate(const Device& device, Convolution convolution, const T* signal, const T* kernel);

}  // namespace bfly
