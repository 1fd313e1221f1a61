// The generic tier (issue 40, DeviceLimits::generic_tier): any problem run
// by three fixed kernels (codegen/generic_kernels.hpp) that take the length,
// factorisation, strides and tables as arguments, so a new length compiles
// nothing once a device has them (their binaries are cached on disk like
// any kernel's). The input is gathered into a dense complex array
// (reals widened, a Hermitian half completed); each transformed axis runs
// as rows of up to `capacity` points in local memory with the stages a
// run-time loop, longer smooth lengths as a four-step split (a row pass
// with the twiddles, the rest recursively, a transpose), other lengths by
// Bluestein's chirp over a 7-smooth length; the result is scattered to the
// output layout with the norm's scale. Slower than the specialised
// kernels (more trips through memory, table-driven butterflies); it is
// what a size gets at once.
#pragma once

#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "backends/device_impl.hpp"
#include "bfly/bfly.hpp"

namespace bfly::detail {

class GenericPlan {
 public:
  // Plans `problem` (validated) and makes its kernels and tables;
  // `stats` counts what was built.
  GenericPlan(std::shared_ptr<DeviceImpl> device, const Problem& problem, const plan::DeviceLimits& limits,
              BuildStats& stats);
  ~GenericPlan();

  void execute(const BufferImpl& in, const BufferImpl& out, void* stream) const;
  std::string describe() const;
  std::size_t workspace_bytes() const;
  int launches() const { return static_cast<int>(steps_.size()); }

  // The longest row one kernel holds in local memory.
  static std::int64_t capacity(const plan::DeviceLimits& limits, Precision precision);

  // A launch's buffers: the caller's, the workspace (two dense arrays and
  // two of Bluestein's padded rows), or a table the plan owns.
  enum class Slot { In, Out, W0, W1, B0, B1, Table };
  struct Arg {
    Slot slot = Slot::Table;
    int table = -1;  // Slot::Table: the index into tables_; -1: a scalar
    KernelArg value = KernelArg::of_u64(0);
  };
  struct Step {
    std::shared_ptr<KernelImpl> kernel;
    std::size_t groups = 0, group_size = 0, local_bytes = 0;
    bool dynamic_local = false;  // local_bytes is CUDA's dynamic shared memory
    std::vector<Arg> args;
    std::string what;  // for describe()
  };

 private:
  struct Workspace;
  Workspace& workspace_of(void* stream) const;
  void make(Workspace& w) const;  // its buffers, where not made yet

  std::shared_ptr<DeviceImpl> device_;
  Problem problem_;
  std::vector<Step> steps_;
  std::vector<std::shared_ptr<BufferImpl>> tables_;
  std::size_t dense_bytes_ = 0, padded_bytes_ = 0;
  std::string text_;
  mutable std::mutex workspaces_mutex_;
  mutable std::vector<std::pair<std::pair<void*, std::size_t>, std::unique_ptr<Workspace>>> workspaces_;
  mutable std::unique_ptr<Workspace> spare_;  // made with the plan; the first queue takes it
  friend class GenericBuilder;
};

}  // namespace bfly::detail
