// A plan with a pointwise product fused into one of its passes: the product
// of an FFT convolution (ops/convolver.cpp) without a pass of its own.
// LastStores: the last pass stores output element o as X[o] *
// multiplier[o % period] (a forward transform's). FirstLoads: the first pass
// reads input element o as in[o] * multiplier[o % period] (an inverse
// transform's). Period 0: the multiplier is as long as the array. Whether
// the planner's pass can take the product depends on its kind (KernelSpec::
// can_fuse_multiply, can_fuse_multiply_load) and on what the compiler made
// of it (a kernel that spills more than a few words is built without);
// where it cannot, fused() is false, the plan is a plain one, and the caller
// multiplies in a pass of its own.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "backends/device_impl.hpp"
#include "bfly/bfly.hpp"

namespace bfly::detail {

class PlanImpl;

enum class FuseAt { LastStores, FirstLoads };

class FusedPlan {
 public:
  // period < 0: no product (a plain plan).
  FusedPlan(const Device& device, const Problem& problem, std::int64_t period, FuseAt at);
  ~FusedPlan();  // (never released in a child forked after it was made: backends/fork_guard.hpp)
  FusedPlan(const FusedPlan&) = default;
  FusedPlan(FusedPlan&&) noexcept = default;
  FusedPlan& operator=(const FusedPlan&) = default;
  FusedPlan& operator=(FusedPlan&&) noexcept = default;
  // A plan of the native problem `problem` whose first loads and last
  // stores convert from and to `storage` where its passes take it
  // (plan/storage.hpp; runtime/half_plan.hpp wraps it).
  FusedPlan(const Device& device, const Problem& problem, const PlanOptions& options, Storage storage);
  bool loads_convert() const;
  bool stores_convert() const;
  // Executes without checking the buffers (16-bit on a converting side):
  // the half plan checked them against its own problem.
  void run(const BufferImpl& in, const BufferImpl& out, void* stream) const;
  int launches() const;
  std::size_t workspace_bytes() const;
  const BuildStats& stats() const;
  bool fused() const;
  const Problem& problem() const;
  std::string describe() const;
  // multiplier: ignored (may be null) when !fused().
  void execute(const Buffer& in, const Buffer& out, const Buffer* multiplier) const;

 private:
  std::shared_ptr<PlanImpl> impl_;
};

}  // namespace bfly::detail
