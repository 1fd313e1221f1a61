#include "fft_input.hpp"

#include <cmath>
#include <complex>
#include <cstdint>
#include <cstring>
#include <limits>
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
To cast(From x) {
  return static_cast<To>(x);
}

// Read as a byte: a bool holding anything but 0 or 1 would be undefined.
template <class To>
To bool_to(std::uint8_t x) {
  return x != 0 ? To(1) : To(0);
}

// The elements of `a`, read as From (memcpy: the bytes need not be aligned
// for it), converted by `to` into `out` (room for a.elements() of To).
template <class From, class To>
void convert_into(const io::NpyArray& a, To (*to)(From), unsigned char* out) {
  const auto count = static_cast<std::size_t>(a.elements());
  for (std::size_t i = 0; i < count; ++i) {
    From x;
    std::memcpy(&x, a.data.data() + i * sizeof(From), sizeof x);
    const To y = to(x);
    std::memcpy(out + i * sizeof(To), &y, sizeof y);
  }
}

// ... as an NpyArray's bytes.
template <class From, class To>
std::vector<unsigned char> convert(const io::NpyArray& a, To (*to)(From)) {
  std::vector<unsigned char> out(static_cast<std::size_t>(a.elements()) * sizeof(To));
  convert_into(a, to, out.data());
  return out;
}

template <class From, class To>
std::vector<unsigned char> cast_each(const io::NpyArray& a) {
  return convert<From, To>(a, &cast<From, To>);
}

using Conversion = std::vector<unsigned char> (*)(const io::NpyArray&);

// A type the commands take: what an FFT computes it in and the conversion
// (none: as it is), and the conversion to int64 for exact integer work
// (none: not an integer type).
struct Promotion {
  DType from, to;
  Conversion convert, exact;
};

template <class T>
constexpr Promotion integer_type(DType from) {
  return {from, DType::Float64, &cast_each<T, double>, &cast_each<T, std::int64_t>};
}

// In numpy's order of types, which the error for any other names.
const Promotion kPromotions[] = {
    {DType::Bool, DType::Float64,
     [](const io::NpyArray& a) { return convert<std::uint8_t, double>(a, &bool_to<double>); },
     [](const io::NpyArray& a) { return convert<std::uint8_t, std::int64_t>(a, &bool_to<std::int64_t>); }},
    integer_type<std::int8_t>(DType::Int8),
    integer_type<std::int16_t>(DType::Int16),
    integer_type<std::int32_t>(DType::Int32),
    integer_type<std::int64_t>(DType::Int64),
    integer_type<std::uint8_t>(DType::UInt8),
    integer_type<std::uint16_t>(DType::UInt16),
    integer_type<std::uint32_t>(DType::UInt32),
    integer_type<std::uint64_t>(DType::UInt64),  // exact: read_exact_integers first refuses values above 2^63 - 1
    {DType::Float16, DType::Float32,
     [](const io::NpyArray& a) { return convert<std::uint16_t, float>(a, &half_to_float); }, nullptr},
    {DType::Float32, DType::Float32, nullptr, nullptr},
    {DType::Float64, DType::Float64, nullptr, nullptr},
    {DType::Complex64, DType::Complex64, nullptr, nullptr},
    {DType::Complex128, DType::Complex128, nullptr, nullptr},
};

// The row of kPromotions for a type the commands take (read_npy refused
// the others).
const Promotion* row_of(DType dtype) {
  for (const Promotion& p : kPromotions)
    if (p.from == dtype) return &p;
  throw Error(ErrorCode::Unsupported, std::string(to_string(dtype)) + " data: not a type the commands take");
}

// Each element read as From and converted to T, as a vector of T.
template <class From, class T>
std::vector<T> each_as(const io::NpyArray& a) {
  std::vector<T> out(static_cast<std::size_t>(a.elements()));
  if (!out.empty()) convert_into<From, T>(a, &cast<From, T>, reinterpret_cast<unsigned char*>(out.data()));
  return out;
}

}  // namespace

bool is_complex(io::DType dtype) { return dtype == DType::Complex64 || dtype == DType::Complex128; }

const std::vector<DType>& fft_input_dtypes() {
  static const std::vector<DType> accepted = [] {
    std::vector<DType> types;
    for (const Promotion& p : kPromotions) types.push_back(p.from);
    return types;
  }();
  return accepted;
}

DType promoted_dtype(DType file_dtype) { return row_of(file_dtype)->to; }

FftInput read_fft_input(const std::string& path) { return promote(io::read_npy(path, fft_input_dtypes())); }

FftInput promote(io::NpyArray file) {
  const Promotion* promotion = row_of(file.dtype);
  FftInput input{std::move(file), DType::Complex64};
  input.file_dtype = input.array.dtype;
  if (promotion->convert != nullptr) {
    input.array.data = promotion->convert(input.array);
    input.array.dtype = promotion->to;
  }
  return input;
}

io::NpyArray read_exact_integers(const std::string& path) {
  io::NpyArray array = io::read_npy(path, fft_input_dtypes());
  const Promotion* promotion = row_of(array.dtype);
  if (promotion->exact == nullptr)
    throw Error(ErrorCode::InvalidArgument,
                path + ": " + to_string(array.dtype) +
                    " values, where exact integer arithmetic takes bool or integer types (int8 to int64, uint8 to "
                    "uint64); round them first if they are whole (numpy's astype(numpy.int64))");
  for (std::int64_t i = 0; array.dtype == DType::UInt64 && i < array.elements(); ++i) {
    std::uint64_t value;
    std::memcpy(&value, array.data.data() + i * sizeof value, sizeof value);
    if (value > static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()))
      throw Error(ErrorCode::InvalidArgument,
                  path + ": element " + std::to_string(i) + " is " + std::to_string(value) + ", beyond int64");
  }
  array.data = promotion->exact(array);
  array.dtype = DType::Int64;
  return array;
}

DType common_type(DType a, DType b) {
  const bool complex = is_complex(a) || is_complex(b);
  const bool wide = a == DType::Float64 || a == DType::Complex128 || b == DType::Float64 || b == DType::Complex128;
  return complex ? (wide ? DType::Complex128 : DType::Complex64) : (wide ? DType::Float64 : DType::Float32);
}

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
