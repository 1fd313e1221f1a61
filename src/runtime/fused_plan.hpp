// A forward plan whose last pass multiplies what it stores: the pointwise
// product of an FFT convolution (ops/convolver.cpp) without a pass of its
// own. Output element o is stored as X[o] * multiplier[o % period] (period
// 0: the multiplier is as long as the output). Whether the planner's last
// pass can take the product depends on its kind (KernelSpec::
// can_fuse_multiply); where it cannot, fused() is false and the caller
// multiplies in a pass of its own.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "bfly/bfly.hpp"

namespace bfly::detail {

class PlanImpl;

class FusedForwardPlan {
 public:
  FusedForwardPlan(const Device& device, const Problem& problem, std::int64_t period);
  bool fused() const;
  const Problem& problem() const;
  std::string describe() const;
  // multiplier: ignored (may be null) when !fused().
  void execute(const Buffer& in, const Buffer& out, const Buffer* multiplier) const;

 private:
  std::shared_ptr<PlanImpl> impl_;
};

}  // namespace bfly::detail
