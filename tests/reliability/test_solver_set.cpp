// One plan per solver, run and checked against FFTW: the set that
// compute-sanitizer's memcheck and racecheck run over on the GPU
// (scripts/gpu/sanitizer.sh), and a quick check on every device. Prints each
// plan's solver line, so a run shows which solvers it covered.
#include <gtest/gtest.h>

#include <complex>
#include <cstdio>
#include <type_traits>
#include <string>
#include <vector>

#include "bfly/bfly.hpp"
#include "support/backend_test.hpp"
#include "support/reference.hpp"
#include "support/test_options.hpp"

namespace bfly::test {
namespace {

struct Case {
  const char* token;
  Strategy strategy;
  const char* solver;  // what it stands for
};

const Case kCases[] = {
    {"c2c_f32_fwd_1024_b8_oop_none", Strategy::Auto, "single pass"},
    {"c2c_f32_fwd_4194304_b1_oop_none", Strategy::Auto, "multi-pass"},
    {"c2c_f32_fwd_36864_b4_oop_none", Strategy::Auto, "cluster (Hopper; multi-pass elsewhere)"},
    {"c2c_f32_inv_4099_b2_oop_none", Strategy::Auto, "Bluestein"},
    {"c2c_f64_fwd_1009_b2_oop_none", Strategy::Auto, "Rader"},
    {"r2c_f32_fwd_1000x1000_b1_oop_none", Strategy::Auto, "real (2D)"},
    {"c2r_f64_inv_4096_b3_oop_none", Strategy::Auto, "real inverse"},
    {"c2c_f32_fwd_256_b4_oop_none_is3_id800_os1_od256", Strategy::Auto, "strided"},
    {"c2c_f32_fwd_256x200_b1_ip_none_ax0", Strategy::Auto, "strided axis, in place"},
    {"c2c_f32_fwd_64x64x64_b1_oop_none", Strategy::Transpose, "row-column"},
};

class SolverSet : public BackendTest {};

template <class In, class Out, class T>
Errors run(const Device& device, const Problem& p, const PlanOptions& options) {
  const Plan plan(device, p, options);
  const std::string described = plan.describe();
  const std::size_t at = described.find("solver");
  const std::string line = at == std::string::npos ? described : described.substr(at, described.find('\n', at) - at);
  const std::size_t cluster = described.find("in clusters of");
  const std::string clustered =
      cluster == std::string::npos ? "" : ", " + described.substr(cluster, described.find(' ', cluster + 15) - cluster);
  std::printf("[ solver   ] %s: %s%s\n", p.token().c_str(), line.c_str(), clustered.c_str());
  std::vector<In> in;
  if constexpr (std::is_same<In, float>::value)
    in = random_real_data(static_cast<std::size_t>(p.input_extent()));
  else if constexpr (std::is_same<In, double>::value)
    in = random_real_data_f64(static_cast<std::size_t>(p.input_extent()));
  else if constexpr (std::is_same<In, std::complex<float>>::value)
    in = random_data(static_cast<std::size_t>(p.input_extent()));
  else
    in = random_data_f64(static_cast<std::size_t>(p.input_extent()));
  if constexpr (std::is_floating_point<Out>::value) make_hermitian(p, in);
  std::vector<Out> out(static_cast<std::size_t>(p.output_extent()));
  poison(out);
  if constexpr (std::is_same<In, Out>::value)
    if (p.placement == Placement::InPlace) {
      out = in;
      plan.execute_host(out.data(), out.data());
      return compare(out, fftw_reference(p, in));
    }
  plan.execute_host(in.data(), out.data());
  return compare(out, fftw_reference(p, in));
}

TEST_P(SolverSet, EachSolverIsRightOnPoisonedOutput) {
  for (const Case& c : kCases) {
    const Problem p = Problem::parse(c.token);
    PlanOptions options = test_options();
    options.strategy = c.strategy;
    const bool f64 = p.precision == Precision::Double;
    Errors e;
    if (p.kind == Kind::R2C)
      e = f64 ? run<double, std::complex<double>, double>(device(), p, options)
              : run<float, std::complex<float>, float>(device(), p, options);
    else if (p.kind == Kind::C2R)
      e = f64 ? run<std::complex<double>, double, double>(device(), p, options)
              : run<std::complex<float>, float, float>(device(), p, options);
    else
      e = f64 ? run<std::complex<double>, std::complex<double>, double>(device(), p, options)
              : run<std::complex<float>, std::complex<float>, float>(device(), p, options);
    EXPECT_TRUE(e.finite) << c.token << " (" << c.solver << "): unwritten or non-finite output";
    EXPECT_LE(e.relative_l2, f64 ? 2e-15 : 5e-7) << c.token << " (" << c.solver << ")";
  }
}

INSTANTIATE_TEST_SUITE_P(Backends, SolverSet, ::testing::Values("cuda", "opencl"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace bfly::test
