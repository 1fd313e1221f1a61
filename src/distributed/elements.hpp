// The element types the distributed plans' host-array executes take, and
// the bytes of a point: shared by the MPI plan (plan.cpp) and the one
// process driving several devices (multi_device.cpp).
#pragma once

#include <complex>
#include <cstddef>
#include <string>
#include <type_traits>

#include "bfly/bfly.hpp"

namespace bfly::distributed::detail {

template <class T>
constexpr Precision precision_of() {
  return std::is_same_v<T, float> || std::is_same_v<T, std::complex<float>> ? Precision::Single : Precision::Double;
}

template <class T>
constexpr bool is_complex() {
  return std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;
}

template <class T>
std::string type_name() {
  if constexpr (std::is_same_v<T, float>) return "float";
  if constexpr (std::is_same_v<T, double>) return "double";
  if constexpr (std::is_same_v<T, std::complex<float>>) return "complex<float>";
  return "complex<double>";
}

// A complex point's bytes.
inline std::size_t point_bytes(Precision precision) { return precision == Precision::Single ? 8 : 16; }

}  // namespace bfly::distributed::detail
