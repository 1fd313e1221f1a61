// Half storage's host conversions (bfly.hpp: to_storage, from_storage): the
// same bit operations as the kernels' (pieces/storage.cpp), for the CLI's
// and the bindings' files and for host-side checks.
#include <cstdint>
#include <cstring>

#include "bfly/bfly.hpp"

namespace bfly {
namespace {

std::uint32_t bits_of(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}

float float_of(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}

void check(Storage storage) {
  if (storage == Storage::Native)
    throw Error(ErrorCode::InvalidArgument, "to_storage / from_storage need f16 or bf16 storage, not native");
}

}  // namespace

std::uint16_t to_storage(float value, Storage storage) {
  check(storage);
  std::uint32_t x = bits_of(value);
  if (storage == Storage::BFloat16) {
    if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<std::uint16_t>((x >> 16) | 0x40u);
    return static_cast<std::uint16_t>((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
  }
  const std::uint32_t sign = (x >> 16) & 0x8000u;
  x &= 0x7fffffffu;
  std::uint32_t o;
  if (x >= 0x47800000u)
    o = x > 0x7f800000u ? 0x7e00u : 0x7c00u;
  else if (x < 0x38800000u)
    o = bits_of(float_of(x) + 0.5f) - 0x3f000000u;
  else
    o = (x + 0xc8000fffu + ((x >> 13) & 1u)) >> 13;
  return static_cast<std::uint16_t>(o | sign);
}

float from_storage(std::uint16_t bits, Storage storage) {
  check(storage);
  const std::uint32_t h = bits;
  if (storage == Storage::BFloat16) return float_of(h << 16);
  std::uint32_t o = (h & 0x7fffu) << 13;
  const std::uint32_t e = o & 0x0f800000u;
  o += 0x38000000u;
  if (e == 0x0f800000u)
    o += 0x38000000u;
  else if (e == 0u)
    o = bits_of(float_of(o + 0x00800000u) - 6.103515625e-05f);
  return float_of(o | ((h & 0x8000u) << 16));
}

}  // namespace bfly
