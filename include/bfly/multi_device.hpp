// bfly::distributed::MultiDevicePlan: one process driving several devices
// (issue 44; docs/DISTRIBUTED.md), the single-process counterpart of
// bfly::distributed::Plan: the same problem, decompositions, boxes and
// stages, with part r of the global array on devices[r] and the exchanges
// between the devices of this process (NCCL's single-process communicators
// over distinct CUDA GPUs, else copies through host memory). No MPI is
// needed at run time.
//
//   bfly::distributed::Problem problem;
//   problem.shape = {1024, 1024, 1024};
//   std::vector<bfly::Device> gpus;
//   for (int g = 0; g < 4; ++g) gpus.push_back(bfly::Device::open("cuda:" + std::to_string(g)));
//   bfly::distributed::MultiDevicePlan plan(gpus, problem);
//   plan.execute(in, out);  // whole row-major arrays in host memory, or a Buffer a device
#pragma once

#include <complex>
#include <memory>
#include <string>
#include <vector>

#include "bfly/bfly.hpp"
#include "bfly/distributed.hpp"

namespace bfly::distributed {

class MultiDevicePlanImpl;

class MultiDevicePlan {
 public:
  // Part r of the decomposition on devices[r] (1 or more; the same device
  // may stand for several parts, which then exchange through the host).
  // problem.transport: Auto takes NCCL where every device is a different
  // CUDA GPU and NCCL loads, else host copies; Nccl insists (an error
  // otherwise); Mpi means host copies here. problem.exchange and timeout
  // are the multi-process plan's and unused here; problem.pipeline above 1
  // is refused (Unsupported: no chunks in one process yet). `options` reach
  // the local bfly::Plans; callbacks are refused (Unsupported).
  MultiDevicePlan(std::vector<Device> devices, const Problem& problem, const PlanOptions& options = {});
  // The same with the caller's own boxes (heFFTe's bricks), one a part on
  // each side: any tiling of the input array and of the output array (the
  // real shape on an R2C's input and a C2R's output, else the complex
  // one; empty boxes allowed). The plan reshapes between them and the
  // decomposition's where they differ (an exchange over every part each
  // way). Boxes that do not tile their side (overlaps, gaps, a box past
  // the array) or a count other than the parts' are an error
  // (InvalidArgument) naming them.
  MultiDevicePlan(std::vector<Device> devices, const Problem& problem, const std::vector<Box>& input_boxes,
                  const std::vector<Box>& output_boxes, const PlanOptions& options = {});
  ~MultiDevicePlan();
  MultiDevicePlan(MultiDevicePlan&&) noexcept;
  MultiDevicePlan& operator=(MultiDevicePlan&&) noexcept;

  const Problem& problem() const;  // Decomposition::Auto resolved
  const std::vector<Device>& devices() const;
  // Part r's boxes (Decomposition, distributed.hpp; or the caller's), by part.
  const std::vector<Box>& input_boxes() const;
  const std::vector<Box>& output_boxes() const;
  const std::vector<int>& grid() const;
  // Nccl, or Mpi for copies through host memory.
  Transport transport() const;
  std::string describe() const;

  // Whole global arrays in host memory, row-major (the real shape on an
  // R2C's input and a C2R's output, the half spectrum on the complex
  // side): each part's box goes to its device, and each output box comes
  // back to its place. Blocking. The element types as Plan::execute's.
  // Not concurrent with another execution of the same plan (they share its
  // buffers); plans of their own run side by side.
  void execute(const std::complex<float>* in, std::complex<float>* out) const;
  void execute(const std::complex<double>* in, std::complex<double>* out) const;
  void execute(const float* in, std::complex<float>* out) const;    // R2C
  void execute(const double* in, std::complex<double>* out) const;  // R2C
  void execute(const std::complex<float>* in, float* out) const;    // C2R
  void execute(const std::complex<double>* in, double* out) const;  // C2R

  // Device buffers, one a part: in[r] and out[r] on devices[r], at least
  // the bytes of part r's input and output box. Returns when every device
  // is done. `in` is kept.
  void execute(const std::vector<Buffer>& in, const std::vector<Buffer>& out) const;

  // One execution on device buffers with every device waited for between
  // the phases, then each exchange's transport alone (the bound), as
  // Plan::profile: for benchmarks.
  Phases profile(const std::vector<Buffer>& in, const std::vector<Buffer>& out) const;

  // Device memory on each device in bytes: two buffers of its largest box,
  // its send and receive buffers (made at the first execute), and after a
  // host-memory execute its input and output.
  std::vector<std::size_t> workspace_bytes() const;

 private:
  std::unique_ptr<MultiDevicePlanImpl> impl_;
};

}  // namespace bfly::distributed
