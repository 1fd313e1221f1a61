// bfly::distributed::Plan (include/bfly/distributed.hpp): two local stages
// of ordinary bfly plans around one exchange.
//
//   input box  (split along axis a)  -- stage 1: every axis but a, one bfly::Plan
//   exchange   (exchange.cpp)        -- blocks to the ranks whose output box holds them
//   output box (split along axis b)  -- stage 2: axis a, whole here, one bfly::Plan
//
// The norm splits across the stages by itself: each stage takes the
// problem's norm over its own axes, and 1/N1 * 1/N2 = 1/N, 1/sqrt(N1) *
// 1/sqrt(N2) = 1/sqrt(N). Every step that may fail on some ranks only is
// followed by an agreement (agree.hpp) before the next collective, so the
// ranks fail together with one message.
#include <optional>
#include <sstream>

#include "distributed/agree.hpp"
#include "distributed/boxes.hpp"
#include "distributed/exchange.hpp"

namespace bfly::distributed {

const char* to_string(Decomposition d) {
  switch (d) {
    case Decomposition::Slabs:
      return "slabs";
    case Decomposition::SlabsTransposedIn:
      return "slabs-transposed-in";
  }
  return "?";
}

// bfly::Problem's token's fields, in its order, then the decomposition.
std::string Problem::token() const {
  std::string shape_text;
  for (std::size_t k = 0; k < shape.size(); ++k) shape_text += (k ? "x" : "") + std::to_string(shape[k]);
  return std::string(bfly::to_string(kind)) + "_" + bfly::to_string(precision) + "_" + bfly::to_string(direction) +
         "_" + shape_text + "_" + bfly::to_string(norm) + "_" + to_string(decomposition);
}

namespace {

// Objections to the problem (empty: none): the same on every rank once
// the ranks agree on the problem, so each rank may throw them alone.
std::string validate(const Problem& problem) {
  if (problem.shape.size() != 2 && problem.shape.size() != 3)
    return "bfly::distributed: the global shape has " + std::to_string(problem.shape.size()) +
           " axes (2 or 3 are supported): " + problem.token();
  std::int64_t elements = 1;
  for (std::int64_t n : problem.shape) {
    if (n < 1) return "bfly::distributed: the global shape has a length " + std::to_string(n) + ": " + problem.token();
    if (elements > (std::int64_t{1} << 62) / n)
      return "bfly::distributed: the global shape overflows: " + problem.token();
    elements *= n;
  }
  return "";
}

std::string unsupported(const Problem& problem, const PlanOptions& options) {
  if (problem.kind != Kind::C2C)
    return "bfly::distributed: only C2C transforms are distributed in this version, not " +
           std::string(bfly::to_string(problem.kind));
  if (!options.load.empty() || !options.store.empty())
    return "bfly::distributed: callbacks (PlanOptions::load, store) are not supported yet";
  return "";
}

// A local stage: `axes` of the row-major array of `box`; none for an empty box.
std::optional<bfly::Plan> stage(const Device& device, const Problem& problem, const Box& box, std::vector<int> axes,
                                const PlanOptions& options) {
  if (box.empty()) return std::nullopt;
  bfly::Problem local;
  local.kind = Kind::C2C;
  local.shape = box.shape();
  local.axes = std::move(axes);
  local.precision = problem.precision;
  local.direction = problem.direction;
  local.norm = problem.norm;
  return bfly::Plan(device, local, options);
}

}  // namespace

class PlanImpl {
 public:
  MPI_Comm comm = MPI_COMM_NULL;
  Problem problem;
  int rank = 0, ranks = 1;
  std::vector<Box> input_boxes, output_boxes;
  std::optional<bfly::Plan> first, second;
  std::optional<detail::Exchange> exchange;
  // Host staging, as complex<double> for alignment: stage 1's result, the
  // send and receive buffers, the unpacked output box (stage 2's input).
  mutable std::vector<std::complex<double>> local, send, receive, target;

  ~PlanImpl() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (comm != MPI_COMM_NULL && !finalized) MPI_Comm_free(&comm);
  }

  template <class T>
  void execute(const T* in, T* out) const;
};

namespace {

template <class T>
T* as(std::vector<std::complex<double>>& storage, std::int64_t elements) {
  const std::size_t need = (static_cast<std::size_t>(elements) * sizeof(T) + 15) / 16;
  if (storage.size() < need) storage.resize(need);
  return reinterpret_cast<T*>(storage.data());
}

template <class T>
constexpr Precision precision_of() {
  return sizeof(T) == sizeof(std::complex<float>) ? Precision::Single : Precision::Double;
}

}  // namespace

template <class T>
void PlanImpl::execute(const T* in, T* out) const {
  const Box& in_box = input_boxes[rank];
  const Box& out_box = output_boxes[rank];
  T *staged = nullptr, *sent = nullptr, *received = nullptr, *unpacked = nullptr;
  detail::together(comm, [&] {
    if (problem.precision != precision_of<T>())
      throw Error(ErrorCode::InvalidArgument,
                  std::string("bfly::distributed: execute with ") +
                      (precision_of<T>() == Precision::Single ? "complex<float>" : "complex<double>") + " data on an " +
                      bfly::to_string(problem.precision) + " plan");
    if ((!in && !in_box.empty()) || (!out && !out_box.empty()))
      throw Error(ErrorCode::InvalidArgument, "bfly::distributed: execute with a null buffer for a non-empty box");
    staged = as<T>(local, in_box.elements());
    unpacked = as<T>(target, out_box.elements());
    sent = as<T>(send, exchange->send_elements());
    received = as<T>(receive, exchange->receive_elements());
    if (first) first->execute_host(in, staged);
  });
  exchange->run(comm, staged, sent, received, unpacked);
  // Agreed after stage 2 too, so that a rank never returns while another throws.
  detail::together(comm, [&] {
    if (second) second->execute_host(unpacked, out);
  });
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
                   "the problem (global shape, kind, precision, direction, norm, decomposition)");
  if (std::string why = validate(problem); !why.empty()) throw Error(ErrorCode::InvalidArgument, why);
  if (std::string why = unsupported(problem, options); !why.empty()) throw Error(ErrorCode::Unsupported, why);

  const int in_axis = detail::input_split_axis(problem.decomposition);
  const int out_axis = detail::output_split_axis(problem.decomposition);
  for (int r = 0; r < p.ranks; ++r) {
    p.input_boxes.push_back(detail::slab(problem.shape, in_axis, p.ranks, r));
    p.output_boxes.push_back(detail::slab(problem.shape, out_axis, p.ranks, r));
  }
  std::vector<int> first_axes;
  for (int k = 0; k < static_cast<int>(problem.shape.size()); ++k)
    if (k != in_axis) first_axes.push_back(k);

  // Local plans and the exchange's counts: may fail on some ranks only
  // (a kernel that does not build, a block past MPI's counts).
  detail::together(p.comm, [&] {
    p.first = stage(device, problem, p.input_boxes[p.rank], first_axes, options);
    p.second = stage(device, problem, p.output_boxes[p.rank], {in_axis}, options);
    p.exchange.emplace(p.input_boxes, p.output_boxes, p.rank);
  });
}

Plan::~Plan() = default;
Plan::Plan(Plan&&) noexcept = default;
Plan& Plan::operator=(Plan&&) noexcept = default;

const Problem& Plan::problem() const { return impl_->problem; }
const Box& Plan::input_box() const { return impl_->input_boxes[impl_->rank]; }
const Box& Plan::output_box() const { return impl_->output_boxes[impl_->rank]; }
const std::vector<Box>& Plan::input_boxes() const { return impl_->input_boxes; }
const std::vector<Box>& Plan::output_boxes() const { return impl_->output_boxes; }

std::size_t Plan::workspace_bytes() const {
  const std::size_t point = impl_->problem.precision == Precision::Single ? 8 : 16;
  const auto& p = *impl_;
  return point * static_cast<std::size_t>(p.input_boxes[p.rank].elements() + p.exchange->send_elements() +
                                          p.exchange->receive_elements() + p.output_boxes[p.rank].elements());
}

std::string Plan::describe() const {
  const auto& p = *impl_;
  auto box_text = [](const Box& box) {
    std::string text;
    for (std::size_t k = 0; k < box.lower.size(); ++k)
      text += (k ? " x " : "") + std::string("[") + std::to_string(box.lower[k]) + ", " + std::to_string(box.upper[k]) +
              ")";
    return text;
  };
  std::ostringstream out;
  out << "distributed " << p.problem.token() << " on rank " << p.rank << " of " << p.ranks << "\n";
  out << "  input box  " << box_text(input_box()) << "\n";
  out << "  stage 1    " << (p.first ? p.first->problem().token() : std::string("(empty box)")) << "\n";
  out << "  exchange   MPI_Alltoallv, host-staged: send " << p.exchange->send_elements() << ", receive "
      << p.exchange->receive_elements() << " points\n";
  out << "  stage 2    " << (p.second ? p.second->problem().token() : std::string("(empty box)")) << "\n";
  out << "  output box " << box_text(output_box()) << "\n";
  return out.str();
}

void Plan::execute(const std::complex<float>* in, std::complex<float>* out) const { impl_->execute(in, out); }
void Plan::execute(const std::complex<double>* in, std::complex<double>* out) const { impl_->execute(in, out); }

}  // namespace bfly::distributed
