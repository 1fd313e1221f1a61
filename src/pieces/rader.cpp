// Rader's algorithm for a prime p (plan/solvers/rader.cpp): the (p - 1)-point
// cyclic convolution of the points permuted by a generator g, in one kernel
// (KernelSpec::rader_prime with convolve: codegen/pass_rader.cpp) or in
// passes over workspace (whose loads and stores are pieces/rader_pass.cpp).
// This piece is what both share: the kernel's name and words, and the
// tables argument: the permutations g^m and g^-m as the real and imaginary
// parts of entry m, then the kernel FFT_L(b) / L.
#include <complex>

#include "bfly/bfly.hpp"
#include "pieces/piece.hpp"
#include "plan/pass_modes.hpp"
#include "twiddle/rader.hpp"

namespace bfly::pieces {
namespace {

using plan::KernelSpec;

// The permutations are exact integers in either precision below 2^24; the
// kernel is rounded once from long double.
template <class T>
std::vector<std::complex<T>> rader_tables(std::int64_t p) {
  if (p > (std::int64_t{1} << 24))
    throw Error(ErrorCode::Unsupported,
                "Rader's permutations of " + std::to_string(p) + " points are not exact in single precision");
  const std::vector<std::int64_t> powers = twiddle::rader_powers(p);
  const std::vector<std::complex<long double>> k = twiddle::rader_kernel(p);
  const std::int64_t L = p - 1;
  std::vector<std::complex<T>> out;
  out.reserve(2 * static_cast<std::size_t>(L));
  for (std::int64_t m = 0; m < L; ++m)
    out.emplace_back(static_cast<T>(powers[static_cast<std::size_t>(m)]),
                     static_cast<T>(powers[static_cast<std::size_t>((L - m) % L)]));
  for (const auto& v : k) out.emplace_back(static_cast<T>(v.real()), static_cast<T>(v.imag()));
  return out;
}

class Rader final : public Piece {
 public:
  const char* name() const override { return "rader"; }

  bool active(const KernelSpec& s) const override { return s.rader(); }

  void name_kind(const KernelSpec& s, std::ostream& out) const override {
    out << (s.rader_fused() ? "_rader" : "_raderpass");
  }

  void describe(const KernelSpec& s, std::ostream& out) const override { out << ", rader " << s.rader_prime; }

  // Half storage in the one kernel (its loads are the writer's, its stores
  // through product and real_stored); its passes' gather and scatter
  // (pieces/rader_pass.cpp) admit none.
  unsigned admits(const KernelSpec& s) const override {
    return s.rader_fused()
               ? static_cast<unsigned>(plan::Form::StorageLoad) | static_cast<unsigned>(plan::Form::StorageStore)
               : 0u;
  }

  bool has_tables(const KernelSpec&) const override { return true; }

  bool tables(const KernelSpec& s, TableSource& t) const override {
    const std::int64_t p = s.rader_prime;
    t.kind = "rader";
    t.size = std::to_string(p);
    t.on_disk = true;
    t.format = "g^m and g^-m as reals, FFT_L(b) / L";
    t.f32 = [p] { return rader_tables<float>(p); };
    t.f64 = [p] { return rader_tables<double>(p); };
    return true;
  }
};

}  // namespace

const Piece& rader() {
  static const Rader piece;
  return piece;
}

}  // namespace bfly::pieces
