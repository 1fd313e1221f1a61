// Transforms an impulse: every output bin must be 1.
#include <bfly/bfly.hpp>

#include <cmath>
#include <cstdio>

int main() {
  bfly::Problem problem = bfly::Problem::parse("c2c_f32_fwd_64_b1_oop_none");
  bfly::Plan plan(bfly::Device::open(), problem);
  std::vector<std::complex<float>> in(64), out(64);
  in[0] = 1;
  plan.execute_host(in.data(), out.data());
  for (const auto& v : out)
    if (std::abs(v - std::complex<float>(1, 0)) > 1e-6f) return std::puts("wrong result"), 1;
  std::puts("consumer ok");
  return 0;
}
