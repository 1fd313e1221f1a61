// Executing a problem in half storage (Problem::storage, issue 42): the
// native (fp32) problem's plan with the conversions fused into its first
// loads and last stores where its passes take them (plan/storage.hpp), and
// a conversion kernel (codegen/storage_kernel.hpp) between the caller's
// 16-bit buffer and an fp32 workspace on each side they do not: Bluestein,
// Rader, real transforms, the DCT/DST, the generic tier. PlanImpl holds one
// for a half problem and hands it its executions.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include "backends/device_impl.hpp"
#include "bfly/bfly.hpp"
#include "runtime/fused_plan.hpp"
#include "runtime/per_stream.hpp"

namespace bfly::detail {

class HalfPlan {
 public:
  // `stats` counts the inner plan's kernels and the conversions'.
  HalfPlan(std::shared_ptr<DeviceImpl> device, const Problem& problem, const PlanOptions& options, BuildStats& stats);
  // (The caller checked the buffers against the half problem.)
  void execute(const BufferImpl& in, const BufferImpl& out, void* stream) const;
  std::string describe() const;
  // (The conversions' fp32 sides and the inner plan's own.)
  std::size_t workspace_bytes() const { return in_bytes_ + out_bytes_ + inner_->workspace_bytes(); }
  int launches() const;

 private:
  // The fp32 sides (null where the inner plan converts), one set a queue or
  // stream (and thread, where the handle names a stream a thread).
  struct Workspace {
    std::mutex order;
    std::shared_ptr<BufferImpl> in, out;  // in place: `in` alone
  };
  void convert(KernelImpl& kernel, const BufferImpl& dst, const BufferImpl& src, bool input, void* stream) const;

  std::shared_ptr<DeviceImpl> device_;
  Problem problem_;
  std::unique_ptr<FusedPlan> inner_;                       // the native problem's
  std::shared_ptr<KernelImpl> from_storage_, to_storage_;  // null where the inner plan converts
  std::size_t in_bytes_ = 0, out_bytes_ = 0;
  PerStream<Workspace> workspaces_;
};

}  // namespace bfly::detail
