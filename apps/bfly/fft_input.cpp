#include "fft_input.hpp"

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <vector>

#include "bfly/bfly.hpp"

namespace bfly::cli {
namespace {

using io::DType;

// IEEE binary16 <-> binary32, bit by bit (C++17 has no half type).
float half_to_float(std::uint16_t h) {
  const std::uint32_t sign = std::uint32_t{h & 0x8000u} << 16;
  const std::uint32_t exponent = (h >> 10) & 0x1fu, mantissa = h & 0x3ffu;
  if (exponent == 0) {  // zero or subnormal: mantissa * 2^-24, exact in float
    const float magnitude = std::ldexp(static_cast<float>(mantissa), -24);
    return sign ? -magnitude : magnitude;
  }
  const std::uint32_t bits = exponent == 0x1f ? sign | 0x7f800000u | (mantissa << 13)  // inf, nan
                                              : sign | ((exponent + 112) << 23) | (mantissa << 13);
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// Rounds to nearest, ties to even, as numpy's astype(float16) does.
std::uint16_t float_to_half(float value) {
  std::uint32_t bits;
  std::memcpy(&bits, &value, sizeof bits);
  const auto sign = static_cast<std::uint16_t>((bits >> 16) & 0x8000u);
  const std::uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude >= 0x7f800000u)  // inf stays inf, nan stays a quiet nan
    return sign | 0x7c00u | (magnitude > 0x7f800000u ? 0x200u : 0u);
  // 65520 (0x477ff000) is halfway from the largest half, 65504, to 2^16: it
  // and everything above round to inf.
  if (magnitude >= 0x477ff000u) return sign | 0x7c00u;
  if (magnitude < 0x38800000u) {  // below 2^-14: a subnormal half, in units of 2^-24
    float m;
    std::memcpy(&m, &magnitude, sizeof m);
    return sign | static_cast<std::uint16_t>(std::nearbyint(m * 16777216.0f));
  }
  std::uint32_t h = (magnitude >> 13) - (112u << 10);  // exponent rebiased 127 -> 15, mantissa cut to 10 bits
  const std::uint32_t rest = magnitude & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1u))) ++h;  // a carry into the exponent is right too
  return static_cast<std::uint16_t>(sign | h);
}

template <class From, class To>
std::vector<unsigned char> convert(const io::NpyArray& a, To (*to)(From)) {
  const auto count = static_cast<std::size_t>(a.elements());
  std::vector<unsigned char> out(count * sizeof(To));
  for (std::size_t i = 0; i < count; ++i) {
    From x;
    std::memcpy(&x, a.data.data() + i * sizeof(From), sizeof x);
    const To y = to(x);
    std::memcpy(out.data() + i * sizeof(To), &y, sizeof y);
  }
  return out;
}

template <class T>
double to_double(T x) {
  return static_cast<double>(x);
}

// A type read_fft_input takes, what it computes in, and the conversion (none: as it is).
struct Promotion {
  DType from, to;
  std::vector<unsigned char> (*convert)(const io::NpyArray&);
};

template <class T>
std::vector<unsigned char> integers_to_double(const io::NpyArray& a) {
  return convert<T, double>(a, &to_double<T>);
}

// Read as a byte: a bool holding anything but 0 or 1 would be undefined.
double bool_to_double(std::uint8_t x) { return x != 0 ? 1.0 : 0.0; }

std::vector<unsigned char> bools_to_double(const io::NpyArray& a) { return convert<std::uint8_t, double>(a, &bool_to_double); }

std::vector<unsigned char> halves_to_float(const io::NpyArray& a) { return convert<std::uint16_t, float>(a, &half_to_float); }

// In numpy's order of types, which the error for any other names.
const Promotion kPromotions[] = {
    {DType::Bool, DType::Float64, &bools_to_double},
    {DType::Int8, DType::Float64, &integers_to_double<std::int8_t>},
    {DType::Int16, DType::Float64, &integers_to_double<std::int16_t>},
    {DType::Int32, DType::Float64, &integers_to_double<std::int32_t>},
    {DType::Int64, DType::Float64, &integers_to_double<std::int64_t>},
    {DType::UInt8, DType::Float64, &integers_to_double<std::uint8_t>},
    {DType::UInt16, DType::Float64, &integers_to_double<std::uint16_t>},
    {DType::UInt32, DType::Float64, &integers_to_double<std::uint32_t>},
    {DType::UInt64, DType::Float64, &integers_to_double<std::uint64_t>},
    {DType::Float16, DType::Float32, &halves_to_float},
    {DType::Float32, DType::Float32, nullptr},
    {DType::Float64, DType::Float64, nullptr},
    {DType::Complex64, DType::Complex64, nullptr},
    {DType::Complex128, DType::Complex128, nullptr},
};

}  // namespace

bool is_complex(io::DType dtype) { return dtype == DType::Complex64 || dtype == DType::Complex128; }

FftInput read_fft_input(const std::string& path) {
  static const std::vector<DType> accepted = [] {
    std::vector<DType> types;
    for (const Promotion& p : kPromotions) types.push_back(p.from);
    return types;
  }();
  FftInput input{io::read_npy(path, accepted), DType::Complex64};
  input.file_dtype = input.array.dtype;
  for (const Promotion& p : kPromotions) {
    if (p.from != input.file_dtype || p.convert == nullptr) continue;
    input.array.data = p.convert(input.array);
    input.array.dtype = p.to;
  }
  return input;
}

DType common_type(DType a, DType b) {
  const bool complex = is_complex(a) || is_complex(b);
  const bool wide = a == DType::Float64 || a == DType::Complex128 || b == DType::Float64 || b == DType::Complex128;
  return complex ? (wide ? DType::Complex128 : DType::Complex64) : (wide ? DType::Float64 : DType::Float32);
}

namespace {

// Each element read as From (memcpy: the bytes need not be aligned for it) and converted to T.
template <class From, class T>
std::vector<T> each_as(const io::NpyArray& a) {
  std::vector<T> out(static_cast<std::size_t>(a.elements()));
  // (An empty vector's data() may be null, which memcpy must not get even for 0 bytes.)
  if constexpr (std::is_same<From, T>::value) {
    if (!out.empty()) std::memcpy(out.data(), a.data.data(), out.size() * sizeof(T));
    return out;
  }
  for (std::size_t i = 0; i < out.size(); ++i) {
    From x;
    std::memcpy(&x, a.data.data() + i * sizeof x, sizeof x);
    out[i] = static_cast<T>(x);
  }
  return out;
}

}  // namespace

template <class T>
std::vector<T> elements_as(const io::NpyArray& a) {
  constexpr bool real = std::is_floating_point<T>::value;
  if (a.dtype == DType::Float32) return each_as<float, T>(a);
  if (a.dtype == DType::Float64) return each_as<double, T>(a);
  if constexpr (!real) {
    if (a.dtype == DType::Complex64) return each_as<std::complex<float>, T>(a);
    if (a.dtype == DType::Complex128) return each_as<std::complex<double>, T>(a);
  }
  throw Error(ErrorCode::InvalidArgument, std::string(to_string(a.dtype)) + " data where " +
                                              (real ? "real data" : "float32 to complex128 data") + " was expected");
}

template std::vector<float> elements_as<float>(const io::NpyArray&);
template std::vector<double> elements_as<double>(const io::NpyArray&);
template std::vector<std::complex<float>> elements_as<std::complex<float>>(const io::NpyArray&);
template std::vector<std::complex<double>> elements_as<std::complex<double>>(const io::NpyArray&);

io::NpyArray real_output_for(io::NpyArray result, io::DType file_dtype) {
  if (file_dtype != DType::Float16 || result.dtype != DType::Float32) return result;
  result.data = convert<float, std::uint16_t>(result, &float_to_half);
  result.dtype = DType::Float16;
  return result;
}

}  // namespace bfly::cli
