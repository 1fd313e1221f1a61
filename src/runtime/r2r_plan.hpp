// Executing a DCT or DST (Kind::R2R): for each axis of plan::r2r_stages, the
// gather kernel into workspace, the FFT's own Plan there (a real FFT
// between the workspace's real and complex sides, or a complex one in
// place), and the twiddle kernel into the output (codegen/r2r_kernel.hpp). PlanImpl
// holds one for an R2R problem and hands it its executions.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "backends/device_impl.hpp"
#include "bfly/bfly.hpp"
#include "plan/r2r.hpp"
#include "runtime/per_stream.hpp"

namespace bfly::detail {

// The fused plan of a DCT or DST (plan::fused_r2r_plan) where the tier
// (DeviceLimits::generic_tier) takes it: specialised and auto compile it for
// the size, at-hand only where its kernels are; none for the generic and
// tiered tiers (which compile nothing: the stages' FFTs are theirs) or
// where it does not apply: an R2RPlan then.
std::optional<plan::PlanTree> fused_r2r_tree(DeviceImpl& device, const Problem& problem,
                                             const plan::DeviceLimits& limits, const PlanOptions& options);

class R2RPlan {
 public:
  // Makes every stage's kernels, twiddles and FFT plan (with `options`);
  // `stats` counts the kernels.
  R2RPlan(std::shared_ptr<DeviceImpl> device, const Problem& problem, const PlanOptions& options, BuildStats& stats);
  void execute(const BufferImpl& in, const BufferImpl& out, void* stream) const;
  std::string describe() const;
  std::size_t workspace_bytes() const { return workspace_bytes_ + real_bytes_; }
  int launches() const;

 private:
  struct Stage {
    plan::R2RStage stage;
    std::shared_ptr<KernelImpl> pre, post;
    std::shared_ptr<BufferImpl> twiddles;  // w_8n^e, e < 2n
    std::unique_ptr<Plan> fft;
  };
  // One workspace a queue or stream (and thread, where the handle names a
  // stream a thread), so executions on different streams may overlap.
  struct Workspace {
    std::mutex order;
    std::unique_ptr<Buffer> buffer;  // the complex side
    std::unique_ptr<Buffer> reals;   // a real FFT's real side
  };

  std::shared_ptr<DeviceImpl> device_;
  Problem problem_;
  std::vector<Stage> stages_;
  std::size_t workspace_bytes_ = 0;  // the complex side
  std::size_t real_bytes_ = 0;       // the real side (0: no stage has a real FFT)
  PerStream<Workspace> workspaces_;
};

}  // namespace bfly::detail
