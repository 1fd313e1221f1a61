// bfly._core: the thin layer between Python and the public C++ API. It opens
// devices, builds plans from problem fields and launches them on pointers the
// Python side found (host memory, or device memory of CuPy, PyTorch, JAX and
// any DLPack or __cuda_array_interface__ producer). How an array's axes map
// onto problems is the library's (bfly/array.hpp, array_steps); dtypes and
// frameworks are decided in Python (bfly/_engine.py, _transform.py).
#include <atomic>
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>
#include <nanobind/stl/pair.h>

#include <bfly/array.hpp>
#include <bfly/bfly.hpp>

#include <complex>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "dlpack_io.hpp"
#include "binding_support.hpp"
#include "backends/fork_guard.hpp"
#include "io/memory_budget.hpp"

namespace nb = nanobind;
using namespace nb::literals;

namespace bfly::python {
namespace {

Kind parse_kind(const std::string& kind) {
  if (kind == "c2c") return Kind::C2C;
  if (kind == "r2c") return Kind::R2C;
  if (kind == "c2r") return Kind::C2R;
  throw Error(ErrorCode::InvalidArgument, "kind '" + kind + "' is not c2c, r2c or c2r");
}

Precision parse_precision(const std::string& precision) {
  if (precision == "single") return Precision::Single;
  if (precision == "double") return Precision::Double;
  throw Error(ErrorCode::InvalidArgument, "precision '" + precision + "' is not single or double");
}

// How the buffers hold the values: "native" (the precision's), or half
// storage's "f16" / "bf16" (16-bit buffers, Single compute; the tokens' names).
Storage parse_storage(const std::string& storage) {
  if (storage == "native") return Storage::Native;
  if (storage == "f16") return Storage::Half;
  if (storage == "bf16") return Storage::BFloat16;
  throw Error(ErrorCode::InvalidArgument, "storage '" + storage + "' is not native, f16 or bf16");
}

// One device, opened once per spec by the Python side.
struct CoreDevice {
  Device device;
  explicit CoreDevice(const std::string& spec) : device(Device::open(spec)) {}
};

// bfly.set_tier: the tier of the plans made after it (PlanOptions::tier);
// bfly.distributed's plans read it too (tier()).
std::atomic<int> g_tier{static_cast<int>(Tier::Default)};

PlanOptions logged_waits() { return options_with_logged_waits(static_cast<Tier>(g_tier.load())); }

// A load or store callback (bfly::Callback) as bfly/_callbacks.py hands it
// over: ops, code and values as they are, its data as an address, either
// host memory, copied to the plan's device when the plan is made, or CUDA
// memory the plan reads where it lies (its Python owner is kept alive by
// the executor that holds the plan).
struct CoreCallback {
  std::string ops, code;
  std::vector<double> values;
  std::uintptr_t data = 0;
  std::size_t data_bytes = 0;
  bool data_on_device = false;

  Callback on(const Device& device) const {
    Callback callback{ops, code, values, nullptr};
    if (data_bytes == 0) return callback;
    if (data_on_device) {
      callback.data = std::make_shared<Buffer>(Buffer::wrap(device, data, data_bytes));
    } else {
      callback.data = std::make_shared<Buffer>(device, data_bytes);
      callback.data->write(reinterpret_cast<const void*>(data), data_bytes);
    }
    return callback;
  }
};

PlanOptions with_callbacks(const Device& device, const CoreCallback* load, const CoreCallback* store) {
  PlanOptions options = logged_waits();
  if (load) options.load = load->on(device);
  if (store) options.store = store->on(device);
  return options;
}

// One plan: a bfly::Plan and the device it runs on.
class CorePlan {
 public:
  CorePlan(const CoreDevice& device, const std::string& kind, const std::string& precision, bool inverse,
           const std::string& norm, std::vector<std::int64_t> shape, std::vector<int> axes, std::int64_t batch,
           std::vector<std::int64_t> in_strides, std::int64_t in_distance, std::vector<std::int64_t> out_strides,
           std::int64_t out_distance, bool in_place)
      : CorePlan(device,
                 make_problem(kind, precision, inverse, norm, std::move(shape), std::move(axes), batch,
                              std::move(in_strides), in_distance, std::move(out_strides), out_distance, in_place)) {}

  // A problem by its token (array_steps' problems), with callbacks fused
  // into its loads and stores (null: none).
  CorePlan(const CoreDevice& device, const std::string& token, const CoreCallback* load = nullptr,
           const CoreCallback* store = nullptr)
      : CorePlan(device, Problem::parse(token), with_callbacks(device.device, load, store)) {}

  CorePlan(const CoreDevice& device, const Problem& problem, const PlanOptions& options = logged_waits())
      : device_(device.device), plan_(device_, problem, options) {
    const Problem& p = plan_.problem();
    // A store chain that ends in magnitude, power or db writes reals in the
    // output's layout.
    const std::size_t out_element = plan_.output_element_bytes();
    out_reals_ = out_element != p.output_element_bytes();
    in_bytes_ = static_cast<std::size_t>(p.input_extent()) * p.input_element_bytes();
    out_bytes_ = static_cast<std::size_t>(p.output_extent()) * out_element;
  }

  // Device pointers (CUDA) on `stream` (a CUstream as an integer; 0 is the
  // legacy default stream). Stream-ordered: returns once launched.
  void execute(std::uintptr_t in, std::uintptr_t out, std::uintptr_t stream) const {
    const Buffer input = Buffer::wrap(device_, in, in_bytes_);
    const Buffer output = in == out ? input : Buffer::wrap(device_, out, out_bytes_);
    plan_.execute(input, output, reinterpret_cast<void*>(stream));
  }

  // The same, then waits for the stream: for producers that share no stream
  // (JAX) and results handed out as bfly DeviceArrays.
  void execute_blocking(std::uintptr_t in, std::uintptr_t out, std::uintptr_t stream) const {
    execute(in, out, stream);
    device_.synchronize(reinterpret_cast<void*>(stream));
  }

  // Host pointers: copied in, transformed, copied out (blocking).
  void execute_host(std::uintptr_t in, std::uintptr_t out) const {
    if (plan_.problem().storage != Storage::Native)  // 16-bit values both sides, two a complex point
      plan_.execute_host(ptr<const std::uint16_t>(in), ptr<std::uint16_t>(out));
    else if (plan_.problem().precision == Precision::Single)
      execute_host_as<float>(in, out);
    else
      execute_host_as<double>(in, out);
  }

  const Plan& plan() const { return plan_; }
  std::size_t input_bytes() const { return in_bytes_; }
  std::size_t output_bytes() const { return out_bytes_; }
  bool output_reals() const { return out_reals_; }

 private:
  // Reals on the real sides (R2C's input, C2R's output, both of a DCT or
  // DST, and the output of a store chain that ends in a real), complex
  // points elsewhere: the execute_host overload that takes them.
  template <class T>
  void execute_host_as(std::uintptr_t in, std::uintptr_t out) const {
    using C = std::complex<T>;
    const Kind kind = plan_.problem().kind;
    const bool in_real = kind == Kind::R2C || kind == Kind::R2R;
    const bool out_real = kind == Kind::C2R || kind == Kind::R2R || out_reals_;
    if (in_real && out_real)
      plan_.execute_host(ptr<T>(in), ptr<T>(out));
    else if (in_real)
      plan_.execute_host(ptr<T>(in), ptr<C>(out));
    else if (out_real)
      plan_.execute_host(ptr<C>(in), ptr<T>(out));
    else
      plan_.execute_host(ptr<C>(in), ptr<C>(out));
  }

  static Problem make_problem(const std::string& kind, const std::string& precision, bool inverse,
                              const std::string& norm, std::vector<std::int64_t> shape, std::vector<int> axes,
                              std::int64_t batch, std::vector<std::int64_t> in_strides, std::int64_t in_distance,
                              std::vector<std::int64_t> out_strides, std::int64_t out_distance, bool in_place) {
    Problem p;
    p.kind = parse_kind(kind);
    p.precision = parse_precision(precision);
    p.direction = inverse ? Direction::Inverse : Direction::Forward;
    p.norm = parse_norm(norm);
    p.shape = std::move(shape);
    p.axes = std::move(axes);
    p.batch = batch;
    p.input = Layout{std::move(in_strides), in_distance};
    p.output = Layout{std::move(out_strides), out_distance};
    p.placement = in_place ? Placement::InPlace : Placement::OutOfPlace;
    p.validate();
    return p;
  }

  Device device_;
  Plan plan_;
  std::size_t in_bytes_ = 0, out_bytes_ = 0;
  bool out_reals_ = false;
};

// Device memory bfly allocated, handed to a framework through DLPack (JAX's
// results, and results for producers that only speak
// __cuda_array_interface__). The capsule's deleter holds the last reference.
struct DeviceMemory {
  std::shared_ptr<Buffer> buffer;
  int device_id = 0;
  DeviceMemory(const CoreDevice& device, std::size_t bytes, int id)
      : buffer(std::make_shared<Buffer>(device.device, bytes == 0 ? 1 : bytes)), device_id(id) {}
  std::uintptr_t pointer() const { return buffer->device_pointer(); }
};

}  // namespace
}  // namespace bfly::python

NB_MODULE(_core, m) {
  using namespace bfly::python;
  m.doc() = "bfly's C++ core: devices, plans and launches (use bfly.fft and bfly.Plan instead)";

  register_error_translator();

  m.def("version", [] { return std::string(bfly::version()); });
  // Why this process may not use a backend (its parent started the driver
  // before forking: backends/fork_guard.hpp), one line each; empty if none.
  m.def("fork_refusals", [] {
    using bfly::detail::fork_guard::Backend;
    std::vector<std::string> why;
    for (Backend backend : {Backend::OpenCL, Backend::Cuda}) {
      std::string line = bfly::detail::fork_guard::why_unusable(backend);
      if (!line.empty()) why.push_back(line);
    }
    return why;
  });
  m.def(
      "next_fast_len", [](std::int64_t target, bool real) { return bfly::next_fast_length(target, real); }, "target"_a,
      "real"_a);
  m.def(
      "set_tier", [](const std::string& tier) { g_tier = static_cast<int>(bfly::parse_tier(tier)); }, "tier"_a);
  m.def("tier", [] { return std::string(bfly::to_string(static_cast<bfly::Tier>(g_tier.load()))); });

  // The host's memory this process may still take and what bounds it
  // (None: nothing does), as the CLI's one memory check reads it.
  m.def("host_memory", [] {
    const bfly::io::HostMemory host = bfly::io::host_memory();
    return host.available == UINT64_MAX ? nb::make_tuple(nb::none(), std::string())
                                        : nb::make_tuple(host.available, host.bound);
  });

  m.def("devices", [] {
    nb::list out;
    for (const bfly::DeviceInfo& d : bfly::Device::list()) {
      nb::dict info;
      info["spec"] = d.spec;
      info["backend"] = d.backend;
      info["name"] = d.name;
      info["vendor"] = d.vendor;
      info["driver"] = d.driver;
      info["is_gpu"] = d.is_gpu;
      info["memory_bytes"] = d.global_memory_bytes;
      out.append(info);
    }
    return out;
  });

  nb::class_<CoreDevice>(m, "CoreDevice")
      .def(nb::init<const std::string&>(), "spec"_a, nb::call_guard<nb::gil_scoped_release>())
      .def_prop_ro("spec", [](const CoreDevice& d) { return d.device.info().spec; })
      .def_prop_ro("backend", [](const CoreDevice& d) { return d.device.info().backend; })
      .def_prop_ro("name", [](const CoreDevice& d) { return d.device.info().name; })
      .def_prop_ro("is_gpu", [](const CoreDevice& d) { return d.device.info().is_gpu; })
      .def_prop_ro("is_cpu", [](const CoreDevice& d) { return d.device.info().is_cpu; })
      .def_prop_ro("global_memory_bytes", [](const CoreDevice& d) { return d.device.info().global_memory_bytes; })
      .def_prop_ro("max_allocation_bytes", [](const CoreDevice& d) { return d.device.info().max_allocation_bytes; })
      .def(
          "synchronize", [](const CoreDevice& d) { d.device.synchronize(); }, nb::call_guard<nb::gil_scoped_release>());

  nb::class_<CoreCallback>(m, "CoreCallback")
      .def(nb::init<>())
      .def_rw("ops", &CoreCallback::ops)
      .def_rw("code", &CoreCallback::code)
      .def_rw("values", &CoreCallback::values)
      .def_rw("data", &CoreCallback::data)
      .def_rw("data_bytes", &CoreCallback::data_bytes)
      .def_rw("data_on_device", &CoreCallback::data_on_device);

  // A problem's two sides as its callbacks see them, by its token:
  // ((shape, strides, extent) of the input, the same of the output, the
  // transformed axes ascending), the elements a load's or store's window
  // and mask are laid out by (plan/callbacks.cpp).
  m.def(
      "problem_sides",
      [](const std::string& token) {
        const bfly::Problem p = bfly::Problem::parse(token);
        auto side = [](std::vector<std::int64_t> shape, const bfly::Layout& layout, std::int64_t extent) {
          return nb::make_tuple(shape, layout.strides, extent);
        };
        return nb::make_tuple(side(p.input_shape(), p.input_layout(), p.input_extent()),
                              side(p.output_shape(), p.output_layout(), p.output_extent()), p.transform_axes());
      },
      "token"_a);

  nb::class_<CorePlan>(m, "CorePlan")
      .def(nb::init<const CoreDevice&, const std::string&, const std::string&, bool, const std::string&,
                    std::vector<std::int64_t>, std::vector<int>, std::int64_t, std::vector<std::int64_t>, std::int64_t,
                    std::vector<std::int64_t>, std::int64_t, bool>(),
           "device"_a, "kind"_a, "precision"_a, "inverse"_a, "norm"_a, "shape"_a, "axes"_a, "batch"_a, "in_strides"_a,
           "in_distance"_a, "out_strides"_a, "out_distance"_a, "in_place"_a, nb::call_guard<nb::gil_scoped_release>())
      .def(nb::init<const CoreDevice&, const std::string&, const CoreCallback*, const CoreCallback*>(), "device"_a,
           "token"_a, "load"_a.none() = nb::none(), "store"_a.none() = nb::none(),
           nb::call_guard<nb::gil_scoped_release>())
      .def("execute", &CorePlan::execute, "input"_a, "output"_a, "stream"_a, nb::call_guard<nb::gil_scoped_release>())
      .def("execute_blocking", &CorePlan::execute_blocking, "input"_a, "output"_a, "stream"_a,
           nb::call_guard<nb::gil_scoped_release>())
      .def("execute_host", &CorePlan::execute_host, "input"_a, "output"_a, nb::call_guard<nb::gil_scoped_release>())
      .def_prop_ro("token", [](const CorePlan& p) { return p.plan().problem().token(); })
      .def_prop_ro("passes", [](const CorePlan& p) { return p.plan().passes(); })
      .def_prop_ro("input_bytes", &CorePlan::input_bytes)
      .def_prop_ro("output_bytes", &CorePlan::output_bytes)
      .def_prop_ro("output_reals", &CorePlan::output_reals)
      .def_prop_ro("workspace_bytes", [](const CorePlan& p) { return p.plan().workspace_bytes(); })
      .def("describe", [](const CorePlan& p) { return p.plan().describe(); });

  // A transform over any axes of an array (bfly/array.hpp): its steps as
  // (problem token, source, target, [(input offset, output offset) in
  // bytes, ...]), source and target "in", "out" or "tmp", and the shape of
  // the complex temporary they use (None: none). storage "f16" or "bf16":
  // the single precision steps with 16-bit buffers (an ArrayTransform has
  // no storage: its element strides are the same, its byte offsets half
  // those of f32's, real and complex sides alike).
  m.def(
      "array_steps",
      [](const std::string& kind, const std::string& precision, bool inverse, const std::string& norm,
         std::vector<std::int64_t> shape, std::vector<int> axes, std::vector<std::int64_t> in_strides,
         std::vector<std::int64_t> out_strides, bool in_place, const std::string& storage) {
        const bfly::Storage stored = parse_storage(storage);
        bfly::ArrayTransform t;
        t.kind = parse_kind(kind);
        t.precision = parse_precision(precision);
        t.direction = inverse ? bfly::Direction::Inverse : bfly::Direction::Forward;
        t.norm = bfly::parse_norm(norm);
        t.shape = std::move(shape);
        t.axes = std::move(axes);
        t.input_strides = std::move(in_strides);
        t.output_strides = std::move(out_strides);
        t.placement = in_place ? bfly::Placement::InPlace : bfly::Placement::OutOfPlace;
        bfly::ArraySteps steps = bfly::array_steps(t);
        if (stored != bfly::Storage::Native) {
          for (bfly::ArrayStep& s : steps.steps) {
            s.problem.storage = stored;
            s.problem.validate();
            for (auto& [in, out] : s.offsets) in /= 2, out /= 2;
          }
        }
        auto name = [](bfly::ArrayOperand o) {
          return o == bfly::ArrayOperand::Input ? "in" : o == bfly::ArrayOperand::Output ? "out" : "tmp";
        };
        nb::list out;
        for (const bfly::ArrayStep& s : steps.steps)
          out.append(nb::make_tuple(s.problem.token(), name(s.source), name(s.target), s.offsets));
        nb::object temporary = nb::none();
        if (!steps.temporary_shape.empty()) temporary = nb::tuple(nb::cast(steps.temporary_shape));
        return nb::make_tuple(out, temporary);
      },
      "kind"_a, "precision"_a, "inverse"_a, "norm"_a, "shape"_a, "axes"_a, "in_strides"_a, "out_strides"_a,
      "in_place"_a, "storage"_a = "native");

  nb::class_<DeviceMemory>(m, "DeviceMemory")
      .def(nb::init<const CoreDevice&, std::size_t, int>(), "device"_a, "bytes"_a, "device_id"_a)
      .def_prop_ro("pointer", &DeviceMemory::pointer)
      .def(
          "dlpack",
          [](const DeviceMemory& memory, std::vector<std::int64_t> shape, std::vector<std::int64_t> strides,
             const std::string& dtype) {
            return export_dlpack(memory.buffer, memory.pointer(), memory.device_id, std::move(shape),
                                 std::move(strides), dtype);
          },
          "shape"_a, "strides"_a, "dtype"_a);

  m.def("dlpack_info", &dlpack_info, "capsule"_a,
        "(pointer, shape, strides in elements or None, dtype string, device type, device id, read-only) of a "
        "DLPack capsule, which stays its producer's (it is read, not consumed)");
}
