// bfly._distributed: bfly::distributed (include/bfly/distributed.hpp) for
// Python, a module of its own so that `import bfly` never loads MPI: it is
// built only where CMake found MPI (python/CMakeLists.txt), links the MPI
// the library was built with, and bfly/distributed.py is its user. Its
// second class, MultiDevicePlan (include/bfly/multi_device.hpp: one process
// driving several devices), calls no MPI; bfly/multi_device.py uses it,
// with no mpi4py and no mpirun.
//
// The communicator comes as its Fortran handle (mpi4py's comm.py2f()),
// turned back with MPI_Comm_f2c, so nothing of mpi4py is needed here at
// build time; it is the same communicator only where mpi4py runs on the MPI
// library this module links, which bfly/distributed.py checks on import
// (mpi_library_version()). Names are the C++ to_string's ("c2c", "f32",
// "slabs-transposed-in", "nccl"), checked on the Python side first (its
// messages, agreed over the ranks) and parsed here under an agreement too,
// as every step before a collective that may fail on some ranks only.
//
// This module links its own copy of the bfly library (as bfly._core does:
// static, its symbols private), so its devices and plans are its own;
// device memory crosses between the two as CUDA addresses only.
#include <mpi.h>

#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>

#include <bfly/bfly.hpp>
#include <bfly/distributed.hpp>
#include <bfly/multi_device.hpp>

#include <complex>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "binding_support.hpp"
#include "distributed/agree.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace bfly::python {
namespace {

namespace dist = bfly::distributed;

// The enum value whose to_string is `text`: one table of each enum's values.
template <class E>
E by_name(const std::string& text, std::initializer_list<E> values, const char* what) {
  std::string names;
  for (E value : values) {
    if (text == to_string(value)) return value;
    names += (names.empty() ? "" : ", ") + std::string(to_string(value));
  }
  throw Error(ErrorCode::InvalidArgument, std::string(what) + " '" + text + "' is not one of " + names);
}

// A box as Python takes it: (lower, upper), upper exclusive.
nb::tuple box_tuple(const dist::Box& box) { return nb::make_tuple(box.lower, box.upper); }

nb::list box_list(const std::vector<dist::Box>& boxes) {
  nb::list out;
  for (const dist::Box& box : boxes) out.append(box_tuple(box));
  return out;
}

// The problem both plans share, from the Python side's names.
dist::Problem parse_problem(std::vector<std::int64_t> shape, const std::string& kind, const std::string& precision,
                            bool inverse, const std::string& norm, const std::string& decomposition,
                            std::vector<int> grid, const std::string& transport) {
  dist::Problem problem;
  problem.shape = std::move(shape);
  problem.kind = by_name(kind, {Kind::C2C, Kind::R2C, Kind::C2R}, "kind");
  problem.precision = by_name(precision, {Precision::Single, Precision::Double}, "precision");
  problem.direction = inverse ? Direction::Inverse : Direction::Forward;
  problem.norm = parse_norm(norm);
  problem.decomposition =
      by_name(decomposition,
              {dist::Decomposition::Slabs, dist::Decomposition::SlabsTransposedIn, dist::Decomposition::Pencils,
               dist::Decomposition::PencilsTransposedIn, dist::Decomposition::Auto},
              "decomposition");
  problem.grid = std::move(grid);
  problem.transport =
      by_name(transport, {dist::Transport::Auto, dist::Transport::Mpi, dist::Transport::Nccl}, "transport");
  return problem;
}

// One distributed plan and the device it runs on.
class DistributedPlan {
 public:
  DistributedPlan(std::intptr_t comm_handle, const std::string& device_spec, std::vector<std::int64_t> shape,
                  const std::string& kind, const std::string& precision, bool inverse, const std::string& norm,
                  const std::string& decomposition, std::vector<int> grid, const std::string& transport,
                  const std::string& exchange, int pipeline, double timeout, const std::string& tier,
                  std::vector<std::int64_t> input_box, std::vector<std::int64_t> output_box) {
    const MPI_Comm comm = MPI_Comm_f2c(static_cast<MPI_Fint>(comm_handle));
    if (comm == MPI_COMM_NULL) throw Error(ErrorCode::InvalidArgument, "bfly.distributed: MPI_COMM_NULL");
    dist::Problem problem;
    Tier plan_tier = Tier::Default;
    dist::detail::together(comm, [&] {
      problem =
          parse_problem(std::move(shape), kind, precision, inverse, norm, decomposition, std::move(grid), transport);
      problem.exchange = by_name(exchange,
                                 {dist::ExchangeMethod::Alltoallv, dist::ExchangeMethod::Alltoall,
                                  dist::ExchangeMethod::PointToPoint, dist::ExchangeMethod::Auto},
                                 "exchange");
      problem.pipeline = pipeline;
      problem.timeout = timeout;
      plan_tier = parse_tier(tier);
    });
    device_.emplace(dist::rank_device(comm, device_spec));  // (agreed there)
    // The caller's boxes as lower then upper, both or neither (bfly/distributed.py).
    auto box_of = [](const std::vector<std::int64_t>& flat) {
      const auto half = static_cast<std::ptrdiff_t>(flat.size() / 2);
      return dist::Box{{flat.begin(), flat.begin() + half}, {flat.begin() + half, flat.end()}};
    };
    if (input_box.empty())
      plan_.emplace(comm, *device_, problem, options_with_logged_waits(plan_tier));
    else
      plan_.emplace(comm, *device_, problem, box_of(input_box), box_of(output_box),
                    options_with_logged_waits(plan_tier));
    const std::size_t point = problem.precision == Precision::Single ? 8 : 16;  // a complex point
    auto side = [&](const dist::Box& box, bool real) {
      return static_cast<std::size_t>(box.elements()) * (real ? point / 2 : point);
    };
    in_bytes_ = side(plan_->input_box(), problem.kind == Kind::R2C);
    out_bytes_ = side(plan_->output_box(), problem.kind == Kind::C2R);
  }

  // A plan still alive when MPI has finalised (the caller finalised it
  // before dropping the plan) cannot free its communicators: it is left
  // as it is rather than call MPI after MPI_Finalize.
  ~DistributedPlan() {
    int finalized = 0;
    MPI_Finalized(&finalized);
    if (finalized && plan_) new dist::Plan(std::move(*plan_));  // (leaked on purpose)
  }
  DistributedPlan(const DistributedPlan&) = delete;
  DistributedPlan& operator=(const DistributedPlan&) = delete;

  const dist::Plan& plan() const { return *plan_; }
  const Device& device() const { return *device_; }
  std::size_t input_bytes() const { return in_bytes_; }
  std::size_t output_bytes() const { return out_bytes_; }

  // Host memory (collective, blocking): the execute overload of the kind and
  // precision, reals on the real sides.
  void execute_host(std::uintptr_t in, std::uintptr_t out) const {
    if (plan_->problem().precision == Precision::Single)
      execute_host_as<float>(in, out);
    else
      execute_host_as<double>(in, out);
  }

  // CUDA device memory (collective), enqueued on `stream` (a CUstream as an
  // integer, 0 the legacy default stream); an empty side may pass 0. The
  // Python side has agreed that every rank's arrays are on the plan's
  // device, so the wraps cannot fail on some ranks only.
  void execute_device(std::uintptr_t in, std::uintptr_t out, std::uintptr_t stream) const {
    plan_->execute(wrap(in, in_bytes_), wrap(out, out_bytes_), reinterpret_cast<void*>(stream));
  }

  void synchronize(std::uintptr_t stream) const { device_->synchronize(reinterpret_cast<void*>(stream)); }

 private:
  template <class T>
  void execute_host_as(std::uintptr_t in, std::uintptr_t out) const {
    using C = std::complex<T>;
    switch (plan_->problem().kind) {
      case Kind::R2C:
        return plan_->execute(ptr<const T>(in), ptr<C>(out));
      case Kind::C2R:
        return plan_->execute(ptr<const C>(in), ptr<T>(out));
      default:
        return plan_->execute(ptr<const C>(in), ptr<C>(out));
    }
  }

  // A caller's device array as a Buffer of the plan's device; an empty side
  // (a rank past the split axis's length: its array may have no address)
  // a byte of the plan's own, which nothing reads or writes.
  Buffer wrap(std::uintptr_t address, std::size_t bytes) const {
    if (bytes > 0) return Buffer::wrap(*device_, address, bytes);
    if (!empty_) empty_ = std::make_shared<Buffer>(*device_, 1);
    return *empty_;
  }

  std::optional<Device> device_;
  std::optional<dist::Plan> plan_;
  std::size_t in_bytes_ = 0, out_bytes_ = 0;
  mutable std::shared_ptr<Buffer> empty_;
};

// Whole host arrays as MultiDevicePlan's host execute takes them: NumPy,
// C-contiguous, never converted (a converted output would be a copy the
// caller never sees).
using HostInput = nb::ndarray<nb::numpy, nb::ro, nb::device::cpu, nb::c_contig>;
using HostOutput = nb::ndarray<nb::numpy, nb::device::cpu, nb::c_contig>;

std::string shape_text(const std::vector<std::int64_t>& shape) {
  std::string text;
  for (std::int64_t n : shape) text += (text.empty() ? "" : ", ") + std::to_string(n);
  return "(" + text + (shape.size() == 1 ? ",)" : ")");
}

// NumPy's name of a dtype: what the caller knows the array by.
std::string dtype_text(nb::dlpack::dtype dtype) {
  using Code = nb::dlpack::dtype_code;
  const auto code = static_cast<Code>(dtype.code);
  const char* kind = code == Code::Complex ? "complex"
                     : code == Code::Float ? "float"
                     : code == Code::Int   ? "int"
                     : code == Code::UInt  ? "uint"
                                           : "other";
  return kind + std::to_string(dtype.bits);
}

// Each spec opened once: parts named alike share one Device (one context,
// its kernels compiled once), as MultiDevicePlan allows. One thread opens
// at a time: plans are made with the GIL released. (Threads opening OpenCL
// devices at once for the first time got "none has a device" from PoCL
// 3.1; the library now discovers one thread at a time, test_open_first.cpp,
// and this lock keeps the opening cheap to reason about.)
std::vector<Device> open_devices(const std::vector<std::string>& specs) {
  static std::mutex opening;
  const std::lock_guard<std::mutex> one_at_a_time(opening);
  std::map<std::string, Device> opened;
  std::vector<Device> devices;
  for (const std::string& spec : specs) {
    auto found = opened.find(spec);
    if (found == opened.end()) found = opened.emplace(spec, Device::open(spec)).first;
    devices.push_back(found->second);
  }
  return devices;
}

// One multi-device plan (include/bfly/multi_device.hpp): every part in this
// process, so unlike DistributedPlan nothing is collective, nothing agreed,
// and no MPI is called (the module links MPI only for the other class).
class MultiDeviceBinding {
 public:
  MultiDeviceBinding(const std::vector<std::string>& specs, std::vector<std::int64_t> shape, const std::string& kind,
                     const std::string& precision, bool inverse, const std::string& norm,
                     const std::string& decomposition, std::vector<int> grid, const std::string& transport,
                     const std::string& tier)
      : plan_(
            open_devices(specs),
            parse_problem(std::move(shape), kind, precision, inverse, norm, decomposition, std::move(grid), transport),
            options_with_logged_waits(parse_tier(tier))) {}

  const dist::MultiDevicePlan& plan() const { return plan_; }

  // The whole arrays, checked here too (bfly/multi_device.py checks first,
  // with its messages): the C++ execute trusts the pointers. One execution
  // at a time: the plan's staging buffers are its own, and the GIL is
  // released, so two threads may share a cached plan.
  void execute_host(const HostInput& in, const HostOutput& out) const {
    check(in.ndim(), in.shape_ptr(), in.dtype(), true);
    check(out.ndim(), out.shape_ptr(), out.dtype(), false);
    const std::lock_guard<std::mutex> one_at_a_time(running_);
    if (plan_.problem().precision == Precision::Single)
      execute_as<float>(in.data(), out.data());
    else
      execute_as<double>(in.data(), out.data());
  }

 private:
  bool real_side(bool input) const { return plan_.problem().kind == (input ? Kind::R2C : Kind::C2R); }
  // The whole array's shape on one side: the half spectrum on the complex side of a real transform.
  std::vector<std::int64_t> side_shape(bool input) const {
    std::vector<std::int64_t> shape = plan_.problem().shape;
    if (plan_.problem().kind != Kind::C2C && !real_side(input)) shape.back() = shape.back() / 2 + 1;
    return shape;
  }
  void check(std::size_t ndim, const std::int64_t* shape, nb::dlpack::dtype dtype, bool input) const {
    const bool single = plan_.problem().precision == Precision::Single;
    const nb::dlpack::dtype want =
        real_side(input) ? (single ? nb::dtype<float>() : nb::dtype<double>())
                         : (single ? nb::dtype<std::complex<float>>() : nb::dtype<std::complex<double>>());
    const std::vector<std::int64_t> got(shape, shape + ndim), expected = side_shape(input);
    if (got != expected || dtype != want)
      throw Error(ErrorCode::InvalidArgument, std::string("bfly.multi_device: the ") + (input ? "input" : "output") +
                                                  " has shape " + shape_text(got) + " and dtype " + dtype_text(dtype) +
                                                  " where the plan takes " + shape_text(expected) + " " +
                                                  dtype_text(want));
  }
  template <class T>
  void execute_as(const void* in, void* out) const {
    using C = std::complex<T>;
    switch (plan_.problem().kind) {
      case Kind::R2C:
        return plan_.execute(static_cast<const T*>(in), static_cast<C*>(out));
      case Kind::C2R:
        return plan_.execute(static_cast<const C*>(in), static_cast<T*>(out));
      default:
        return plan_.execute(static_cast<const C*>(in), static_cast<C*>(out));
    }
  }

  dist::MultiDevicePlan plan_;
  mutable std::mutex running_;
};

}  // namespace
}  // namespace bfly::python

NB_MODULE(_distributed, m) {
  using namespace bfly::python;
  namespace dist = bfly::distributed;
  m.doc() = "bfly::distributed's bindings (use bfly.distributed or bfly.multi_device instead)";
  register_error_translator();

  // The MPI library this module runs on, as MPI_Get_library_version says
  // (callable before MPI_Init): bfly/distributed.py compares it with
  // mpi4py's.
  m.def("mpi_library_version", [] {
    char text[MPI_MAX_LIBRARY_VERSION_STRING];
    int length = 0;
    MPI_Get_library_version(text, &length);
    return std::string(text, static_cast<std::size_t>(length));
  });
  m.def("mpi_initialized", [] {
    int initialized = 0, finalized = 0;
    MPI_Initialized(&initialized);
    MPI_Finalized(&finalized);
    return initialized != 0 && finalized == 0;
  });
  // The names the C++ to_string gives, for the Python side's checks.
  m.def("decompositions", [] {
    std::vector<std::string> names;
    for (auto d : {dist::Decomposition::Slabs, dist::Decomposition::SlabsTransposedIn, dist::Decomposition::Pencils,
                   dist::Decomposition::PencilsTransposedIn})
      names.push_back(to_string(d));
    return names;
  });
  m.def("transports", [] {
    std::vector<std::string> names;
    for (auto t : {dist::Transport::Auto, dist::Transport::Mpi, dist::Transport::Nccl}) names.push_back(to_string(t));
    return names;
  });

  nb::class_<DistributedPlan>(m, "DistributedPlan")
      .def(nb::init<std::intptr_t, const std::string&, std::vector<std::int64_t>, const std::string&,
                    const std::string&, bool, const std::string&, const std::string&, std::vector<int>,
                    const std::string&, const std::string&, int, double, const std::string&, std::vector<std::int64_t>,
                    std::vector<std::int64_t>>(),
           "comm"_a, "device"_a, "shape"_a, "kind"_a, "precision"_a, "inverse"_a, "norm"_a, "decomposition"_a, "grid"_a,
           "transport"_a, "exchange"_a, "pipeline"_a, "timeout"_a, "tier"_a,
           "input_box"_a = std::vector<std::int64_t>{}, "output_box"_a = std::vector<std::int64_t>{},
           nb::call_guard<nb::gil_scoped_release>())
      .def("execute_host", &DistributedPlan::execute_host, "input"_a, "output"_a,
           nb::call_guard<nb::gil_scoped_release>())
      .def("execute_device", &DistributedPlan::execute_device, "input"_a, "output"_a, "stream"_a,
           nb::call_guard<nb::gil_scoped_release>())
      .def("synchronize", &DistributedPlan::synchronize, "stream"_a, nb::call_guard<nb::gil_scoped_release>())
      .def_prop_ro("input_box", [](const DistributedPlan& p) { return box_tuple(p.plan().input_box()); })
      .def_prop_ro("output_box", [](const DistributedPlan& p) { return box_tuple(p.plan().output_box()); })
      .def_prop_ro("input_boxes", [](const DistributedPlan& p) { return box_list(p.plan().input_boxes()); })
      .def_prop_ro("output_boxes", [](const DistributedPlan& p) { return box_list(p.plan().output_boxes()); })
      .def_prop_ro("grid", [](const DistributedPlan& p) { return p.plan().grid(); })
      .def_prop_ro("transport", [](const DistributedPlan& p) { return std::string(to_string(p.plan().transport())); })
      .def_prop_ro("decomposition",
                   [](const DistributedPlan& p) { return std::string(to_string(p.plan().problem().decomposition)); })
      .def_prop_ro("token", [](const DistributedPlan& p) { return p.plan().problem().token(); })
      .def_prop_ro("input_bytes", &DistributedPlan::input_bytes)
      .def_prop_ro("output_bytes", &DistributedPlan::output_bytes)
      .def_prop_ro("workspace_bytes", [](const DistributedPlan& p) { return p.plan().workspace_bytes(); })
      .def_prop_ro("device_spec", [](const DistributedPlan& p) { return p.device().info().spec; })
      .def_prop_ro("device_backend", [](const DistributedPlan& p) { return p.device().info().backend; })
      .def("describe", [](const DistributedPlan& p) { return p.plan().describe(); });

  // One process, several devices: no communicator (bfly/multi_device.py).
  nb::class_<MultiDeviceBinding>(m, "MultiDevicePlan")
      .def(nb::init<const std::vector<std::string>&, std::vector<std::int64_t>, const std::string&, const std::string&,
                    bool, const std::string&, const std::string&, std::vector<int>, const std::string&,
                    const std::string&>(),
           "devices"_a, "shape"_a, "kind"_a, "precision"_a, "inverse"_a, "norm"_a, "decomposition"_a, "grid"_a,
           "transport"_a, "tier"_a, nb::call_guard<nb::gil_scoped_release>())
      .def("execute_host", &MultiDeviceBinding::execute_host, "input"_a.noconvert(), "output"_a.noconvert(),
           nb::call_guard<nb::gil_scoped_release>())
      .def("input_boxes", [](const MultiDeviceBinding& p) { return box_list(p.plan().input_boxes()); })
      .def("output_boxes", [](const MultiDeviceBinding& p) { return box_list(p.plan().output_boxes()); })
      .def("grid", [](const MultiDeviceBinding& p) { return p.plan().grid(); })
      .def("transport", [](const MultiDeviceBinding& p) { return std::string(to_string(p.plan().transport())); })
      .def("decomposition",
           [](const MultiDeviceBinding& p) { return std::string(to_string(p.plan().problem().decomposition)); })
      .def("token", [](const MultiDeviceBinding& p) { return p.plan().problem().token(); })
      .def("devices",
           [](const MultiDeviceBinding& p) {
             std::vector<std::string> specs;
             for (const bfly::Device& device : p.plan().devices()) specs.push_back(device.info().spec);
             return specs;
           })
      .def("workspace_bytes", [](const MultiDeviceBinding& p) { return p.plan().workspace_bytes(); })
      .def("describe", [](const MultiDeviceBinding& p) { return p.plan().describe(); });
}
