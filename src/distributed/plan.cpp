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
#include <optional>
#include <sstream>
#include <type_traits>

#include "distributed/agree.hpp"
#include "distributed/boxes.hpp"
#include "distributed/exchange.hpp"
#include "distributed/schedule.hpp"

namespace bfly::distributed {

namespace {

// A local stage: `axes` of the row-major array of this rank's box (the
// real box for an R2C's first stage and a C2R's last, which bfly::Problem
// takes as the shape); none for an empty box.
std::optional<bfly::Plan> stage(const Device& device, const Problem& problem, const Box& box, Kind kind,
                                std::vector<int> axes, const PlanOptions& options) {
  if (box.empty()) return std::nullopt;
  bfly::Problem local;
  local.kind = kind;
  local.shape = box.shape();
  local.axes = std::move(axes);
  local.precision = problem.precision;
  local.direction = problem.direction;
  local.norm = problem.norm;
  return bfly::Plan(device, local, options);
}

// One exchange of the schedule on this rank: skipped where no box changes.
struct Step {
  MPI_Comm comm = MPI_COMM_NULL;  // the group's: the plan's, or a split of it (owned)
  bool owned = false;
  std::optional<detail::Exchange> exchange;  // none where skipped
  int group_size = 0;
};

template <class T>
constexpr Precision precision_of() {
  return std::is_same_v<T, float> || std::is_same_v<T, std::complex<float>> ? Precision::Single : Precision::Double;
}

template <class T>
constexpr bool is_complex() {
  return std::is_same_v<T, std::complex<float>> || std::is_same_v<T, std::complex<double>>;
}

template <class T>
std::string type_name() {
  if constexpr (std::is_same_v<T, float>) return "float";
  if constexpr (std::is_same_v<T, double>) return "double";
  if constexpr (std::is_same_v<T, std::complex<float>>) return "complex<float>";
  return "complex<double>";
}

template <class T>
T* as(std::vector<std::complex<double>>& storage, std::int64_t elements) {
  const std::size_t need = (static_cast<std::size_t>(elements) * sizeof(T) + 15) / 16;
  if (storage.size() < need) storage.resize(need);
  return reinterpret_cast<T*>(storage.data());
}

}  // namespace

class PlanImpl {
 public:
  MPI_Comm comm = MPI_COMM_NULL;
  Problem problem;
  int rank = 0, ranks = 1;
  detail::Schedule schedule;
  std::vector<std::optional<bfly::Plan>> stages;
  std::vector<Step> steps;
  // Host staging, as complex<double> for alignment: two buffers the stages
  // and exchanges take turns writing (each reads one and writes the
  // other), and the exchanges' send and receive buffers.
  mutable std::vector<std::complex<double>> buffers[2], send, receive;

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

  template <class In, class Out>
  void execute(const In* in, Out* out) const;
};

namespace {

// Runs a stage's plan from `source` to `target`, as the element types the
// stage takes (real on the real side, complex elsewhere).
template <class In, class Out>
void run_stage(const bfly::Plan& plan, const void* source, void* target) {
  plan.execute_host(static_cast<const In*>(source), static_cast<Out*>(target));
}

}  // namespace

template <class In, class Out>
void PlanImpl::execute(const In* in, Out* out) const {
  using Complex = std::conditional_t<is_complex<In>(), In, std::complex<In>>;
  const Box& in_box = schedule.input_boxes[rank];
  const Box& out_box = schedule.output_boxes[rank];
  const int last = static_cast<int>(stages.size()) - 1;
  Complex* buffer[2] = {nullptr, nullptr};
  Complex *sent = nullptr, *received = nullptr;
  int current = 1;  // the buffer holding the data; the next step writes the other
  // Stage j: from the caller's input (j = 0) or the current buffer, to the
  // caller's output (the last) or the other buffer.
  auto run = [&](int j) {
    const void* source = j == 0 ? static_cast<const void*>(in) : buffer[current];
    void* target = j == last ? static_cast<void*>(out) : buffer[1 - current];
    if (const auto& plan = stages[j]) {
      if (j == 0 && j == last)
        run_stage<In, Out>(*plan, source, target);
      else if (j == 0)
        run_stage<In, Complex>(*plan, source, target);
      else if (j == last)
        run_stage<Complex, Out>(*plan, source, target);
      else
        run_stage<Complex, Complex>(*plan, source, target);
    }
    current = 1 - current;
  };
  detail::together(comm, [&] {
    const bool kind_fits =
        is_complex<In>() == (problem.kind != Kind::R2C) && is_complex<Out>() == (problem.kind != Kind::C2R);
    if (problem.precision != precision_of<In>() || problem.precision != precision_of<Out>())
      throw Error(ErrorCode::InvalidArgument, "bfly::distributed: execute with " + type_name<In>() + " data on an " +
                                                  bfly::to_string(problem.precision) + " plan");
    if (!kind_fits)
      throw Error(ErrorCode::InvalidArgument, "bfly::distributed: execute with " + type_name<In>() + " in and " +
                                                  type_name<Out>() + " out on a " + bfly::to_string(problem.kind) +
                                                  " plan (c2c: complex in and out, r2c: real in, c2r: real out)");
    if ((!in && !in_box.empty()) || (!out && !out_box.empty()))
      throw Error(ErrorCode::InvalidArgument, "bfly::distributed: execute with a null buffer for a non-empty box");
    for (int b = 0; b < 2; ++b) buffer[b] = as<Complex>(buffers[b], largest_box());
    std::int64_t most_sent = 0, most_received = 0;
    for (const Step& step : steps)
      if (step.exchange)
        most_sent = std::max(most_sent, step.exchange->send_elements()),
        most_received = std::max(most_received, step.exchange->receive_elements());
    sent = as<Complex>(send, most_sent);
    received = as<Complex>(receive, most_received);
    run(0);
  });
  for (int j = 1; j <= last; ++j) {
    if (const Step& step = steps[j - 1]; step.exchange) {
      step.exchange->run(step.comm, buffer[current], sent, received, buffer[1 - current]);
      current = 1 - current;
    }
    // Agreed after the last stage too, so that a rank never returns while another throws.
    detail::together(comm, [&] { run(j); });
  }
}

Plan::Plan(MPI_Comm comm, const Device& device, const Problem& problem, const PlanOptions& options)
    : impl_(std::make_unique<PlanImpl>()) {
  int initialized = 0;
  MPI_Initialized(&initialized);
  if (!initialized) throw Error(ErrorCode::InvalidArgument, "bfly::distributed: MPI is not initialised (MPI_Init)");
  if (comm == MPI_COMM_NULL) throw Error(ErrorCode::InvalidArgument, "bfly::distributed: MPI_COMM_NULL");
  PlanImpl& p = *impl_;
  p.problem = problem;
  detail::check_mpi(MPI_Comm_dup(comm, &p.comm), "MPI_Comm_dup");
  // Errors come back as codes (check_mpi) rather than aborting the job.
  detail::check_mpi(MPI_Comm_set_errhandler(p.comm, MPI_ERRORS_RETURN), "MPI_Comm_set_errhandler");
  detail::check_mpi(MPI_Comm_rank(p.comm, &p.rank), "MPI_Comm_rank");
  detail::check_mpi(MPI_Comm_size(p.comm, &p.ranks), "MPI_Comm_size");

  // First of all, the same problem everywhere (then every later check and
  // collective is the same on every rank).
  detail::agree_on(p.comm, detail::fingerprint(problem.token()),
                   "the problem (global shape, kind, precision, direction, norm, decomposition, grid)");
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
  detail::together(p.comm, [&] {
    const int last = static_cast<int>(s.tilings.size()) - 1;
    for (int j = 0; j <= last; ++j) {
      const Box& box = j == 0 ? s.input_boxes[p.rank] : j == last ? s.output_boxes[p.rank] : s.tilings[j][p.rank];
      p.stages.push_back(stage(device, problem, box, s.kinds[j], s.axes[j], options));
    }
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
      p.steps[j].exchange.emplace(from, to, index);
    }
  });
}

Plan::~Plan() = default;
Plan::Plan(Plan&&) noexcept = default;
Plan& Plan::operator=(Plan&&) noexcept = default;

const Problem& Plan::problem() const { return impl_->problem; }
const Box& Plan::input_box() const { return impl_->schedule.input_boxes[impl_->rank]; }
const Box& Plan::output_box() const { return impl_->schedule.output_boxes[impl_->rank]; }
const std::vector<Box>& Plan::input_boxes() const { return impl_->schedule.input_boxes; }
const std::vector<Box>& Plan::output_boxes() const { return impl_->schedule.output_boxes; }
const std::vector<int>& Plan::grid() const { return impl_->schedule.grid; }

std::size_t Plan::workspace_bytes() const {
  const auto& p = *impl_;
  const std::size_t point = p.problem.precision == Precision::Single ? 8 : 16;
  std::int64_t most_sent = 0, most_received = 0;
  for (const Step& step : p.steps)
    if (step.exchange)
      most_sent = std::max(most_sent, step.exchange->send_elements()),
      most_received = std::max(most_received, step.exchange->receive_elements());
  return point * static_cast<std::size_t>(2 * p.largest_box() + most_sent + most_received);
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
  for (std::size_t j = 0; j < p.stages.size(); ++j) {
    if (j > 0) {
      const Step& step = p.steps[j - 1];
      out << "  exchange " << j << "   ";  // between stages j and j + 1, counted from 1
      if (!step.exchange)
        out << "none (no box changes)\n";
      else
        out << "MPI_Alltoallv over " << step.group_size << " ranks ("
            << (step.owned ? "a row or column of the grid" : "every rank") << "), host-staged: send "
            << step.exchange->send_elements() << ", receive " << step.exchange->receive_elements() << " points\n";
    }
    out << "  stage " << j + 1 << "      "
        << (p.stages[j] ? p.stages[j]->problem().token() : std::string("(empty box)")) << "\n";
  }
  out << "  output box   " << box_text(output_box()) << "\n";
  return out.str();
}

void Plan::execute(const std::complex<float>* in, std::complex<float>* out) const { impl_->execute(in, out); }
void Plan::execute(const std::complex<double>* in, std::complex<double>* out) const { impl_->execute(in, out); }
void Plan::execute(const float* in, std::complex<float>* out) const { impl_->execute(in, out); }
void Plan::execute(const double* in, std::complex<double>* out) const { impl_->execute(in, out); }
void Plan::execute(const std::complex<float>* in, float* out) const { impl_->execute(in, out); }
void Plan::execute(const std::complex<double>* in, double* out) const { impl_->execute(in, out); }

}  // namespace bfly::distributed
