// Executing a problem with half storage (Problem::storage) or callbacks
// (PlanOptions::load, store; issue 42): the native (fp32) problem's plan
// with the conversion and the callbacks fused into its first loads and
// last stores where its passes take them (plan/ends.hpp), and an end
// kernel (codegen/storage_kernel.hpp) between the caller's buffer and a
// workspace on each side they do not: Bluestein, Rader, the DCT/DST, the
// generic tier, a kernel that spilled. PlanImpl holds one for such a
// problem and hands it its executions.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>

#include "backends/device_impl.hpp"
#include "bfly/bfly.hpp"
#include "plan/callbacks.hpp"
#include "runtime/fused_plan.hpp"
#include "runtime/per_stream.hpp"

namespace bfly::detail {

class EndsPlan {
 public:
  // `stats` counts the inner plan's kernels and the ends'.
  EndsPlan(std::shared_ptr<DeviceImpl> device, const Problem& problem, const PlanOptions& options, BuildStats& stats);
  // (The caller checked the buffers against output_bytes() and the problem's input.)
  void execute(const BufferImpl& in, const BufferImpl& out, void* stream) const;
  std::string describe() const;
  // (The ends' workspace sides and the inner plan's own.)
  std::size_t workspace_bytes() const { return in_bytes_ + out_bytes_ + inner_->workspace_bytes(); }
  int launches() const;
  // The bytes of an output element: reals where the store's ops end in one.
  std::size_t output_element_bytes() const;

 private:
  // The workspace sides (null where the inner plan does the side), one set
  // a queue or stream (and thread, where the handle names a stream a thread).
  struct Workspace {
    std::mutex order;
    std::shared_ptr<BufferImpl> in, out;  // in place: `in` alone
  };
  struct Side {
    plan::ResolvedEnd end;
    std::shared_ptr<BufferImpl> data;    // the ops' data (bfly's table, the caller's, or a word)
    std::shared_ptr<KernelImpl> kernel;  // null where the inner plan does the side
  };
  void build(const Problem& problem, const PlanOptions& options, BuildStats& stats);
  void apply(const Side& side, const BufferImpl& dst, const BufferImpl& src, bool input, void* stream) const;

  std::shared_ptr<DeviceImpl> device_;
  Problem problem_;
  std::unique_ptr<FusedPlan> inner_;  // the native problem's
  Side load_, store_;
  std::size_t in_bytes_ = 0, out_bytes_ = 0;
  PerStream<Workspace> workspaces_;
};

}  // namespace bfly::detail
