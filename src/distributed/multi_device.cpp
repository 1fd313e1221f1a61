// bfly::distributed::MultiDevicePlan (include/bfly/multi_device.hpp): the
// distributed plan's schedule (schedule.hpp) run by one process for every
// part, part r on devices[r]:
//
//   stage j     each part's bfly::Plan on its device, enqueued one after
//               the other (each device's stream runs its own)
//   exchange j  per group (every part, or a row or column of the grid):
//               each member packs on its device (exchange.hpp), the
//               group's LocalTransport moves every member's runs at once
//               (local_transport.hpp), each member unpacks
//
// The same boxes, storage orders and local problems as the multi-process
// plan (plan.cpp), so the two give the same results bit for bit on the
// same devices; what differs is only who moves the runs.
#include <algorithm>
#include <chrono>
#include <optional>
#include <sstream>
#include <type_traits>

#include "bfly/multi_device.hpp"
#include "distributed/boxes.hpp"
#include "distributed/exchange.hpp"
#include "distributed/elements.hpp"
#include "distributed/fused_stage.hpp"
#include "distributed/local_reshape.hpp"
#include "distributed/local_transport.hpp"
#include "distributed/reshape.hpp"
#include "distributed/schedule.hpp"

namespace bfly::distributed {

namespace {

using detail::is_complex;
using detail::point_bytes;
using detail::precision_of;

using Clock = std::chrono::steady_clock;

// Every device a different CUDA GPU, and NCCL here: what NCCL in one process needs.
bool nccl_suits(const std::vector<Device>& devices) {
  std::vector<std::string> specs;
  for (const Device& device : devices) {
    if (device.info().backend != "cuda") return false;
    specs.push_back(device.info().spec);
  }
  std::sort(specs.begin(), specs.end());
  return std::adjacent_find(specs.begin(), specs.end()) == specs.end() && detail::nccl_available();
}

}  // namespace

// One group of an exchange: its parts (ascending), each one's side of the
// exchange, and the transport between them.
struct Group {
  std::vector<int> members;
  std::vector<detail::Exchange> sides;                // by member
  std::unique_ptr<detail::NcclClique> clique;         // the NCCL transport's
  std::unique_ptr<detail::LocalTransport> transport;  // (destroyed first: it refers to the clique)
};

class MultiDevicePlanImpl {
 public:
  std::vector<Device> devices;
  Problem problem;
  Transport transport = Transport::Mpi;
  detail::Schedule schedule;
  std::vector<std::vector<std::optional<bfly::Plan>>> stages;  // [stage][part]
  std::vector<std::vector<Group>> steps;                       // [exchange]: none where skipped
  std::vector<detail::DeviceCopy> copies;                      // by part
  // [stage][part], where it applies: the stage storing the next
  // exchange's send blocks itself (fused_stage.hpp), no pack.
  std::vector<std::vector<std::optional<detail::FusedStage>>> fused;
  bool fused_at(int j, int r) const { return j >= 0 && j < static_cast<int>(fused.size()) && fused[j][r].has_value(); }
  // The caller's boxes (the decomposition's unless given), and the
  // reshapes to and from the decomposition's where they differ.
  std::vector<Box> in_boxes, out_boxes;
  std::unique_ptr<detail::LocalReshape> into, back;
  // By part: the two box buffers, send, receive (made at the first execute);
  // the host-memory execute's input and output.
  mutable std::vector<std::vector<Buffer>> buffers, host_sides;

  int parts() const { return static_cast<int>(devices.size()); }
  // Each part's stream: on CUDA the legacy default stream of its device
  // (NCCL takes it as stream 0), else the device's queue.
  void* stream(int r) const { return devices[r].info().backend == "cuda" ? reinterpret_cast<void*>(1) : nullptr; }
  void wait_all() const {
    for (int r = 0; r < parts(); ++r)
      if (void* s = stream(r))
        devices[r].synchronize(s);
      else
        devices[r].synchronize();
  }
  bool real_side(bool input) const { return input ? problem.kind == Kind::R2C : problem.kind == Kind::C2R; }
  std::size_t side_bytes(int r, bool input) const {
    const Box& box = input ? in_boxes[r] : out_boxes[r];
    return static_cast<std::size_t>(box.elements()) * point_bytes(problem.precision) / (real_side(input) ? 2 : 1);
  }
  // The whole array's shape on the input or output side.
  std::vector<std::int64_t> side_shape(bool input) const {
    return real_side(input) ? problem.shape : schedule.complex_shape;
  }
  std::vector<std::size_t> parts_bytes(int r) const {
    const std::size_t point = point_bytes(problem.precision);
    std::int64_t box = 0, sent = 0, received = 0;
    for (const auto& tiling : schedule.tilings) box = std::max(box, tiling[r].elements());
    for (const auto& step : steps)
      for (const Group& group : step)
        for (std::size_t m = 0; m < group.members.size(); ++m)
          if (group.members[m] == r)
            sent = std::max(sent, group.sides[m].send_elements()),
            received = std::max(received, group.sides[m].receive_elements());
    for (const auto& stage : fused)
      if (stage[r]) sent = std::max(sent, stage[r]->send_elements());
    auto bytes = [&](std::int64_t points) {
      return std::max<std::size_t>(16, point * static_cast<std::size_t>(points));
    };
    std::size_t send = bytes(sent), receive = bytes(received);
    for (const auto* reshape : {into.get(), back.get()})
      if (reshape)
        send = std::max(send, reshape->send_bytes(r)), receive = std::max(receive, reshape->receive_bytes(r));
    return {bytes(box), bytes(box), send, receive};
  }
  void ensure_buffers() const {
    if (!buffers.empty()) return;
    for (int r = 0; r < parts(); ++r) {
      std::vector<Buffer> mine;
      for (std::size_t bytes : parts_bytes(r)) mine.emplace_back(devices[r], bytes);
      buffers.push_back(std::move(mine));
    }
  }

  // A reshape from sources[r] to targets[r] through each part's send and receive buffers.
  void reshape(const detail::LocalReshape& reshape, const std::vector<Buffer>& sources,
               const std::vector<Buffer>& targets, bool bare) const {
    std::vector<Buffer> sends, receives;
    std::vector<void*> streams;
    for (int r = 0; r < parts(); ++r)
      sends.push_back(buffers[r][2]), receives.push_back(buffers[r][3]), streams.push_back(stream(r));
    reshape.run(sources, sends, receives, targets, streams, bare);
  }
  std::vector<Buffer> box_buffers(int which) const {
    std::vector<Buffer> out;
    for (int r = 0; r < parts(); ++r) out.push_back(buffers[r][which]);
    return out;
  }
  // `stage`: the stage before the exchange, whose fused parts send what
  // they stored (-1: none).
  void exchange(const std::vector<Group>& groups, int current, bool bare, int stage = -1) const;
  void execute(const std::vector<Buffer>& in, const std::vector<Buffer>& out, Phases* phases) const;
  template <class In, class Out>
  void execute(const In* in, Out* out) const;
};

// Within each group: every member's packs, then the transport, then the unpacks.
void MultiDevicePlanImpl::exchange(const std::vector<Group>& groups, int current, bool bare, int stage) const {
  for (const Group& group : groups) {
    std::vector<std::vector<detail::Run>> sends, receives;
    std::vector<void*> streams;
    for (std::size_t m = 0; m < group.members.size(); ++m) {
      const int r = group.members[m];
      std::vector<Buffer>& mine = buffers[r];
      sends.push_back(fused_at(stage, r) ? fused[stage][r]->sends(mine[2])
                                         : group.sides[m].pack(copies[r], mine[current], mine[2], stream(r), bare));
      receives.push_back(group.sides[m].receive_runs(mine[3], mine[1 - current]));
      streams.push_back(stream(r));
    }
    group.transport->exchange(sends, receives, streams);
    if (bare) continue;
    for (std::size_t m = 0; m < group.members.size(); ++m) {
      const int r = group.members[m];
      group.sides[m].unpack(copies[r], buffers[r][3], buffers[r][1 - current], stream(r));
    }
  }
}

void MultiDevicePlanImpl::execute(const std::vector<Buffer>& in, const std::vector<Buffer>& out, Phases* phases) const {
  if (static_cast<int>(in.size()) != parts() || static_cast<int>(out.size()) != parts())
    throw Error(ErrorCode::InvalidArgument, "bfly::distributed: execute with " + std::to_string(in.size()) +
                                                " input and " + std::to_string(out.size()) +
                                                " output buffers on a plan of " + std::to_string(parts()) + " parts");
  for (int r = 0; r < parts(); ++r) {
    if (in[r].device() != devices[r].impl() || out[r].device() != devices[r].impl())
      throw Error(ErrorCode::InvalidArgument, "bfly::distributed: execute with a buffer of part " + std::to_string(r) +
                                                  " on another device than " + devices[r].info().spec);
    if (in[r].bytes() < side_bytes(r, true) || out[r].bytes() < side_bytes(r, false))
      throw Error(ErrorCode::InvalidArgument,
                  "bfly::distributed: execute with buffers of " + std::to_string(in[r].bytes()) + " and " +
                      std::to_string(out[r].bytes()) + " bytes for part " + std::to_string(r) +
                      " where its boxes take " + std::to_string(side_bytes(r, true)) + " and " +
                      std::to_string(side_bytes(r, false)));
  }
  ensure_buffers();
  Clock::time_point start;
  auto begin = [&] {
    if (phases) wait_all(), start = Clock::now();
  };
  auto end = [&](std::vector<double> Phases::*times) {
    if (phases)
      wait_all(), (phases->*times).push_back(std::chrono::duration<double, std::milli>(Clock::now() - start).count());
  };
  const int last = static_cast<int>(stages.size()) - 1;
  int current = 1;  // the box buffer holding the data; the next step writes the other
  // The caller's input boxes to the decomposition's, into box buffer 1
  // (stage 0 then reads it and writes buffer 0, as it would the input).
  if (into) {
    begin();
    reshape(*into, in, box_buffers(1), false);
    end(&Phases::exchange_ms);
  }
  for (int j = 0; j <= last; ++j) {
    if (j > 0 && !steps[j - 1].empty()) {
      begin();
      exchange(steps[j - 1], current, false, j - 1);
      end(&Phases::exchange_ms);
      current = 1 - current;
    }
    begin();
    for (int r = 0; r < parts(); ++r) {
      const Buffer& source = j == 0 ? (into ? buffers[r][1] : in[r]) : buffers[r][current];
      if (fused_at(j, r)) {
        // Through the other box buffer into the send buffer (the exchange
        // then reads neither box buffer, and lands in the source's).
        fused[j][r]->run(source, buffers[r][1 - current], buffers[r][2], stream(r));
      } else if (const auto& plan = stages[j][r]) {
        const Buffer& target = j == last && !back ? out[r] : buffers[r][1 - current];
        if (void* s = stream(r))
          plan->execute(source, target, s);
        else
          plan->execute(source, target);
      }
    }
    current = 1 - current;
    end(&Phases::stage_ms);
  }
  // The decomposition's output boxes (the current buffer) to the caller's.
  if (back) {
    begin();
    reshape(*back, box_buffers(current), out, false);
    end(&Phases::exchange_ms);
  }
  wait_all();
  if (!phases) return;
  for (const auto& step : steps) {
    if (step.empty()) continue;
    begin();
    exchange(step, 0, true);
    end(&Phases::bound_ms);
  }
  // (The reshapes' bounds: the same runs, from and to the buffers that hold their boxes.)
  if (into) begin(), reshape(*into, in, box_buffers(1), true), end(&Phases::bound_ms);
  if (back) begin(), reshape(*back, box_buffers(0), out, true), end(&Phases::bound_ms);
}

template <class In, class Out>
void MultiDevicePlanImpl::execute(const In* in, Out* out) const {
  const bool kind_fits =
      is_complex<In>() == (problem.kind != Kind::R2C) && is_complex<Out>() == (problem.kind != Kind::C2R);
  if (problem.precision != precision_of<In>() || problem.precision != precision_of<Out>() || !kind_fits)
    throw Error(ErrorCode::InvalidArgument, "bfly::distributed: execute with element types that do not fit a " +
                                                std::string(bfly::to_string(problem.kind)) + " " +
                                                bfly::to_string(problem.precision) +
                                                " plan (c2c: complex in and out, r2c: real in, "
                                                "c2r: real out)");
  if (!in || !out) throw Error(ErrorCode::InvalidArgument, "bfly::distributed: execute with a null array");
  if (host_sides.empty())
    for (int r = 0; r < parts(); ++r)
      host_sides.push_back({Buffer(devices[r], std::max<std::size_t>(16, side_bytes(r, true))),
                            Buffer(devices[r], std::max<std::size_t>(16, side_bytes(r, false)))});
  // Each part's box cut out of the whole arrays and put back (boxes.hpp).
  auto whole = [](const std::vector<std::int64_t>& shape) {
    return Box{std::vector<std::int64_t>(shape.size(), 0), shape};
  };
  const Box in_whole = whole(side_shape(true)), out_whole = whole(side_shape(false));
  std::vector<Buffer> ins, outs;
  for (int r = 0; r < parts(); ++r) {
    std::vector<In> part(static_cast<std::size_t>(in_boxes[r].elements()));
    detail::pack(in_whole, in, in_boxes[r], part.data());
    if (!part.empty()) host_sides[r][0].write(part.data(), part.size() * sizeof(In));
    ins.push_back(host_sides[r][0]), outs.push_back(host_sides[r][1]);
  }
  execute(ins, outs, nullptr);
  for (int r = 0; r < parts(); ++r) {
    std::vector<Out> part(static_cast<std::size_t>(out_boxes[r].elements()));
    if (part.empty()) continue;
    host_sides[r][1].read(part.data(), part.size() * sizeof(Out));
    detail::unpack(out_boxes[r], part.data(), out_whole, out);
  }
}

MultiDevicePlan::MultiDevicePlan(std::vector<Device> devices, const Problem& given, const PlanOptions& options)
    : impl_(std::make_unique<MultiDevicePlanImpl>()) {
  MultiDevicePlanImpl& p = *impl_;
  if (devices.empty()) throw Error(ErrorCode::InvalidArgument, "bfly::distributed: a multi-device plan needs devices");
  if (!options.load.empty() || !options.store.empty())
    throw Error(ErrorCode::Unsupported,
                "bfly::distributed: callbacks (PlanOptions::load, store) are not supported yet");
  if (given.pipeline > 1)
    throw Error(ErrorCode::Unsupported,
                "bfly::distributed: a multi-device plan does not chunk its first stage yet "
                "(pipeline " +
                    std::to_string(given.pipeline) + "; 0 or 1: none); one process a GPU under MPI does");
  p.devices = std::move(devices);
  const int parts = p.parts();
  p.problem = detail::resolve(given, parts);
  detail::check(p.problem, parts);
  const Problem& problem = p.problem;
  p.schedule = detail::make_schedule(problem, parts);
  const detail::Schedule& s = p.schedule;

  p.transport = problem.transport;
  if (p.transport == Transport::Auto) p.transport = nccl_suits(p.devices) ? Transport::Nccl : Transport::Mpi;

  // How each exchange stores each part's next box (plan.cpp): its group's
  // gathered axis first; row-major where the exchange is skipped.
  std::vector<std::vector<std::vector<int>>> orders(s.exchanges());  // [exchange][part]
  for (int j = 0; j < s.exchanges(); ++j)
    for (int r = 0; r < parts; ++r) {
      std::vector<Box> group;
      for (int q : s.members(j, r)) group.push_back(s.tilings[j][q]);
      orders[j].push_back(s.unchanged(j) ? detail::identity_order(problem.shape.size())
                                         : detail::gathered_order(group));
    }
  const int last = static_cast<int>(s.tilings.size()) - 1;
  for (int j = 0; j <= last; ++j) {
    std::vector<std::optional<bfly::Plan>> stage;
    for (int r = 0; r < parts; ++r) {
      const Box& box = j == 0 ? s.input_boxes[r] : j == last ? s.output_boxes[r] : s.tilings[j][r];
      std::vector<std::int64_t> strides;
      if (j > 0 && orders[j - 1][r] != detail::identity_order(orders[j - 1][r].size()))
        strides = detail::storage_strides(s.tilings[j][r], orders[j - 1][r]);
      if (box.empty())
        stage.emplace_back();
      else
        stage.emplace_back(bfly::Plan(
            p.devices[r], detail::stage_problem(problem, box, s.kinds[j], s.axes[j], std::move(strides)), options));
    }
    p.stages.push_back(std::move(stage));
  }
  const int point = static_cast<int>(point_bytes(problem.precision));
  for (int j = 0; j < s.exchanges(); ++j) {
    std::vector<Group> groups;
    for (int r = 0; r < parts && !s.unchanged(j); ++r) {
      const std::vector<int> members = s.members(j, r);
      if (members.front() != r) continue;  // each group once, from its first part
      Group group;
      group.members = members;
      std::vector<Box> from, to;
      std::vector<Device> devices;
      for (int q : members)
        from.push_back(s.tilings[j][q]), to.push_back(s.tilings[j + 1][q]), devices.push_back(p.devices[q]);
      for (std::size_t m = 0; m < members.size(); ++m)
        group.sides.emplace_back(from, to, static_cast<int>(m), orders[j][members[m]]);
      if (p.transport == Transport::Nccl) {
        group.clique = std::make_unique<detail::NcclClique>(devices);
        group.transport = std::make_unique<detail::NcclLocal>(*group.clique, point);
      } else {
        group.transport = std::make_unique<detail::HostCopies>(devices, point);
      }
      groups.push_back(std::move(group));
    }
    p.steps.push_back(std::move(groups));
  }
  for (const Device& device : p.devices) p.copies.emplace_back(device, point);
  p.fused.resize(p.stages.size());
  for (std::size_t j = 0; j < p.stages.size(); ++j) {
    p.fused[j].resize(static_cast<std::size_t>(parts));
    if (j >= p.steps.size()) continue;  // (the last stage: no exchange after it)
    for (const Group& group : p.steps[j])
      for (std::size_t m = 0; m < group.members.size(); ++m) {
        const int r = group.members[m];
        if (p.stages[j][r])
          p.fused[j][r] = detail::FusedStage::make(p.devices[r], problem, j == 0 ? s.input_boxes[r] : s.tilings[j][r],
                                                   s.kinds[j], s.axes[j], *p.stages[j][r], group.sides[m], options);
      }
  }
  p.in_boxes = s.input_boxes, p.out_boxes = s.output_boxes;
}

// The caller's boxes, part by part: checked to tile each side, then a
// reshape each way where they are not the decomposition's.
MultiDevicePlan::MultiDevicePlan(std::vector<Device> devices, const Problem& problem,
                                 const std::vector<Box>& input_boxes, const std::vector<Box>& output_boxes,
                                 const PlanOptions& options)
    : MultiDevicePlan(std::move(devices), problem, options) {
  MultiDevicePlanImpl& p = *impl_;
  const std::size_t parts = p.devices.size();
  if (input_boxes.size() != parts || output_boxes.size() != parts)
    throw Error(ErrorCode::InvalidArgument, "bfly::distributed: " + std::to_string(input_boxes.size()) + " input and " +
                                                std::to_string(output_boxes.size()) + " output boxes for a plan of " +
                                                std::to_string(parts) + " parts");
  detail::check_tiling(input_boxes, p.side_shape(true), "input");
  detail::check_tiling(output_boxes, p.side_shape(false), "output");
  const int point = static_cast<int>(point_bytes(p.problem.precision));
  const bool nccl = p.transport == Transport::Nccl;
  if (input_boxes != p.schedule.input_boxes)
    p.into = std::make_unique<detail::LocalReshape>(p.devices, input_boxes, p.schedule.input_boxes,
                                                    p.real_side(true) ? point / 2 : point, nccl);
  if (output_boxes != p.schedule.output_boxes)
    p.back = std::make_unique<detail::LocalReshape>(p.devices, p.schedule.output_boxes, output_boxes,
                                                    p.real_side(false) ? point / 2 : point, nccl);
  p.in_boxes = input_boxes, p.out_boxes = output_boxes;
}

MultiDevicePlan::~MultiDevicePlan() = default;
MultiDevicePlan::MultiDevicePlan(MultiDevicePlan&&) noexcept = default;
MultiDevicePlan& MultiDevicePlan::operator=(MultiDevicePlan&&) noexcept = default;

const Problem& MultiDevicePlan::problem() const { return impl_->problem; }
const std::vector<Device>& MultiDevicePlan::devices() const { return impl_->devices; }
const std::vector<Box>& MultiDevicePlan::input_boxes() const { return impl_->in_boxes; }
const std::vector<Box>& MultiDevicePlan::output_boxes() const { return impl_->out_boxes; }
const std::vector<int>& MultiDevicePlan::grid() const { return impl_->schedule.grid; }
Transport MultiDevicePlan::transport() const { return impl_->transport; }

std::vector<std::size_t> MultiDevicePlan::workspace_bytes() const {
  const MultiDevicePlanImpl& p = *impl_;
  std::vector<std::size_t> bytes;
  for (int r = 0; r < p.parts(); ++r) {
    std::size_t sum = 0;
    for (std::size_t part : p.parts_bytes(r)) sum += part;
    if (!p.host_sides.empty()) sum += p.host_sides[r][0].bytes() + p.host_sides[r][1].bytes();
    bytes.push_back(sum);
  }
  return bytes;
}

std::string MultiDevicePlan::describe() const {
  const MultiDevicePlanImpl& p = *impl_;
  const detail::Schedule& s = p.schedule;
  std::ostringstream out;
  out << "multi-device " << p.problem.token() << " on " << p.parts() << " parts, grid " << s.grid[0] << " x "
      << s.grid[1] << ", exchanges by "
      << (p.transport == Transport::Nccl ? "NCCL send/recv (one process)" : "copies through host memory") << "\n";
  for (int r = 0; r < p.parts(); ++r) {
    out << "  part " << r << " on " << p.devices[r].info().spec << ":";
    for (std::size_t j = 0; j < p.stages.size(); ++j)
      out << (j ? ", then " : " ") << (p.stages[j][r] ? p.stages[j][r]->problem().token() : std::string("(empty box)"))
          << (p.fused_at(static_cast<int>(j), r) ? " (storing the send blocks itself: no pack)" : "");
    out << "\n";
  }
  if (p.into) out << "  reshape first: the caller's input boxes to the decomposition's\n";
  if (p.back) out << "  reshape last: the decomposition's output boxes to the caller's\n";
  return out.str();
}

void MultiDevicePlan::execute(const std::complex<float>* in, std::complex<float>* out) const {
  impl_->execute(in, out);
}
void MultiDevicePlan::execute(const std::complex<double>* in, std::complex<double>* out) const {
  impl_->execute(in, out);
}
void MultiDevicePlan::execute(const float* in, std::complex<float>* out) const { impl_->execute(in, out); }
void MultiDevicePlan::execute(const double* in, std::complex<double>* out) const { impl_->execute(in, out); }
void MultiDevicePlan::execute(const std::complex<float>* in, float* out) const { impl_->execute(in, out); }
void MultiDevicePlan::execute(const std::complex<double>* in, double* out) const { impl_->execute(in, out); }
void MultiDevicePlan::execute(const std::vector<Buffer>& in, const std::vector<Buffer>& out) const {
  impl_->execute(in, out, nullptr);
}

Phases MultiDevicePlan::profile(const std::vector<Buffer>& in, const std::vector<Buffer>& out) const {
  Phases phases;
  impl_->execute(in, out, &phases);
  return phases;
}

}  // namespace bfly::distributed
