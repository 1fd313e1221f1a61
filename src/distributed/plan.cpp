// bfly::distributed::Plan (include/bfly/distributed.hpp): local stages of
// ordinary bfly plans around exchanges, as the schedule lays them out
// (schedule.hpp: slabs, one exchange; pencils, two).
//
//   input box  -- stage 0: the axes it holds whole, one bfly::Plan
//   exchange   (exchange.cpp) -- blocks to the ranks whose next box holds them,
//                                within a group (every rank, or a row or column of the grid)
//   ...        -- stage j: the axes made whole, one bfly::Plan
//   output box
//
// The norm splits across the stages by itself: each stage takes the
// problem's norm over its own axes, and 1/N1 * 1/N2 = 1/N, 1/sqrt(N1) *
// 1/sqrt(N2) = 1/sqrt(N) (a real stage's N counts the real length, as the
// whole array's does). Every step that may fail on some ranks only is
// followed by an agreement (agree.hpp) over the whole communicator before
// the next collective, so the ranks fail together with one message.
#include <algorithm>
#include <chrono>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <sstream>
#include <type_traits>

#include "distributed/agree.hpp"
#include "distributed/boxes.hpp"
#include "distributed/exchange.hpp"
#include "distributed/elements.hpp"
#include "distributed/fused_stage.hpp"
#include "distributed/nccl.hpp"
#include "distributed/pipeline.hpp"
#include "distributed/recorded_methods.hpp"
#include "distributed/reshape.hpp"
#include "distributed/schedule.hpp"

namespace bfly::distributed {

namespace {

using detail::is_complex;
using detail::point_bytes;
using detail::precision_of;
using detail::type_name;

// A local stage: `axes` of the row-major array of this rank's box (the
// real box for an R2C's first stage and a C2R's last, which bfly::Problem
// takes as the shape); none for an empty box.
// `input_strides`: how the exchange before it stored its input (empty:
// row-major; exchange.hpp, the gathered axis first).
std::optional<bfly::Plan> stage(const Device& device, const Problem& problem, const Box& box, Kind kind,
                                std::vector<int> axes, const PlanOptions& options,
                                std::vector<std::int64_t> input_strides = {}) {
  if (box.empty()) return std::nullopt;
  return bfly::Plan(device, detail::stage_problem(problem, box, kind, std::move(axes), std::move(input_strides)),
                    options);
}

// One exchange of the schedule on this rank: skipped where no box changes.
struct Step {
  MPI_Comm comm = MPI_COMM_NULL;  // the group's: the plan's, or a split of it (owned)
  bool owned = false;
  std::optional<detail::Exchange> exchange;  // none where skipped
  int group_size = 0;
  ExchangeMethod method = ExchangeMethod::Alltoallv;  // the MPI transport's (Auto: the one timed fastest)
  std::unique_ptr<detail::NcclComm> nccl;             // the group's, with the NCCL transport
  std::unique_ptr<detail::Transport> transport;       // (destroyed before nccl: it refers to it)
};

// A device buffer of at least `bytes` (a buffer of none is one of 16).
Buffer device_buffer(const Device& device, std::size_t bytes) {
  return Buffer(device, std::max<std::size_t>(bytes, 16));
}

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

}  // namespace

class PlanImpl {
 public:
  MPI_Comm comm = MPI_COMM_NULL;
  Problem problem;
  Device device;
  Transport transport = Transport::Mpi;
  int rank = 0, ranks = 1;
  detail::Schedule schedule;
  std::vector<std::optional<bfly::Plan>> stages;
  std::vector<Step> steps;
  std::optional<detail::DeviceCopy> copy;
  std::unique_ptr<detail::Pipeline> pipeline;  // the first stage and exchange overlapped (NCCL)
  // By stage, where it applies: the stage storing the next exchange's send
  // blocks itself (fused_stage.hpp), that exchange packing nothing.
  std::vector<std::optional<detail::FusedStage>> fused;
  // The caller's own boxes (the constructor with boxes; empty: the
  // schedule's), and the reshapes to and from them where they differ.
  std::vector<Box> given_in, given_out;
  std::unique_ptr<detail::NcclComm> whole_nccl;  // the reshapes' NCCL communicator, where no step has one
  std::unique_ptr<detail::Reshape> into, back;
  const std::vector<Box>& in_boxes() const { return given_in.empty() ? schedule.input_boxes : given_in; }
  const std::vector<Box>& out_boxes() const { return given_out.empty() ? schedule.output_boxes : given_out; }
  // Device memory: two buffers of the largest box that the stages and
  // exchanges take turns writing (each reads one and writes the other),
  // the exchanges' send and receive buffers, and (made by the first
  // host-memory execute) the caller's input and output.
  mutable std::vector<Buffer> buffers, send, receive, host_sides;

  explicit PlanImpl(const Device& d) : device(d) {}
  ~PlanImpl() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized) return;
    for (Step& step : steps)
      if (step.owned) MPI_Comm_free(&step.comm);
    if (comm != MPI_COMM_NULL) MPI_Comm_free(&comm);
  }

  std::int64_t largest_box() const {
    std::int64_t most = 0;
    for (const auto& tiling : schedule.tilings) most = std::max(most, tiling[rank].elements());
    return most;
  }
  std::size_t side_bytes(bool input) const {
    const bool real = input ? problem.kind == Kind::R2C : problem.kind == Kind::C2R;
    const Box& box = input ? in_boxes()[rank] : out_boxes()[rank];
    return static_cast<std::size_t>(box.elements()) * point_bytes(problem.precision) / (real ? 2 : 1);
  }
  // The workspace's parts in bytes: the two box buffers, the send and the
  // receive buffer (Plan::workspace_parts).
  std::vector<std::size_t> parts() const {
    const std::size_t point = point_bytes(problem.precision);
    std::int64_t most_sent = 0, most_received = 0;
    for (const Step& step : steps)
      if (step.exchange)
        most_sent = std::max(most_sent, step.exchange->send_elements()),
        most_received = std::max(most_received, step.exchange->receive_elements());
    for (const auto& stage : fused)
      if (stage) most_sent = std::max(most_sent, stage->send_elements());
    const std::size_t box = point * static_cast<std::size_t>(largest_box());
    std::size_t sent = point * static_cast<std::size_t>(most_sent),
                received = point * static_cast<std::size_t>(most_received);
    for (const auto* reshape : {into.get(), back.get()})
      if (reshape)
        sent = std::max(sent, reshape->send_bytes()), received = std::max(received, reshape->receive_bytes());
    return {box, box, sent, received};
  }
  // The plan's own workspace, made by the first execute that finds none
  // (the caller's, set_workspace, otherwise).
  void ensure_buffers() const {
    if (!buffers.empty()) return;
    const std::vector<std::size_t> bytes = parts();
    for (int b = 0; b < 2; ++b) buffers.push_back(device_buffer(device, bytes[b]));
    send.push_back(device_buffer(device, bytes[2]));
    receive.push_back(device_buffer(device, bytes[3]));
  }

  // The stream every enqueue takes: the caller's, or where none, the
  // device's queue (OpenCL) or CUDA's legacy default stream (CU_STREAM_LEGACY,
  // which NCCL can be given too, unlike the device's own stream).
  void* stream_of(void* stream) const {
    return stream || device.info().backend != "cuda" ? stream : reinterpret_cast<void*>(1);
  }
  void wait(void* stream) const {
    if (stream)
      device.synchronize(stream);
    else
      device.synchronize();
  }

  void choose_methods();
  bool methods_recorded = false;  // choose_methods took them from the record, not timed
  // Each stage storing the next exchange's send blocks, where it applies
  // (fused_stage.hpp; the first stage only where the pipeline does not run).
  void make_fused(const PlanOptions& options) {
    fused.clear();
    fused.resize(stages.size());  // (move-only: no assign)
    for (std::size_t j = 0; j < steps.size(); ++j)
      if (steps[j].exchange && stages[j] && !(j == 0 && pipeline))
        fused[j] =
            detail::FusedStage::make(device, problem, j == 0 ? schedule.input_boxes[rank] : schedule.tilings[j][rank],
                                     schedule.kinds[j], schedule.axes[j], *stages[j], *steps[j].exchange, options);
  }
  bool fused_at(std::size_t j) const { return j < fused.size() && fused[j].has_value(); }
  void take_boxes(const Box& input_box, const Box& output_box, const PlanOptions& options);
  void execute(const Buffer& in, const Buffer& out, void* stream, Phases* phases) const;
  template <class In, class Out>
  void execute(const In* in, Out* out) const;
};

// ExchangeMethod::Auto with the MPI transport: each host-staged exchange
// timed on its own runs with each method (transport.hpp, fastest_method),
// the fastest kept. Remembered by the process for the next plan of the
// same problem on as many ranks, where every rank remembers it (else all
// time again: the timing is collective), and recorded for the next
// process on as many ranks and nodes (recorded_methods.hpp).
void PlanImpl::choose_methods() {
  static std::mutex mutex;
  static std::map<std::string, std::pair<std::vector<ExchangeMethod>, bool>> chosen;
  const std::string key = problem.token() + "/" + std::to_string(ranks) + " ranks";
  std::vector<ExchangeMethod> methods;
  {
    const std::lock_guard<std::mutex> lock(mutex);
    if (const auto found = chosen.find(key); found != chosen.end())
      methods = found->second.first, methods_recorded = found->second.second;
  }
  int known = methods.size() == steps.size() ? 1 : 0;
  detail::check_mpi(MPI_Allreduce(MPI_IN_PLACE, &known, 1, MPI_INT, MPI_MIN, comm), "MPI_Allreduce");
  const int point = static_cast<int>(point_bytes(problem.precision));
  if (!known) {
    const std::string file = detail::exchanges_file(device);
    const std::string record_key = detail::record_key(problem, ranks, detail::node_count(comm));
    methods = detail::read_recorded(comm, file, record_key, steps.size());
    methods_recorded = !methods.empty();
    void* stream = stream_of(nullptr);
    for (std::size_t j = 0; !methods_recorded && j < steps.size(); ++j) {
      const Step& step = steps[j];
      const auto* mpi = dynamic_cast<const detail::MpiTransport*>(step.transport.get());
      if (!step.exchange || !mpi || mpi->device_pointers()) {
        methods.push_back(ExchangeMethod::Alltoallv);  // (device pointers: always point-to-point)
        continue;
      }
      const std::vector<detail::Run> sends = step.exchange->pack(*copy, buffers[0], send[0], stream, true);
      const std::vector<detail::Run> receives = step.exchange->receive_runs(receive[0], buffers[1]);
      methods.push_back(detail::fastest_method(step.comm, device, point, sends, receives, stream));
    }
    if (!methods_recorded) detail::record(comm, file, record_key, methods);
    const std::lock_guard<std::mutex> lock(mutex);
    chosen[key] = {methods, methods_recorded};
  }
  for (std::size_t j = 0; j < steps.size(); ++j) {
    Step& step = steps[j];
    step.method = methods[j];
    if (step.exchange && step.method != ExchangeMethod::Alltoallv)
      step.transport = std::make_unique<detail::MpiTransport>(step.comm, device, point, step.method);
  }
}

// The constructor with boxes: every rank's boxes gathered and checked (the
// same verdict everywhere: the same lists), then a reshape each way where
// they are not the decomposition's (reshape.hpp).
void PlanImpl::take_boxes(const Box& input_box, const Box& output_box, const PlanOptions& options) {
  const std::size_t axes = problem.shape.size();
  const std::vector<Box> ins = detail::gather_boxes(comm, input_box, axes);
  const std::vector<Box> outs = detail::gather_boxes(comm, output_box, axes);
  const bool real_in = problem.kind == Kind::R2C, real_out = problem.kind == Kind::C2R;
  detail::check_tiling(ins, real_in ? problem.shape : schedule.complex_shape, "input");
  detail::check_tiling(outs, real_out ? problem.shape : schedule.complex_shape, "output");
  if (ins != schedule.input_boxes) given_in = ins;
  if (outs != schedule.output_boxes) given_out = outs;
  if (given_in.empty() && given_out.empty()) return;
  std::optional<detail::Exchange> to_first, from_last;
  detail::together(
      comm,
      [&] {
        if (!given_in.empty()) to_first.emplace(given_in, schedule.input_boxes, rank);
        if (!given_out.empty()) from_last.emplace(schedule.output_boxes, given_out, rank);
      },
      problem.timeout);
  const detail::NcclComm* nccl = nullptr;
  if (transport == Transport::Nccl) {
    for (const Step& step : steps)
      if (step.nccl && step.group_size == ranks) nccl = step.nccl.get();
    if (!nccl) whole_nccl = std::make_unique<detail::NcclComm>(comm, device), nccl = whole_nccl.get();
  }
  const int point = static_cast<int>(point_bytes(problem.precision));
  if (to_first)
    into = std::make_unique<detail::Reshape>(comm, device, std::move(*to_first), real_in ? point / 2 : point, transport,
                                             problem.exchange, nccl);
  if (from_last)
    back = std::make_unique<detail::Reshape>(comm, device, std::move(*from_last), real_out ? point / 2 : point,
                                             transport, problem.exchange, nccl);
  // The pipeline reads the caller's input; after a reshape it is buffer 1.
  if (into && pipeline) {
    pipeline.reset();
    detail::together(
        comm, [&] { make_fused(options); }, problem.timeout);
  }
}

void PlanImpl::execute(const Buffer& in, const Buffer& out, void* caller_stream, Phases* phases) const {
  void* stream = stream_of(caller_stream);
  const int last = static_cast<int>(stages.size()) - 1;
  int current = 1;  // the buffer holding the data; the next step writes the other
  Clock::time_point start;
  auto begin = [&] {
    if (phases) wait(stream), detail::check_mpi(MPI_Barrier(comm), "MPI_Barrier"), start = Clock::now();
  };
  auto end = [&](std::vector<double>& times) {
    if (phases) wait(stream), detail::check_mpi(MPI_Barrier(comm), "MPI_Barrier"), times.push_back(ms_since(start));
  };
  // Stage j: from `first` (j = 0: the caller's input, or buffer 1 where a
  // reshape comes first; current is 1, so stage 0 writes buffer 0) or the
  // current buffer, to the caller's output (the last, unless a reshape
  // follows) or the other buffer.
  const Buffer* first = &in;  // (set once the buffers exist)
  // Stage j from `source` through the other buffer (the two plans' form)
  // into the send buffer's blocks, then only exchange j's transport: the
  // data lands in the current buffer (the stage's source, read by then;
  // stage 0: buffer 1), as a stage and an exchange would leave it.
  auto run_fused = [&](int j, const Buffer& source) {
    begin();
    detail::together(
        comm, [&] { fused[j]->run(source, buffers[1 - current], send[0], stream); }, problem.timeout);
    if (phases) end(phases->stage_ms);
    begin();
    const Step& step = steps[j];
    step.transport->exchange(fused[j]->sends(send[0]), step.exchange->receive_runs(receive[0], buffers[current]),
                             stream);
    step.exchange->unpack(*copy, receive[0], buffers[current], stream);
    if (phases) end(phases->exchange_ms);
  };
  auto run = [&](int j) {
    const Buffer& source = j == 0 ? *first : buffers[current];
    const Buffer& target = j == last && !back ? out : buffers[1 - current];
    if (const auto& plan = stages[j]) {
      if (stream)
        plan->execute(source, target, stream);
      else
        plan->execute(source, target);
    }
    current = 1 - current;
  };
  detail::together(
      comm,
      [&] {
        if (in.bytes() < side_bytes(true) || out.bytes() < side_bytes(false))
          throw Error(ErrorCode::InvalidArgument, "bfly::distributed: execute with buffers of " +
                                                      std::to_string(in.bytes()) + " and " +
                                                      std::to_string(out.bytes()) + " bytes where the boxes take " +
                                                      std::to_string(side_bytes(true)) + " and " +
                                                      std::to_string(side_bytes(false)) + " (" + problem.token() + ")");
        if (in.device() != device.impl() || out.device() != device.impl())
          throw Error(ErrorCode::InvalidArgument,
                      "bfly::distributed: execute with buffers of another device than the plan's");
        ensure_buffers();
      },
      problem.timeout);
  if (into) {
    first = &buffers[1];
    begin();
    into->run(in, send[0], receive[0], buffers[1], stream);
    if (phases) end(phases->exchange_ms);
  }
  // Stage 0 and the first exchange: in overlapped chunks, or one after the other.
  const bool pipelined = pipeline && !phases;
  if (pipelined) {
    detail::together(
        comm, [&] { pipeline->run(in, buffers[0], send[0], receive[0], buffers[1], stream); }, problem.timeout);
    current = 1;
  } else if (fused_at(0)) {
    run_fused(0, *first);
  } else {
    begin();
    detail::together(
        comm, [&] { run(0); }, problem.timeout);
    if (phases) end(phases->stage_ms);
  }
  for (int j = 1; j <= last; ++j) {
    if (const Step& step = steps[j - 1]; step.exchange && !(pipelined && j == 1) && !fused_at(j - 1)) {
      begin();
      step.exchange->run(*step.transport, *copy, buffers[current], send[0], receive[0], buffers[1 - current], stream);
      if (phases) end(phases->exchange_ms);
      current = 1 - current;
    }
    if (j < last && fused_at(j)) {
      run_fused(j, buffers[current]);
      continue;
    }
    begin();
    // Agreed after the last stage too, so that a rank never returns while another throws.
    detail::together(
        comm, [&] { run(j); }, problem.timeout);
    if (phases) end(phases->stage_ms);
  }
  if (back) {
    begin();
    back->run(buffers[current], send[0], receive[0], out, stream);
    if (phases) end(phases->exchange_ms);
  }
  // No stream given on CUDA: the work went to the legacy default stream,
  // which Device::synchronize() (the device's own stream) does not wait
  // for; return when it is done instead.
  if (!caller_stream && stream) wait(stream);
  if (!phases) return;
  for (const Step& step : steps) {
    if (!step.exchange) continue;
    begin();
    step.exchange->run(*step.transport, *copy, buffers[0], send[0], receive[0], buffers[1], stream, true);
    end(phases->bound_ms);
  }
  for (const auto* reshape : {into.get(), back.get()}) {
    if (!reshape) continue;
    begin();
    reshape->bound(buffers[0], send[0], receive[0], buffers[1], stream);
    end(phases->bound_ms);
  }
}

template <class In, class Out>
void PlanImpl::execute(const In* in, Out* out) const {
  const Box& in_box = in_boxes()[rank];
  const Box& out_box = out_boxes()[rank];
  detail::together(
      comm,
      [&] {
        const bool kind_fits =
            is_complex<In>() == (problem.kind != Kind::R2C) && is_complex<Out>() == (problem.kind != Kind::C2R);
        if (problem.precision != precision_of<In>() || problem.precision != precision_of<Out>())
          throw Error(ErrorCode::InvalidArgument, "bfly::distributed: execute with " + type_name<In>() +
                                                      " data on an " + bfly::to_string(problem.precision) + " plan");
        if (!kind_fits)
          throw Error(ErrorCode::InvalidArgument, "bfly::distributed: execute with " + type_name<In>() + " in and " +
                                                      type_name<Out>() + " out on a " + bfly::to_string(problem.kind) +
                                                      " plan (c2c: complex in and out, r2c: real in, c2r: real out)");
        if ((!in && !in_box.empty()) || (!out && !out_box.empty()))
          throw Error(ErrorCode::InvalidArgument, "bfly::distributed: execute with a null buffer for a non-empty box");
        if (host_sides.empty())
          for (bool input : {true, false}) host_sides.push_back(device_buffer(device, side_bytes(input)));
        if (side_bytes(true)) host_sides[0].write(in, side_bytes(true));
      },
      problem.timeout);
  execute(host_sides[0], host_sides[1], nullptr, nullptr);
  detail::together(
      comm,
      [&] {
        wait(stream_of(nullptr));
        if (side_bytes(false)) host_sides[1].read(out, side_bytes(false));
      },
      problem.timeout);
}

Plan::Plan(MPI_Comm comm, const Device& device, const Problem& given, const PlanOptions& options)
    : impl_(std::make_unique<PlanImpl>(device)) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) throw Error(ErrorCode::InvalidArgument, "bfly::distributed: MPI is not initialised (MPI_Init)");
  if (comm == MPI_COMM_NULL) throw Error(ErrorCode::InvalidArgument, "bfly::distributed: MPI_COMM_NULL");
  PlanImpl& p = *impl_;
  // Every rank here before the first blocking collective (the dup), within
  // the problem's timeout: a rank that never comes is an error, not a hang.
  detail::arrive(comm, given.timeout, "the plan's constructor");
  detail::check_mpi(MPI_Comm_dup(comm, &p.comm), "MPI_Comm_dup");
  // Errors come back as codes (check_mpi) rather than aborting the job.
  detail::check_mpi(MPI_Comm_set_errhandler(p.comm, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  detail::check_mpi(MPI_Comm_rank(p.comm, &p.rank), "MPI_Comm_rank");
  detail::check_mpi(MPI_Comm_size(p.comm, &p.ranks), "MPI_Comm_size");

  // First of all, the same problem everywhere (then every later check and
  // collective is the same on every rank).
  detail::agree_on(p.comm, detail::fingerprint(given.token()),
                   "the problem (global shape, kind, precision, direction, norm, decomposition, grid)");
  p.problem = detail::resolve(given, p.ranks);
  const Problem& problem = p.problem;
  detail::check(problem, p.ranks);
  if (!options.load.empty() || !options.store.empty())
    throw Error(ErrorCode::Unsupported,
                "bfly::distributed: callbacks (PlanOptions::load, store) are not supported yet");
  p.schedule = detail::make_schedule(problem, p.ranks);
  const detail::Schedule& s = p.schedule;

  // The groups' communicators: the plan's where the group is every rank,
  // a split where it is a row or column of the grid (collective, the same
  // calls on every rank: the schedule is).
  for (int j = 0; j < s.exchanges(); ++j) {
    Step step;
    step.group_size = static_cast<int>(s.members(j, p.rank).size());
    if (!s.unchanged(j)) {
      if (step.group_size == p.ranks) {
        step.comm = p.comm;
      } else {
        detail::check_mpi(MPI_Comm_split(p.comm, s.groups[j][p.rank], p.rank, &step.comm), "MPI_Comm_split");
        step.owned = true;
      }
    }
    p.steps.push_back(std::move(step));
  }

  // Local plans and the exchanges' counts: may fail on some ranks only
  // (a kernel that does not build, a block past MPI's counts).
  // Kernels compiled once a node: each host's first rank plans first, so
  // the kernels it compiles are in the disk cache (written atomically) when
  // the host's other ranks plan the same lengths, and they load them
  // instead of compiling them again, each core's worth at once.
  // How each exchange stores this rank's next box: its group's gathered
  // axis first, so that every received part is one run (exchange.hpp);
  // row-major where the exchange is skipped.
  std::vector<std::vector<int>> orders;
  for (int j = 0; j < s.exchanges(); ++j) {
    std::vector<Box> group;
    for (int r : s.members(j, p.rank)) group.push_back(s.tilings[j][r]);
    orders.push_back(s.unchanged(j) ? detail::identity_order(problem.shape.size()) : detail::gathered_order(group));
  }
  MPI_Comm host = MPI_COMM_NULL;
  detail::check_mpi(MPI_Comm_split_type(p.comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host), "MPI_Comm_split_type");
  int host_rank = 0;
  MPI_Comm_rank(host, &host_rank);
  detail::together(
      p.comm,
      [&] {
        const int last = static_cast<int>(s.tilings.size()) - 1;
        std::exception_ptr failure;
        for (int turn = 0; turn < 2; ++turn) {
          if ((host_rank == 0) == (turn == 0)) try {
              for (int j = 0; j <= last; ++j) {
                const Box& box = j == 0      ? s.input_boxes[p.rank]
                                 : j == last ? s.output_boxes[p.rank]
                                             : s.tilings[j][p.rank];
                // Stage j reads what exchange j - 1 stored, in its order.
                std::vector<std::int64_t> strides;
                if (j > 0 && orders[j - 1] != detail::identity_order(orders[j - 1].size()))
                  strides = detail::storage_strides(s.tilings[j][p.rank], orders[j - 1]);
                p.stages.push_back(stage(device, problem, box, s.kinds[j], s.axes[j], options, strides));
              }
            } catch (...) {
              failure = std::current_exception();  // after the barrier: every rank of the host reaches it
            }
          MPI_Barrier(host);
        }
        MPI_Comm_free(&host);
        if (failure) std::rethrow_exception(failure);
        for (int j = 0; j < s.exchanges(); ++j) {
          if (p.steps[j].comm == MPI_COMM_NULL) continue;
          // The group's boxes before and after, by rank in the group (a split
          // keeps the ranks' order: its key is the rank).
          std::vector<Box> from, to;
          int index = 0;
          for (int r : s.members(j, p.rank)) {
            if (r == p.rank) index = static_cast<int>(from.size());
            from.push_back(s.tilings[j][r]), to.push_back(s.tilings[j + 1][r]);
          }
          p.steps[j].exchange.emplace(from, to, index, orders[j]);
        }
      },
      problem.timeout);

  // The transport: NCCL where every rank can (Auto), then each group's
  // communicator; the copy kernels and the device buffers.
  p.transport = problem.transport;
  if (p.transport == Transport::Auto)
    p.transport = detail::nccl_suits(p.comm, device) ? Transport::Nccl : Transport::Mpi;
  detail::together(
      p.comm,
      [&] {
        const int point = static_cast<int>(point_bytes(problem.precision));
        for (Step& step : p.steps) {
          if (step.comm == MPI_COMM_NULL) continue;
          if (p.transport == Transport::Nccl) {
            step.nccl = std::make_unique<detail::NcclComm>(step.comm, device);
            step.transport = std::make_unique<detail::NcclTransport>(*step.nccl, point);
          } else {
            // (Auto: Alltoallv until choose_methods has timed them.)
            step.method = problem.exchange == ExchangeMethod::Auto ? ExchangeMethod::Alltoallv : problem.exchange;
            step.transport = std::make_unique<detail::MpiTransport>(step.comm, device, point, step.method);
          }
        }
        p.copy.emplace(device, point);
        const int chunks = problem.pipeline == 0 ? 4 : problem.pipeline;
        if (p.transport == Transport::Nccl && chunks > 1 && detail::pipelines(s) && p.steps[0].nccl)
          p.pipeline = std::make_unique<detail::Pipeline>(device, problem, s, p.rank, s.members(0, p.rank), chunks,
                                                          options, *p.steps[0].nccl, *p.copy, *p.steps[0].exchange);
        p.make_fused(options);
      },
      problem.timeout);
  // ExchangeMethod::Auto: the buffers first (made or failed on every rank
  // alike), then the timing's collectives.
  if (p.transport == Transport::Mpi && problem.exchange == ExchangeMethod::Auto) {
    detail::together(
        p.comm, [&] { p.ensure_buffers(); }, problem.timeout);
    p.choose_methods();
  }
}

Plan::Plan(MPI_Comm comm, const Device& device, const Problem& problem, const Box& input_box, const Box& output_box,
           const PlanOptions& options)
    : Plan(comm, device, problem, options) {
  impl_->take_boxes(input_box, output_box, options);
}

Plan::~Plan() = default;
Plan::Plan(Plan&&) noexcept = default;
Plan& Plan::operator=(Plan&&) noexcept = default;

const Problem& Plan::problem() const { return impl_->problem; }
const Box& Plan::input_box() const { return impl_->in_boxes()[impl_->rank]; }
const Box& Plan::output_box() const { return impl_->out_boxes()[impl_->rank]; }
const std::vector<Box>& Plan::input_boxes() const { return impl_->in_boxes(); }
const std::vector<Box>& Plan::output_boxes() const { return impl_->out_boxes(); }
const std::vector<int>& Plan::grid() const { return impl_->schedule.grid; }

Transport Plan::transport() const { return impl_->transport; }

std::size_t Plan::workspace_bytes() const {
  std::size_t bytes = 0;
  for (std::size_t part : impl_->parts()) bytes += std::max<std::size_t>(part, 16);
  for (const Buffer& buffer : impl_->host_sides) bytes += buffer.bytes();
  return bytes;
}

std::vector<std::size_t> Plan::workspace_parts() const { return impl_->parts(); }

void Plan::set_workspace(std::vector<Buffer> parts) {
  PlanImpl& p = *impl_;
  const std::vector<std::size_t> need = p.parts();
  if (parts.size() != need.size())
    throw Error(ErrorCode::InvalidArgument, "bfly::distributed: set_workspace takes " + std::to_string(need.size()) +
                                                " buffers (workspace_parts()), not " + std::to_string(parts.size()));
  for (std::size_t i = 0; i < need.size(); ++i) {
    if (parts[i].device() != p.device.impl())
      throw Error(ErrorCode::InvalidArgument, "bfly::distributed: set_workspace buffer " + std::to_string(i) +
                                                  " is on another device than the plan's");
    if (parts[i].bytes() < need[i])
      throw Error(ErrorCode::InvalidArgument, "bfly::distributed: set_workspace buffer " + std::to_string(i) + " of " +
                                                  std::to_string(parts[i].bytes()) + " bytes where the plan needs " +
                                                  std::to_string(need[i]));
  }
  p.buffers = {parts[0], parts[1]};
  p.send = {parts[2]};
  p.receive = {parts[3]};
}

std::string Plan::describe() const {
  const auto& p = *impl_;
  const detail::Schedule& s = p.schedule;
  auto box_text = [](const Box& box) {
    std::string text;
    for (std::size_t k = 0; k < box.lower.size(); ++k)
      text += (k ? " x " : "") + std::string("[") + std::to_string(box.lower[k]) + ", " + std::to_string(box.upper[k]) +
              ")";
    return text;
  };
  std::ostringstream out;
  out << "distributed " << p.problem.token() << " on rank " << p.rank << " of " << p.ranks << ", grid " << s.grid[0]
      << " x " << s.grid[1] << "\n";
  out << "  input box    " << box_text(input_box()) << "\n";
  auto reshape_text = [&](const detail::Reshape& reshape, const char* what) {
    out << "  reshape      " << what << ", over every rank: send " << reshape.exchange().sent_points()
        << " points, receive " << reshape.exchange().received_points() << "\n";
  };
  if (p.into) reshape_text(*p.into, "the caller's input boxes to the decomposition's");
  for (std::size_t j = 0; j < p.stages.size(); ++j) {
    if (j > 0) {
      const Step& step = p.steps[j - 1];
      out << "  exchange " << j << "   ";  // between stages j and j + 1, counted from 1
      if (!step.exchange)
        out << "none (no box changes)\n";
      else
        out << (p.transport == Transport::Nccl ? "NCCL send/recv"
                : dynamic_cast<const detail::MpiTransport&>(*step.transport).device_pointers()
                    ? "MPI point-to-point on device pointers (CUDA-aware),"
                : step.method == ExchangeMethod::Alltoall     ? "MPI_Alltoall (padded), host-staged,"
                : step.method == ExchangeMethod::PointToPoint ? "MPI point-to-point, host-staged,"
                                                              : "MPI_Alltoallv, host-staged,")
            << (p.problem.exchange != ExchangeMethod::Auto || p.transport != Transport::Mpi ? ""
                : p.methods_recorded                                                        ? " recorded fastest,"
                                                                                            : " timed fastest,")
            << " over " << step.group_size << " ranks (" << (step.owned ? "a row or column of the grid" : "every rank")
            << "): send " << step.exchange->sent_points() << " points ("
            << (p.fused_at(j - 1) ? "stored by stage " + std::to_string(j) + ", none packed"
                                  : std::to_string(step.exchange->send_elements()) + " packed")
            << "), receive " << step.exchange->received_points() << " (" << step.exchange->receive_elements()
            << " unpacked)\n";
    }
    out << "  stage " << j + 1 << "      "
        << (p.stages[j] ? p.stages[j]->problem().token() : std::string("(empty box)"))
        << (p.fused_at(j) ? p.fused[j]->form() : "") << "\n";
  }
  if (p.back) reshape_text(*p.back, "the decomposition's output boxes to the caller's");
  out << "  output box   " << box_text(output_box()) << "\n";
  return out.str();
}

void Plan::execute(const std::complex<float>* in, std::complex<float>* out) const { impl_->execute(in, out); }
void Plan::execute(const std::complex<double>* in, std::complex<double>* out) const { impl_->execute(in, out); }
void Plan::execute(const float* in, std::complex<float>* out) const { impl_->execute(in, out); }
void Plan::execute(const double* in, std::complex<double>* out) const { impl_->execute(in, out); }
void Plan::execute(const std::complex<float>* in, float* out) const { impl_->execute(in, out); }
void Plan::execute(const std::complex<double>* in, double* out) const { impl_->execute(in, out); }
void Plan::execute(const Buffer& in, const Buffer& out, void* stream) const {
  impl_->execute(in, out, stream, nullptr);
}

Phases Plan::profile(const Buffer& in, const Buffer& out) const {
  Phases phases;
  impl_->execute(in, out, nullptr, &phases);
  return phases;
}

}  // namespace bfly::distributed
