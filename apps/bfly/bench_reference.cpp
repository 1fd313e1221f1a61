// The reference is FFTW's guru interface, which takes any set of axes with
// each side's own strides: the transformed axes as dims, the others and the
// batch as howmany dims. A real case's real axis goes last (the one FFTW's
// r2c / c2r halve); a DCT or DST gives each transformed axis FFTW's r2r kind
// of the type computed. FFTW's unnormalised r2r definitions (REDFT00, 10,
// 01, 11 for DCT-I..IV, RODFT.. for the DST) are scipy.fft's norm=None
// forward transforms, which bfly computes under Norm::None; its inverse of
// type 2 is an unscaled type 3 and of type 3 a type 2 (BenchCase::r2r_type).
#include "bench_reference.hpp"

#include <algorithm>
#include <cmath>
#include <complex>
#include <cstring>
#include <random>

#ifdef BFLY_HAVE_FFTW_DOUBLE
#include <fftw3.h>
#endif

namespace bfly::cli {
namespace {

std::size_t real_bytes(Precision precision) { return precision == Precision::Double ? 8 : 4; }

template <typename Real>
void fill_random(HostData& data) {
  std::mt19937_64 engine{std::random_device{}()};
  std::uniform_real_distribution<Real> uniform(-1, 1);
  auto* v = reinterpret_cast<Real*>(data.data());
  for (std::size_t i = 0; i < data.size() / sizeof *v; ++i) v[i] = uniform(engine);
}

// Fresh reals in [-1, 1) each run (never zeros), drawn in the working
// precision: `scalars` of them (two per complex point).
HostData random_scalars(std::size_t scalars, Precision precision) {
  HostData data(scalars * real_bytes(precision));
  if (precision == Precision::Double)
    fill_random<double>(data);
  else
    fill_random<float>(data);
  return data;
}

std::vector<std::int64_t> row_major_strides(const std::vector<std::int64_t>& shape) {
  std::vector<std::int64_t> strides(shape.size(), 1);
  for (std::size_t k = shape.size(); k-- > 1;) strides[k - 1] = strides[k] * shape[k];
  return strides;
}

std::int64_t product(const std::vector<std::int64_t>& shape) {
  std::int64_t n = 1;
  for (std::int64_t s : shape) n *= s;
  return n;
}

// Makes random half spectra ones that real arrays have (in every array of
// the batch): on the planes where the real axis index is 0 or (n even) n/2,
// the points at k and -k (over the other transformed axes) are each other's
// conjugates, and those that are their own mirror are real. Every C2R
// implementation then computes the same real array (they differ on other
// input: FFTW, cuFFT and numpy drop different parts), and the reference is
// well defined. The pair is averaged with the same additions on both sides,
// so the symmetry is exact in the working precision.
template <typename Real>
void make_hermitian_as(HostData& data, const Problem& p) {
  auto* v = reinterpret_cast<std::complex<Real>*>(data.data());
  const std::vector<std::int64_t> shape = p.complex_shape(), strides = row_major_strides(shape);
  const std::vector<int> axes = p.transform_axes();
  const int real_axis = p.real_axis();
  const std::int64_t n = p.shape[real_axis], per_array = product(shape);
  const int rank = static_cast<int>(shape.size());
  std::vector<std::int64_t> index(rank);
  for (std::int64_t b = 0; b < p.batch; ++b) {
    std::complex<Real>* array = v + b * per_array;
    for (std::int64_t i = 0; i < per_array; ++i) {
      const std::int64_t k = i / strides[real_axis] % shape[real_axis];
      if (k != 0 && !(n % 2 == 0 && k == n / 2)) continue;
      std::int64_t mirror = 0;
      for (int d = 0; d < rank; ++d) {
        index[d] = i / strides[d] % shape[d];
        const bool flipped = d != real_axis && std::find(axes.begin(), axes.end(), d) != axes.end();
        mirror += (flipped ? (shape[d] - index[d]) % shape[d] : index[d]) * strides[d];
      }
      if (mirror == i) {
        array[i].imag(0);
      } else if (mirror > i) {
        const std::complex<Real> a = array[i], m = array[mirror];
        const std::complex<Real> mean((a.real() + m.real()) / 2, (a.imag() - m.imag()) / 2);
        array[i] = mean;
        array[mirror] = std::conj(mean);
      }
    }
  }
}

#ifdef BFLY_HAVE_FFTW_DOUBLE
// What FFTW is asked for, in any precision (fftw_iodim64 and fftw_r2r_kind
// are one type for every precision): complex (C2C, interleaved pairs), r2c
// or c2r, which halve the LAST of `dims`, or r2r with kinds[k] on dims[k].
struct FftwTask {
  Kind kind = Kind::C2C;
  std::vector<fftw_iodim64> dims, loops;
  std::vector<fftw_r2r_kind> kinds;  // R2R only
  int sign = FFTW_FORWARD;           // C2C only
};

// One FFTW guru transform (planned, run, destroyed) in double or long double.
bool fftw_transform(const FftwTask& t, double* in, double* out) {
  const int rank = static_cast<int>(t.dims.size()), loop_rank = static_cast<int>(t.loops.size());
  const fftw_iodim64 *dims = t.dims.data(), *loops = t.loops.data();
  fftw_plan plan = nullptr;
  if (t.kind == Kind::C2C)
    plan = fftw_plan_guru64_dft(rank, dims, loop_rank, loops, reinterpret_cast<fftw_complex*>(in),
                                reinterpret_cast<fftw_complex*>(out), t.sign, FFTW_ESTIMATE);
  else if (t.kind == Kind::R2C)
    plan =
        fftw_plan_guru64_dft_r2c(rank, dims, loop_rank, loops, in, reinterpret_cast<fftw_complex*>(out), FFTW_ESTIMATE);
  else if (t.kind == Kind::C2R)
    plan =
        fftw_plan_guru64_dft_c2r(rank, dims, loop_rank, loops, reinterpret_cast<fftw_complex*>(in), out, FFTW_ESTIMATE);
  else
    plan = fftw_plan_guru64_r2r(rank, dims, loop_rank, loops, in, out, t.kinds.data(), FFTW_ESTIMATE);
  if (!plan) return false;
  fftw_execute(plan);
  fftw_destroy_plan(plan);
  return true;
}

#ifdef BFLY_HAVE_FFTW_LONG_DOUBLE
bool fftw_transform(const FftwTask& t, long double* in, long double* out) {
  const int rank = static_cast<int>(t.dims.size()), loop_rank = static_cast<int>(t.loops.size());
  const fftw_iodim64 *dims = t.dims.data(), *loops = t.loops.data();
  fftwl_plan plan = nullptr;
  if (t.kind == Kind::C2C)
    plan = fftwl_plan_guru64_dft(rank, dims, loop_rank, loops, reinterpret_cast<fftwl_complex*>(in),
                                 reinterpret_cast<fftwl_complex*>(out), t.sign, FFTW_ESTIMATE);
  else if (t.kind == Kind::R2C)
    plan = fftwl_plan_guru64_dft_r2c(rank, dims, loop_rank, loops, in, reinterpret_cast<fftwl_complex*>(out),
                                     FFTW_ESTIMATE);
  else if (t.kind == Kind::C2R)
    plan = fftwl_plan_guru64_dft_c2r(rank, dims, loop_rank, loops, reinterpret_cast<fftwl_complex*>(in), out,
                                     FFTW_ESTIMATE);
  else
    plan = fftwl_plan_guru64_r2r(rank, dims, loop_rank, loops, in, out, t.kinds.data(), FFTW_ESTIMATE);
  if (!plan) return false;
  fftwl_execute(plan);
  fftwl_destroy_plan(plan);
  return true;
}
#endif

// The reference in `Wide` (double or long double) from the first arrays of
// `input` (in the working precision): the output's scalars, or empty.
template <typename Wide>
std::vector<long double> reference_in(const HostData& input, Precision precision, std::size_t in_scalars,
                                      std::size_t out_scalars, const FftwTask& task) {
  std::vector<Wide> in(in_scalars), out(out_scalars);
  if (precision == Precision::Double)
    std::copy_n(reinterpret_cast<const double*>(input.data()), in_scalars, in.begin());
  else
    std::copy_n(reinterpret_cast<const float*>(input.data()), in_scalars, in.begin());  // exact
  if (!fftw_transform(task, in.data(), out.data())) return {};
  return std::vector<long double>(out.begin(), out.end());
}

// FFTW's kind for a DCT or DST of `type`: REDFT for the DCT, RODFT for the
// DST, the two digits the input's and the output's half-sample shift
// (type I 00, II 10, III 01, IV 11).
fftw_r2r_kind r2r_kind(Family family, int type) {
  static const fftw_r2r_kind kinds[2][4] = {{FFTW_REDFT00, FFTW_REDFT10, FFTW_REDFT01, FFTW_REDFT11},
                                            {FFTW_RODFT00, FFTW_RODFT10, FFTW_RODFT01, FFTW_RODFT11}};
  return kinds[family == Family::DST ? 1 : 0][type - 1];
}
#endif

}  // namespace

HostData random_input(const BenchCase& c) {
  const Problem p = c.problem();
  const std::size_t scalars = c.input_bytes() / real_bytes(c.precision);
  HostData data = random_scalars(scalars, c.precision);
  if (c.kind == Kind::C2R) {
    if (c.precision == Precision::Double)
      make_hermitian_as<double>(data, p);
    else
      make_hermitian_as<float>(data, p);
  }
  return data;
}

HostData narrowed(HostData& wide, Storage storage) {
  const std::size_t count = wide.size() / sizeof(float);
  HostData narrow(count * sizeof(std::uint16_t));
  for (std::size_t i = 0; i < count; ++i) {
    float v;
    std::memcpy(&v, wide.data() + i * sizeof v, sizeof v);
    const std::uint16_t bits = to_storage(v, storage);
    v = from_storage(bits, storage);
    std::memcpy(wide.data() + i * sizeof v, &v, sizeof v);
    std::memcpy(narrow.data() + i * sizeof bits, &bits, sizeof bits);
  }
  return narrow;
}

HostData widened(const HostData& narrow, Storage storage) {
  const std::size_t count = narrow.size() / sizeof(std::uint16_t);
  HostData wide(count * sizeof(float));
  for (std::size_t i = 0; i < count; ++i) {
    std::uint16_t bits;
    std::memcpy(&bits, narrow.data() + i * sizeof bits, sizeof bits);
    const float v = from_storage(bits, storage);
    std::memcpy(wide.data() + i * sizeof v, &v, sizeof v);
  }
  return wide;
}

// Long double for fp64 cases where libfftw3l was found, so the reference's
// own error (~1e-19) stays far below the 2e-15 limit (FFTW double's ~2e-16
// would eat into it); double for fp32 ones.
std::vector<long double> reference(const HostData& input, const BenchCase& c, std::int64_t arrays) {
#ifdef BFLY_HAVE_FFTW_DOUBLE
  const Problem p = c.problem();
  const std::vector<int> axes = p.transform_axes();
  const int real_axis = p.real_axis();
  const std::vector<std::int64_t> in_shape = p.input_shape(), out_shape = p.output_shape();
  const std::vector<std::int64_t> in_strides = row_major_strides(in_shape), out_strides = row_major_strides(out_shape);
  FftwTask task;
  task.kind = c.kind;
  task.sign = c.inverse ? FFTW_BACKWARD : FFTW_FORWARD;
  fftw_iodim64 real_dim{};
  for (int k = 0; k < static_cast<int>(c.shape.size()); ++k) {
    const fftw_iodim64 d{static_cast<ptrdiff_t>(c.shape[k]), static_cast<ptrdiff_t>(in_strides[k]),
                         static_cast<ptrdiff_t>(out_strides[k])};
    if (k == real_axis)
      real_dim = d;
    else if (std::find(axes.begin(), axes.end(), k) != axes.end())
      task.dims.push_back(d);
    else
      task.loops.push_back(d);
  }
  if (real_axis >= 0) task.dims.push_back(real_dim);
  if (c.kind == Kind::R2R) task.kinds.assign(task.dims.size(), r2r_kind(c.family, c.r2r_type()));
  const std::int64_t in_array = product(in_shape), out_array = product(out_shape);
  task.loops.insert(task.loops.begin(), fftw_iodim64{static_cast<ptrdiff_t>(arrays), static_cast<ptrdiff_t>(in_array),
                                                     static_cast<ptrdiff_t>(out_array)});
  const bool real_in = c.kind == Kind::R2C || c.kind == Kind::R2R,
             real_out = c.kind == Kind::C2R || c.kind == Kind::R2R;
  const std::size_t in_scalars = static_cast<std::size_t>(arrays * in_array) * (real_in ? 1 : 2);
  const std::size_t out_scalars = static_cast<std::size_t>(arrays * out_array) * (real_out ? 1 : 2);
#ifdef BFLY_HAVE_FFTW_LONG_DOUBLE
  if (c.precision == Precision::Double)
    return reference_in<long double>(input, c.precision, in_scalars, out_scalars, task);
#endif
  return reference_in<double>(input, c.precision, in_scalars, out_scalars, task);
#else
  (void)input;
  (void)c;
  (void)arrays;
  return {};
#endif
}

namespace {

template <typename Real>
double relative_error_as(const HostData& y, const std::vector<long double>& ref) {
  const auto* v = reinterpret_cast<const Real*>(y.data());
  long double diff = 0, norm = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    const long double d = static_cast<long double>(v[i]) - ref[i];
    diff += d * d;
    norm += ref[i] * ref[i];
  }
  return std::isfinite(diff) ? static_cast<double>(std::sqrt(diff / norm)) : INFINITY;
}

}  // namespace

double relative_error(const HostData& y, Precision precision, const std::vector<long double>& ref) {
  if (ref.empty()) return -1;
  return precision == Precision::Double ? relative_error_as<double>(y, ref) : relative_error_as<float>(y, ref);
}

}  // namespace bfly::cli
