// A plan with a pointwise product fused into one of its passes: the product
// of an FFT convolution (ops/convolver.cpp) without a pass of its own, as
// a callback (EndOp::Multiply, pieces/callback.cpp). LastStores: the last
// pass stores output element o as X[o] * multiplier[o % period] (a forward
// transform's). FirstLoads: the first pass reads input element o as in[o]
// * multiplier[o % period] (an inverse transform's). Period 0: the
// multiplier is as long as the array. Whether the planner's pass can take
// the product depends on its kind (KernelSpec::can_fuse_store_ops,
// can_fuse_load_ops) and on what the compiler made of it (a kernel that
// spills more than a few words is built without); where it cannot,
// fused() is false, the plan is a plain one, and the caller multiplies in
// a pass of its own. The ends plan (runtime/ends_plan.hpp) holds one for
// half storage and the callbacks.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "backends/device_impl.hpp"
#include "bfly/bfly.hpp"
#include "plan/ends.hpp"

namespace bfly::detail {

class PlanImpl;

enum class FuseAt { LastStores, FirstLoads };

// The fused callbacks' data buffers (null: none), bound at each launch.
struct EndData {
  const BufferImpl* load = nullptr;
  const BufferImpl* store = nullptr;
};

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
  // stores do `ends` where its passes take them (plan/ends.hpp;
  // runtime/ends_plan.hpp wraps it; `options` without callbacks).
  FusedPlan(const Device& device, const Problem& problem, const PlanOptions& options, const plan::Ends& ends);
  // Whether the first loads (last stores) do all of their side of the ends.
  bool loads_fused() const;
  bool stores_fused() const;
  // Executes without checking the buffers (16-bit on a converting side):
  // the ends plan checked them against its own problem.
  void run(const BufferImpl& in, const BufferImpl& out, void* stream, const EndData& data) const;
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
  plan::Ends ends_;
  FuseAt at_ = FuseAt::LastStores;
};

}  // namespace bfly::detail
