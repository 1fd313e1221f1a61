// The Convolver: the signal's and the kernel's forward FFTs, the pointwise
// product, the inverse FFT, and the cut of the result (ops/convolution.cpp).
// The kernel's spectrum carries the inverse's 1/N (its plan is normalised
// forward). Where the spectra line up, the product rides on the inverse
// FFT's first loads or else on the signal's forward FFT's last stores
// (runtime/fused_plan.hpp), whichever pass can take it; otherwise (the
// signal broadcast against several kernels, a kernel broadcast along an
// inner axis, passes of other kinds) it is a pass of its own
// (codegen/multiply_kernel.hpp). The zero padding and the
// cut are box copies on the device (codegen/box_copy_kernel.hpp).
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <type_traits>

#include "backends/device_impl.hpp"
#include "codegen/box_copy_kernel.hpp"
#include "codegen/multiply_kernel.hpp"
#include "ops/convolution_layout.hpp"
#include "runtime/fused_plan.hpp"

namespace bfly {
namespace detail {
namespace {

template <class T>
struct Traits {
  static constexpr bool complex = false;
  static constexpr Precision precision = std::is_same<T, double>::value ? Precision::Double : Precision::Single;
};
template <class R>
struct Traits<std::complex<R>> {
  static constexpr bool complex = true;
  static constexpr Precision precision = Traits<R>::precision;
};

template <class T>
T conj_of(const T& v) {
  if constexpr (Traits<T>::complex)
    return std::conj(v);
  else
    return v;
}

using ops::product_of;
using ops::strides_of;

// Calls f(index, offset in `shape`) for every multi-index of `extent`, row-major.
template <class F>
void for_each_index(const std::vector<std::int64_t>& extent, F&& f) {
  const int rank = static_cast<int>(extent.size());
  if (product_of(extent) == 0) return;
  std::vector<std::int64_t> index(rank, 0);
  for (;;) {
    f(index);
    int a = rank - 1;
    while (a >= 0 && ++index[a] == extent[a]) index[a--] = 0;
    if (a < 0) return;
  }
}

}  // namespace

class ConvolverImpl {
 public:
  ConvolverImpl(const Device& device, const Convolution& c) : device_(device), c_(c), l_(ops::layout(c)) {
    if (l_.axes.empty()) return;  // a broadcast product: no transform (run on the host)
    const Kind forward = c.complex ? Kind::C2C : Kind::R2C, inverse = c.complex ? Kind::C2C : Kind::C2R;
    auto problem = [&](Kind kind, const std::vector<std::int64_t>& shape, Direction direction, Norm norm = Norm::None) {
      Problem p;
      p.norm = norm;
      p.kind = kind;
      p.shape = shape;
      // Ascending: the last is the real transforms' halved axis. The
      // overlap-save blocks (rank 2) transform their axis 1.
      p.axes = shape.size() == 2 && l_.blocks ? std::vector<int>{1} : l_.axes;
      p.precision = c.precision;
      p.direction = direction;
      return p;
    };
    // Overlap-save: the blocks are a batch axis before the transformed one.
    const std::vector<std::int64_t> blocks_shape{l_.blocks, l_.block};
    const Problem signal = problem(forward, l_.blocks ? blocks_shape : l_.signal_padded, Direction::Forward);
    const Problem kernel = problem(forward, l_.kernel_padded, Direction::Forward, Norm::Forward);
    const Problem inverse_problem = problem(inverse, l_.blocks ? blocks_shape : l_.product, Direction::Inverse);
    // The loads first: the inverse's first pass reads its input anyway, and
    // the product's loads go out beside those, where the forward's last
    // stores would wait for them after the butterflies (H100, 4096^2 with
    // 255^2 in 4374^2 FFTs: fused into the column pass's stores 1.04 ms,
    // as a pass of its own 0.85 ms).
    const std::int64_t period = c.product == ProductAt::OwnPass ? -1 : fused_period(signal, kernel, inverse_problem);
    const ProductAt where = c.product;
    inverse_plan_.emplace(device, inverse_problem, where == ProductAt::ForwardStores ? -1 : period, FuseAt::FirstLoads);
    signal_plan_.emplace(device, signal, inverse_plan_->fused() || where == ProductAt::InverseLoads ? -1 : period,
                         FuseAt::LastStores);
    kernel_plan_.emplace(device, kernel);
    const std::size_t real_bytes = c.precision == Precision::Double ? 8 : 4;
    const std::size_t point = c.complex ? 2 * real_bytes : real_bytes;
    const std::size_t cpx = 2 * real_bytes;
    auto buffer = [&](std::int64_t elements, std::size_t bytes) {
      return Buffer(device, static_cast<std::size_t>(std::max<std::int64_t>(1, elements)) * bytes);
    };
    signal_in_.emplace(buffer(signal_plan_->problem().input_extent(), point));
    signal_spectrum_.emplace(buffer(signal_plan_->problem().output_extent(), cpx));
    kernel_spectrum_.emplace(buffer(kernel_plan_->problem().output_extent(), cpx));
    if (inverse_plan_->problem().input_shape() != signal_plan_->problem().output_shape())
      product_spectrum_.emplace(buffer(inverse_plan_->problem().input_extent(), cpx));
    result_.emplace(buffer(inverse_plan_->problem().output_extent(), point));
    if (l_.blocks) {
      // The signal with m - 1 zeros before it and zeros up to the last block's end.
      extended_.emplace(buffer((l_.blocks - 1) * l_.step + l_.block, point));
      linear_.emplace(buffer(product_of(l_.product), point));
    }
    DeviceImpl& impl = *device.impl();
    const std::string name = codegen::multiply_kernel_name(c.precision);
    multiply_ = impl.memo<KernelImpl>("kernel:" + name, [&] {
      return impl.compile(codegen::generate_multiply(impl.dialect(), c.precision), name).kernel;
    });
    const int bytes = static_cast<int>(point);
    const std::string copy = codegen::box_copy_kernel_name(bytes);
    box_copy_ = impl.memo<KernelImpl>(
        "kernel:" + copy, [&] { return impl.compile(codegen::generate_box_copy(impl.dialect(), bytes), copy).kernel; });
  }

  std::size_t element_bytes() const { return (c_.precision == Precision::Double ? 8 : 4) * (c_.complex ? 2 : 1); }

  const Convolution& convolution() const { return c_; }
  bool fused() const { return (signal_plan_ && signal_plan_->fused()) || (inverse_plan_ && inverse_plan_->fused()); }

  std::string placement() const {
    if (inverse_plan_ && inverse_plan_->fused()) return "inverse's first loads";
    if (signal_plan_ && signal_plan_->fused()) return "forward's last stores";
    return "a pass of its own";
  }

  // The period of the kernel's spectrum in the signal's (the signal's
  // spectrum o times the kernel's o % period), or -1 where the two do not
  // line up so: the product then is larger than the signal's spectrum (one
  // signal against several kernels), or the kernel broadcasts along an axis
  // inside one it does not.
  static std::int64_t fused_period(const Problem& signal, const Problem& kernel, const Problem& inverse) {
    const std::vector<std::int64_t> s = signal.output_shape();
    std::vector<std::int64_t> k = kernel.output_shape();
    if (inverse.input_shape() != s || k.size() > s.size()) return -1;
    k.insert(k.begin(), s.size() - k.size(), 1);  // right-aligned: overlap-save's one block against the blocks
    std::size_t a = 0;
    while (a < k.size() && k[a] == 1 && s[a] != 1) ++a;  // leading broadcast axes
    for (std::size_t b = a; b < k.size(); ++b)
      if (k[b] != s[b]) return -1;
    const std::int64_t period = product_of(k);
    return period == product_of(s) ? 0 : period;
  }
  const ops::ConvolutionLayout& layout() const { return l_; }

  template <class T>
  void check_type(const char* what) const {
    if (Traits<T>::complex != c_.complex || Traits<T>::precision != c_.precision)
      throw Error(ErrorCode::InvalidArgument, std::string("Convolver::") + what + ": the elements' type (" +
                                                  (Traits<T>::complex ? "complex " : "real ") +
                                                  to_string(Traits<T>::precision) + ") is not the convolution's (" +
                                                  (c_.complex ? "complex " : "real ") + to_string(c_.precision) + ")");
  }

  template <class T>
  void set_kernel(const T* kernel) {
    check_type<T>("set_kernel");
    // Arranged at its own size, padded on the device: the padded array is
    // the whole transform (4374^2 points for a 255^2 kernel on a 4096^2
    // image), too much to build and send from the host. A circular
    // correlation wraps its reversed kernel across the padded lengths, so
    // that one is arranged at the padded size.
    const bool wrapped = c_.circular && c_.correlate;
    const std::vector<std::int64_t>& extents = wrapped ? l_.kernel_padded : c_.kernel_shape;
    const std::vector<T> k = arranged_kernel(kernel, extents);
    if (l_.axes.empty()) {
      host_kernel_.resize(k.size() * sizeof(T));
      std::memcpy(host_kernel_.data(), k.data(), host_kernel_.size());
      has_kernel_ = true;
      return;
    }
    Buffer staging(device_, k.size() * sizeof(T));
    staging.write(k.data(), k.size() * sizeof(T));
    if (wrapped) {
      kernel_plan_->execute(staging, *kernel_spectrum_);
    } else {
      Buffer padded(device_, static_cast<std::size_t>(product_of(l_.kernel_padded)) * sizeof(T));
      box_copy(padded, staging, l_.kernel_padded, c_.kernel_shape, std::vector<std::int64_t>(l_.rank, 0));
      kernel_plan_->execute(padded, *kernel_spectrum_);
    }
    device_.synchronize();
    has_kernel_ = true;
  }

  template <class T>
  void execute_host(const T* signal, T* out) const {
    check_type<T>("execute_host");
    if (!has_kernel_)
      throw Error(ErrorCode::InvalidArgument, "Convolver::execute_host: no kernel (call set_kernel first)");
    if (l_.axes.empty()) return broadcast_product(signal, out);
    if (!host_signal_) {
      host_signal_.emplace(device_, static_cast<std::size_t>(c_.signal_elements()) * sizeof(T));
      host_out_.emplace(device_, static_cast<std::size_t>(c_.output_elements()) * sizeof(T));
    }
    host_signal_->write(signal, static_cast<std::size_t>(c_.signal_elements()) * sizeof(T));
    execute(*host_signal_, *host_out_);
    host_out_->read(out, static_cast<std::size_t>(c_.output_elements()) * sizeof(T));
  }

  // On device buffers: pad, forward FFT, product, inverse FFT, cut; enqueued.
  void execute(const Buffer& signal, const Buffer& out) const {
    if (!has_kernel_) throw Error(ErrorCode::InvalidArgument, "Convolver::execute: no kernel (call set_kernel first)");
    const std::size_t in_bytes = static_cast<std::size_t>(c_.signal_elements()) * element_bytes();
    const std::size_t out_bytes = static_cast<std::size_t>(c_.output_elements()) * element_bytes();
    if (signal.bytes() < in_bytes || out.bytes() < out_bytes)
      throw Error(ErrorCode::InvalidArgument, "Convolver::execute: buffers of " + std::to_string(signal.bytes()) +
                                                  " and " + std::to_string(out.bytes()) + " bytes; the signal needs " +
                                                  std::to_string(in_bytes) + " and the result " +
                                                  std::to_string(out_bytes));
    if (l_.axes.empty()) {
      // No transform: the broadcast product, on the host (nothing to gain).
      std::vector<unsigned char> s(in_bytes), o(out_bytes);
      signal.read(s.data(), in_bytes);
      run_typed_product(s.data(), o.data());
      Buffer target = out;  // a handle on the caller's memory (Buffer::write is not const)
      target.write(o.data(), out_bytes);
      return;
    }
    if (l_.blocks) {
      // Overlap-save: block b is extended[b step, b step + block); its
      // circular convolution's points from m - 1 on are the linear result's
      // [b step, (b + 1) step).
      const std::int64_t overlap = c_.kernel_shape[0] - 1, extended = (l_.blocks - 1) * l_.step + l_.block;
      box_copy(*extended_, signal, {extended}, c_.signal_shape, {-overlap});
      box_copy(*signal_in_, *extended_, {l_.blocks, l_.block}, {l_.blocks, l_.block}, {0, 0}, {l_.step, 1});
    } else {
      box_copy(*signal_in_, signal, l_.signal_padded, c_.signal_shape, std::vector<std::int64_t>(l_.rank, 0));
    }
    signal_plan_->execute(*signal_in_, *signal_spectrum_, &*kernel_spectrum_);
    if (!fused()) multiply();
    inverse_plan_->execute(product_spectrum_ ? *product_spectrum_ : *signal_spectrum_, *result_, &*kernel_spectrum_);
    if (l_.blocks) {
      box_copy(*linear_, *result_, {l_.blocks, l_.step}, {l_.blocks, l_.block}, {0, c_.kernel_shape[0] - 1});
      box_copy(out, *linear_, l_.output, l_.product, l_.start);
    } else {
      box_copy(out, *result_, l_.output, l_.product, l_.start);
    }
  }

 private:
  // The kernel as the transforms take it, in an array of `extents` (its own
  // shape, or kernel_padded zero-filled): for a correlation conjugated and
  // reversed along the requested axes: element j goes to m - 1 - j, or to
  // -j mod n on a transformed axis of a circular correlation (period n, and
  // then `extents` must be kernel_padded).
  template <class T>
  std::vector<T> arranged_kernel(const T* kernel, const std::vector<std::int64_t>& extents) const {
    if (!c_.correlate && extents == c_.kernel_shape)  // as it is (bigmul's millions of limbs come this way)
      return std::vector<T>(kernel, kernel + product_of(extents));
    std::vector<T> out(static_cast<std::size_t>(product_of(extents)), T{});
    const auto to_strides = strides_of(extents);
    auto has = [](const std::vector<int>& axes, int a) { return std::find(axes.begin(), axes.end(), a) != axes.end(); };
    std::size_t i = 0;
    for_each_index(c_.kernel_shape, [&](const std::vector<std::int64_t>& index) {
      std::int64_t to = 0;
      for (int a = 0; a < l_.rank; ++a) {
        std::int64_t j = index[a];
        if (c_.correlate && has(l_.reversed_axes, a)) {
          const std::int64_t n = l_.kernel_padded[a];
          j = c_.circular && has(l_.axes, a) ? (n - j) % n : c_.kernel_shape[a] - 1 - j;
        }
        to += j * to_strides[a];
      }
      const T v = kernel[i++];
      out[static_cast<std::size_t>(to)] = c_.correlate ? conj_of(v) : v;
    });
    return out;
  }

  // dst (of extents `to`) = src (of extents `from`) at index + offset, zero outside.
  // `source_strides`: the source's element strides (default: row-major of `from`).
  void box_copy(const Buffer& dst, const Buffer& src, const std::vector<std::int64_t>& to,
                const std::vector<std::int64_t>& from, const std::vector<std::int64_t>& offset,
                std::vector<std::int64_t> source_strides = {}) const {
    std::vector<std::int64_t> d4(4, 1), n4(4, 1), o4(4, 0), s4(4, 0);
    const int rank = static_cast<int>(to.size()), pad = 4 - rank;
    if (source_strides.empty()) source_strides = strides_of(from);
    for (int a = 0; a < rank; ++a)
      d4[pad + a] = to[a], n4[pad + a] = from[a], o4[pad + a] = offset[a], s4[pad + a] = source_strides[a];
    const std::int64_t count = product_of(to);
    using Arg = KernelArg;
    std::vector<Arg> args{Arg::of(dst.impl()), Arg::of(src.impl()), Arg::of_u64(count),
                          Arg::of_u64(d4[1]),  Arg::of_u64(d4[2]),  Arg::of_u64(d4[3])};
    for (std::int64_t v : n4) args.push_back(Arg::of_u64(v));
    for (std::int64_t v : o4) args.push_back(Arg::of_u64(static_cast<std::uint64_t>(v)));
    for (std::int64_t v : s4) args.push_back(Arg::of_u64(v));
    const std::size_t groups =
        static_cast<std::size_t>((count + codegen::kBoxCopyGroupSize - 1) / codegen::kBoxCopyGroupSize);
    device_.impl()->launch(*box_copy_, groups, codegen::kBoxCopyGroupSize, 0, args);
  }

  void run_typed_product(const unsigned char* s, unsigned char* o) const {
    if (c_.complex) {
      if (c_.precision == Precision::Double)
        broadcast_product(reinterpret_cast<const std::complex<double>*>(s), reinterpret_cast<std::complex<double>*>(o));
      else
        broadcast_product(reinterpret_cast<const std::complex<float>*>(s), reinterpret_cast<std::complex<float>*>(o));
    } else if (c_.precision == Precision::Double) {
      broadcast_product(reinterpret_cast<const double*>(s), reinterpret_cast<double*>(o));
    } else {
      broadcast_product(reinterpret_cast<const float*>(s), reinterpret_cast<float*>(o));
    }
  }

  void multiply() const {
    const auto& a_shape = signal_plan_->problem().output_shape();  // complex spectra: halved real axis
    const auto& k_shape = kernel_plan_->problem().output_shape();
    const auto& o_shape = inverse_plan_->problem().input_shape();
    // Broadcast strides, padded to rank 4 with leading unit axes.
    // Right-aligned: the overlap-save kernel (one block) against the blocks.
    std::vector<std::int64_t> o4(4, 1), a4(4, 0), k4(4, 0);
    const auto as = strides_of(a_shape), ks = strides_of(k_shape);
    for (std::size_t i = 1; i <= o_shape.size(); ++i) {
      const std::int64_t o = o_shape[o_shape.size() - i];
      o4[4 - i] = o;
      a4[4 - i] = a_shape[a_shape.size() - i] == 1 && o != 1 ? 0 : as[as.size() - i];
      k4[4 - i] = i > k_shape.size() || (k_shape[k_shape.size() - i] == 1 && o != 1) ? 0 : ks[ks.size() - i];
    }
    const std::int64_t count = product_of(o_shape);
    const Buffer& out = product_spectrum_ ? *product_spectrum_ : *signal_spectrum_;
    using Arg = KernelArg;
    const double scale = 1.0;  // the inverse's 1/N is in the kernel's spectrum
    std::vector<Arg> args{Arg::of(out.impl()),
                          Arg::of(signal_spectrum_->impl()),
                          Arg::of(kernel_spectrum_->impl()),
                          Arg::of_u64(count),
                          Arg::of_u64(o4[1]),
                          Arg::of_u64(o4[2]),
                          Arg::of_u64(o4[3])};
    for (std::int64_t s : a4) args.push_back(Arg::of_u64(s));
    for (std::int64_t s : k4) args.push_back(Arg::of_u64(s));
    args.push_back(c_.precision == Precision::Double ? Arg::of_f64(scale) : Arg::of_f32(scale));
    const std::size_t groups =
        static_cast<std::size_t>((count + codegen::kMultiplyGroupSize - 1) / codegen::kMultiplyGroupSize);
    device_.impl()->launch(*multiply_, groups, codegen::kMultiplyGroupSize, 0, args);
  }

  // No transformed axis: out = signal * kernel with broadcasting.
  template <class T>
  void broadcast_product(const T* signal, T* out) const {
    const T* k = reinterpret_cast<const T*>(host_kernel_.data());
    const auto ss = strides_of(c_.signal_shape), ks = strides_of(c_.kernel_shape);
    std::size_t o = 0;
    for_each_index(l_.output, [&](const std::vector<std::int64_t>& index) {
      std::int64_t si = 0, ki = 0;
      for (int a = 0; a < l_.rank; ++a) {
        const std::int64_t j = index[a] + l_.start[a];
        si += (c_.signal_shape[a] == 1 ? 0 : j) * ss[a];
        ki += (c_.kernel_shape[a] == 1 ? 0 : j) * ks[a];
      }
      out[o++] = signal[si] * k[ki];
    });
  }

  Device device_;
  Convolution c_;
  ops::ConvolutionLayout l_;
  std::optional<detail::FusedPlan> signal_plan_, inverse_plan_;  // one with the product where it can (fused())
  std::optional<Plan> kernel_plan_;
  // Mutable: execute_host writes them (a Convolver is not shared between threads).
  mutable std::optional<Buffer> signal_in_, signal_spectrum_, kernel_spectrum_, product_spectrum_, result_;
  std::shared_ptr<KernelImpl> multiply_, box_copy_;
  mutable std::optional<Buffer> host_signal_, host_out_;  // execute_host's device copies
  std::optional<Buffer> extended_, linear_;               // overlap-save's zero-extended signal and joined blocks
  std::vector<unsigned char> host_kernel_;                // the broadcast product's kernel
  bool has_kernel_ = false;
};

}  // namespace detail

Convolver::Convolver(const Device& device, const Convolution& convolution)
    : impl_(std::make_unique<detail::ConvolverImpl>(device, convolution)) {}
Convolver::~Convolver() = default;
Convolver::Convolver(Convolver&&) noexcept = default;
Convolver& Convolver::operator=(Convolver&&) noexcept = default;
const Convolution& Convolver::convolution() const { return impl_->convolution(); }
std::vector<std::int64_t> Convolver::transform_shape() const {
  const ops::ConvolutionLayout& l = impl_->layout();
  return l.blocks ? std::vector<std::int64_t>{l.blocks, l.block} : l.product;
}
bool Convolver::product_fused() const { return impl_->fused(); }
std::string Convolver::product_placement() const { return impl_->placement(); }
void Convolver::set_kernel(const float* k) { impl_->set_kernel(k); }
void Convolver::set_kernel(const double* k) { impl_->set_kernel(k); }
void Convolver::set_kernel(const std::complex<float>* k) { impl_->set_kernel(k); }
void Convolver::set_kernel(const std::complex<double>* k) { impl_->set_kernel(k); }
void Convolver::execute(const Buffer& signal, const Buffer& out) const { impl_->execute(signal, out); }
void Convolver::execute_host(const float* s, float* o) const { impl_->execute_host(s, o); }
void Convolver::execute_host(const double* s, double* o) const { impl_->execute_host(s, o); }
void Convolver::execute_host(const std::complex<float>* s, std::complex<float>* o) const { impl_->execute_host(s, o); }
void Convolver::execute_host(const std::complex<double>* s, std::complex<double>* o) const {
  impl_->execute_host(s, o);
}

template <class T>
std::vector<T> convolve(const Device& device, Convolution convolution, const T* signal, const T* kernel) {
  Convolver conv(device, convolution);
  conv.set_kernel(kernel);
  std::vector<T> out(static_cast<std::size_t>(convolution.output_elements()));
  conv.execute_host(signal, out.data());
  return out;
}

template <class T>
std::vector<T> correlate(const Device& device, Convolution convolution, const T* signal, const T* kernel) {
  convolution.correlate = true;
  return convolve(device, convolution, signal, kernel);
}

#define BFLY_CONVOLVE_TYPE(T)                                                          \
  template std::vector<T> convolve<T>(const Device&, Convolution, const T*, const T*); \
  template std::vector<T> correlate<T>(const Device&, Convolution, const T*, const T*);
BFLY_CONVOLVE_TYPE(float)
BFLY_CONVOLVE_TYPE(double)
BFLY_CONVOLVE_TYPE(std::complex<float>)
BFLY_CONVOLVE_TYPE(std::complex<double>)
#undef BFLY_CONVOLVE_TYPE

}  // namespace bfly
