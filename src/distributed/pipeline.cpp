// The pipelined first stage and exchange (pipeline.hpp).
#include "distributed/pipeline.hpp"

#include <algorithm>
#include <tuple>

#include "backends/cuda/driver_api.hpp"
#include "distributed/boxes.hpp"

namespace bfly::distributed::detail {

namespace cuda = bfly::detail::cuda;

bool pipelines(const Schedule& schedule) {
  const std::vector<int>& axes = schedule.axes[0];
  if (schedule.exchanges() < 1 || std::find(axes.begin(), axes.end(), 0) != axes.end()) return false;
  // The chunks are planes of axis 0, received in place as runs of planes:
  // where the exchange gathers another axis (pencils: axis 1, stored first)
  // a chunk is no run of the next box.
  for (int rank = 0; rank < static_cast<int>(schedule.tilings[0].size()); ++rank) {
    std::vector<Box> group;
    for (int member : schedule.members(0, rank)) group.push_back(schedule.tilings[0][member]);
    if (gathered_order(group) != identity_order(group[0].lower.size())) return false;
  }
  return true;
}

namespace {

std::int64_t plane_of(const Box& box) {
  const std::vector<std::int64_t> shape = box.shape();
  std::int64_t n = 1;
  for (std::size_t k = 1; k < shape.size(); ++k) n *= shape[k];
  return n;
}

constexpr unsigned kNonBlocking = 1;    // CU_STREAM_NON_BLOCKING: no implicit wait on the legacy stream
constexpr unsigned kDisableTiming = 2;  // CU_EVENT_DISABLE_TIMING

}  // namespace

struct Pipeline::Cuda {
  cuda::CUstream stream = nullptr;
  std::vector<cuda::CUevent> events;  // one a chunk, and the last for the exchange's end
};

Pipeline::Pipeline(const Device& device, const Problem& problem, const Schedule& schedule, int rank,
                   const std::vector<int>& members, int chunks, const PlanOptions& options, const NcclComm& nccl,
                   const DeviceCopy& copy, const Exchange& exchange)
    : device_(device),
      nccl_(nccl),
      copy_(copy),
      transport_(nccl, problem.precision == Precision::Single ? 8 : 16),
      point_bytes_(problem.precision == Precision::Single ? 8 : 16),
      chunks_(chunks),
      in_box_(schedule.input_boxes[rank]),
      middle_box_(schedule.tilings[0][rank]),
      target_box_(schedule.tilings[1][rank]),
      sends_(exchange.sends()),
      receives_(exchange.receives()),
      cuda_(std::make_unique<Cuda>()) {
  for (int member : members) from_.push_back(schedule.tilings[0][member]);
  const bool real_in = problem.kind == Kind::R2C;
  in_plane_bytes_ = static_cast<std::size_t>(plane_of(in_box_)) * (real_in ? point_bytes_ / 2 : point_bytes_);
  middle_plane_bytes_ = static_cast<std::size_t>(plane_of(middle_box_)) * point_bytes_;
  const std::int64_t planes = in_box_.empty() ? 0 : in_box_.shape()[0];
  for (int k = 0; k < chunks_; ++k) {
    const Range r = split(planes, chunks_, k);
    const std::int64_t length = r.last - r.first;
    if (length == 0 || plans_.count(length)) continue;
    Box chunk = in_box_;
    chunk.upper[0] = chunk.lower[0] + length;
    plans_.emplace(length,
                   bfly::Plan(device, stage_problem(problem, chunk, schedule.kinds[0], schedule.axes[0]), options));
  }
  const cuda::DriverApi* d = cuda::driver();
  nccl_.make_current();
  cuda::check(d->cuStreamCreate(&cuda_->stream, kNonBlocking), "creating the pipeline's NCCL stream");
  cuda_->events.resize(static_cast<std::size_t>(chunks_) + 1, nullptr);
  for (auto& event : cuda_->events) cuda::check(d->cuEventCreate(&event, kDisableTiming), "creating an event");
}

Pipeline::~Pipeline() {
  const cuda::DriverApi* d = cuda::driver();
  if (!d) return;
  nccl_.make_current();
  if (cuda_->stream) d->cuStreamSynchronize(cuda_->stream);
  for (auto event : cuda_->events)
    if (event) d->cuEventDestroy(event);
  if (cuda_->stream) d->cuStreamDestroy(cuda_->stream);
}

Run Pipeline::chunk_run(const Part& part, Buffer& in_place, Buffer& staged, std::int64_t first,
                        std::int64_t last) const {
  const std::int64_t lower = std::max(part.box.lower[0], first), upper = std::min(part.box.upper[0], last);
  if (part.box.empty() || upper <= lower) return Run{&staged, 0, 0};
  const std::int64_t plane = plane_of(part.box);
  return Run{part.in_place ? &in_place : &staged, part.offset + (lower - part.box.lower[0]) * plane,
             (upper - lower) * plane};
}

void Pipeline::run(const Buffer& in, Buffer& middle, Buffer& send, Buffer& receive, Buffer& target,
                   void* stream) const {
  const cuda::DriverApi* d = cuda::driver();
  const auto compute = static_cast<cuda::CUstream>(stream);
  const std::int64_t planes = in_box_.empty() ? 0 : in_box_.shape()[0];
  const std::size_t places = sends_.size();
  nccl_.make_current();
  for (int k = 0; k < chunks_; ++k) {
    const Range r = split(planes, chunks_, k);
    const std::int64_t first = middle_box_.lower.empty() ? 0 : middle_box_.lower[0] + r.first;
    const std::int64_t last = first + (r.last - r.first);
    if (r.last > r.first) {
      const std::size_t length = static_cast<std::size_t>(r.last - r.first), at = static_cast<std::size_t>(r.first);
      const Buffer source = Buffer::wrap(device_, in.device_pointer() + at * in_plane_bytes_, length * in_plane_bytes_);
      const Buffer result =
          Buffer::wrap(device_, middle.device_pointer() + at * middle_plane_bytes_, length * middle_plane_bytes_);
      plans_.at(r.last - r.first).execute(source, result, stream);
      for (const Part& part : sends_) {
        if (part.in_place) continue;
        const Run run = chunk_run(part, middle, send, first, last);
        if (run.elements == 0) continue;
        Box chunk = part.box;
        chunk.lower[0] = std::max(chunk.lower[0], first), chunk.upper[0] = std::min(chunk.upper[0], last);
        copy_.pack(middle, middle_box_, chunk, send, run.offset, identity_order(chunk.lower.size()), stream);
      }
    }
    // The chunk's blocks leave once computed and packed, on the NCCL stream.
    cuda::check(d->cuEventRecord(cuda_->events[k], compute), "recording a chunk's event");
    cuda::check(d->cuStreamWaitEvent(cuda_->stream, cuda_->events[k], 0), "ordering the NCCL stream");
    std::vector<Run> sends(places), receives(places);
    for (std::size_t i = 0; i < places; ++i) {
      sends[i] = chunk_run(sends_[i], middle, send, first, last);
      // The sender's chunk k: its planes as it splits them.
      const std::int64_t theirs = from_[i].empty() ? 0 : from_[i].shape()[0];
      const Range t = split(theirs, chunks_, k);
      const std::int64_t their_first = from_[i].empty() ? 0 : from_[i].lower[0] + t.first;
      receives[i] = chunk_run(receives_[i], target, receive, their_first, their_first + (t.last - t.first));
    }
    transport_.exchange(sends, receives, cuda_->stream);
  }
  cuda::check(d->cuEventRecord(cuda_->events[static_cast<std::size_t>(chunks_)], cuda_->stream),
              "recording the exchange's end");
  cuda::check(d->cuStreamWaitEvent(compute, cuda_->events[static_cast<std::size_t>(chunks_)], 0),
              "ordering the compute stream");
  for (const Part& part : receives_)
    if (!part.in_place && !part.box.empty())
      copy_.unpack(receive, part.offset, part.box, target_box_, target, identity_order(part.box.lower.size()), stream);
}

}  // namespace bfly::distributed::detail
