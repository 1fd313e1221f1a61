// bfly::distributed::MultiDevicePlan: one process driving 1 to 4 parts
// (no mpirun). Each case's whole output against FFTW over the whole array
// (double for fp32, long double for fp64) with the accuracy suite's limits,
// the output poisoned (NaN) first so a point no part writes fails. The
// devices: BFLY_TEST_DEVICES ("cuda:0,cuda:1,...", or "all" for every CUDA
// GPU: NCCL between them), else the default device standing for every part
// (PoCL on CI: the exchanges through host memory). The shapes split
// unevenly over 3 parts and leave some of 4 parts an empty box.
#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

#include "bfly/multi_device.hpp"
#include "distributed/boxes.hpp"
#include "support/reference.hpp"
#include "support/test_options.hpp"

namespace bfly::test {
namespace {

using distributed::Decomposition;
using distributed::MultiDevicePlan;

// The devices of `parts` parts (the list's first ones, the list repeated where shorter).
std::vector<Device> test_devices(int parts) {
  static const std::vector<Device> listed = [] {
    std::vector<Device> devices;
    const char* given = std::getenv("BFLY_TEST_DEVICES");
    const std::string list = given ? given : "";
    if (list == "all") {
      for (const DeviceInfo& info : Device::list())
        if (info.backend == "cuda") devices.push_back(Device::open(info.spec));
    } else {
      for (std::size_t start = 0; start < list.size();) {
        const std::size_t comma = std::min(list.find(',', start), list.size());
        devices.push_back(Device::open(list.substr(start, comma - start)));
        start = comma + 1;
      }
    }
    if (devices.empty()) devices.push_back(Device::open());
    return devices;
  }();
  std::vector<Device> devices;
  for (int r = 0; r < parts; ++r) devices.push_back(listed[static_cast<std::size_t>(r) % listed.size()]);
  return devices;
}

// The generic tier, as the MPI tests (mpi_support.hpp says why).
PlanOptions options() {
  PlanOptions o = test_options();
  if (o.tier == Tier::Specialised) o.tier = Tier::Generic;
  return o;
}

distributed::Problem make(Kind kind, std::vector<std::int64_t> shape, Precision precision, Decomposition d,
                          Norm norm = Norm::None) {
  distributed::Problem p;
  p.kind = kind, p.shape = std::move(shape), p.precision = precision, p.decomposition = d, p.norm = norm;
  p.direction = kind == Kind::C2R ? Direction::Inverse : Direction::Forward;
  return p;
}

Problem whole_problem(const distributed::Problem& p) {
  Problem whole;
  whole.kind = p.kind, whole.shape = p.shape, whole.precision = p.precision, whole.direction = p.direction;
  whole.norm = p.norm;
  return whole;
}

std::int64_t product(const std::vector<std::int64_t>& shape) {
  std::int64_t n = 1;
  for (std::int64_t s : shape) n *= s;
  return n;
}

template <class T>
std::vector<std::complex<T>> complex_random(std::size_t n) {
  if constexpr (std::is_same_v<T, float>)
    return random_data(n);
  else
    return random_data_f64(n);
}

template <class T>
std::vector<T> real_random(std::size_t n) {
  if constexpr (std::is_same_v<T, float>)
    return random_real_data(n);
  else
    return random_real_data_f64(n);
}

// Whether element i of a row-major array of `shape` lies in `box` (index
// arithmetic of its own, not the library's box copies).
bool inside(std::int64_t i, const std::vector<std::int64_t>& shape, const distributed::Box& box) {
  for (std::size_t k = shape.size(); k-- > 0; i /= shape[k])
    if (i % shape[k] < box.lower[k] || i % shape[k] >= box.upper[k]) return false;
  return true;
}

// Host-memory execute, or device buffers (one a part, each box written and read by hand).
template <class In, class Out>
void execute(const MultiDevicePlan& plan, const std::vector<In>& in, std::vector<Out>& out, bool device_buffers,
             const std::vector<std::int64_t>& in_shape, const std::vector<std::int64_t>& out_shape) {
  if (!device_buffers) return plan.execute(in.data(), out.data());
  std::vector<Buffer> ins, outs;
  for (std::size_t r = 0; r < plan.devices().size(); ++r) {
    const distributed::Box &ib = plan.input_boxes()[r], &ob = plan.output_boxes()[r];
    std::vector<In> part;
    for (std::int64_t i = 0; i < product(in_shape); ++i)
      if (inside(i, in_shape, ib)) part.push_back(in[static_cast<std::size_t>(i)]);
    ins.emplace_back(plan.devices()[r], std::max<std::size_t>(16, part.size() * sizeof(In)));
    if (!part.empty()) ins.back().write(part.data(), part.size() * sizeof(In));
    outs.emplace_back(plan.devices()[r], std::max<std::size_t>(16, ob.elements() * sizeof(Out)));
  }
  const distributed::Phases phases = plan.profile(ins, outs);  // one execution, phase by phase
  EXPECT_EQ(phases.stage_ms.size(), plan.problem().decomposition == Decomposition::Slabs ||
                                            plan.problem().decomposition == Decomposition::SlabsTransposedIn
                                        ? 2u
                                        : 3u);
  plan.execute(ins, outs);
  for (std::size_t r = 0; r < plan.devices().size(); ++r) {
    const distributed::Box& ob = plan.output_boxes()[r];
    std::vector<Out> part(static_cast<std::size_t>(ob.elements()));
    if (!part.empty()) outs[r].read(part.data(), part.size() * sizeof(Out));
    std::size_t next = 0;
    for (std::int64_t i = 0; i < product(out_shape); ++i)
      if (inside(i, out_shape, ob)) out[static_cast<std::size_t>(i)] = part[next++];
  }
}

// The plan: on the decomposition's boxes, or (axes >= 0) on the caller's,
// slabs of each side's shape along in_axis and out_axis (boxes.hpp's slab).
MultiDevicePlan plan_of(const distributed::Problem& problem, int parts, int in_axis = -1, int out_axis = -1) {
  if (in_axis < 0) return MultiDevicePlan(test_devices(parts), problem, options());
  const Problem whole = whole_problem(problem);
  std::vector<distributed::Box> ins, outs;
  for (int r = 0; r < parts; ++r) {
    ins.push_back(distributed::detail::slab(whole.input_shape(), in_axis, parts, r));
    outs.push_back(distributed::detail::slab(whole.output_shape(), out_axis, parts, r));
  }
  MultiDevicePlan plan(test_devices(parts), problem, ins, outs, options());
  EXPECT_EQ(plan.input_boxes(), ins);
  EXPECT_EQ(plan.output_boxes(), outs);
  return plan;
}

template <class T>
Errors run(const distributed::Problem& problem, int parts, bool device_buffers, int in_axis, int out_axis) {
  const MultiDevicePlan plan = plan_of(problem, parts, in_axis, out_axis);
  const Problem whole = whole_problem(plan.problem());
  const auto in_shape = whole.input_shape(), out_shape = whole.output_shape();
  const std::size_t in_n = static_cast<std::size_t>(product(in_shape)),
                    out_n = static_cast<std::size_t>(product(out_shape));
  if (problem.kind == Kind::R2C) {
    const std::vector<T> in = real_random<T>(in_n);
    std::vector<std::complex<T>> out(out_n);
    poison(out);
    execute(plan, in, out, device_buffers, in_shape, out_shape);
    return compare(out, fftw_reference(whole, in), whole.scale());
  }
  std::vector<std::complex<T>> in = complex_random<T>(in_n);
  if (problem.kind == Kind::C2R) {
    make_hermitian(whole, in);
    std::vector<T> out(out_n);
    poison(out);
    execute(plan, in, out, device_buffers, in_shape, out_shape);
    return compare(out, fftw_reference(whole, in), whole.scale());
  }
  std::vector<std::complex<T>> out(out_n);
  poison(out);
  execute(plan, in, out, device_buffers, in_shape, out_shape);
  return compare(out, fftw_reference(whole, in), whole.scale());
}

void expect_matches_fftw(const distributed::Problem& problem, int parts, bool device_buffers = false, int in_axis = -1,
                         int out_axis = -1) {
  const Errors errors = problem.precision == Precision::Single
                            ? run<float>(problem, parts, device_buffers, in_axis, out_axis)
                            : run<double>(problem, parts, device_buffers, in_axis, out_axis);
  const double limit = problem.precision == Precision::Single ? 5e-7 : 2e-15;
  EXPECT_TRUE(errors.finite) << problem.token() << " on " << parts << " parts left points unwritten";
  EXPECT_LE(errors.relative_l2, limit) << problem.token() << " on " << parts << " parts";
  std::printf("[ errors   ] %s on %d parts%s: relative L2 %.2e, max %.2e\n", problem.token().c_str(), parts,
              device_buffers ? " (device buffers)" : "", errors.relative_l2, errors.relative_max);
}

struct Case {
  distributed::Problem problem;
  std::vector<int> parts;
};

class MultiDevice : public ::testing::TestWithParam<Case> {};

TEST_P(MultiDevice, MatchesFftw) {
  for (int parts : GetParam().parts) expect_matches_fftw(GetParam().problem, parts);
}

const Kind C2C = Kind::C2C, R2C = Kind::R2C, C2R = Kind::C2R;
const Precision F32 = Precision::Single, F64 = Precision::Double;

INSTANTIATE_TEST_SUITE_P(
    Shapes, MultiDevice,
    ::testing::Values(Case{make(C2C, {8, 10, 6}, F32, Decomposition::Slabs), {1, 2, 3, 4}},
                      Case{make(C2C, {3, 10, 6}, F64, Decomposition::SlabsTransposedIn, Norm::Ortho), {2, 4}},
                      Case{make(C2C, {12, 10}, F32, Decomposition::Slabs, Norm::Backward), {3}},
                      Case{make(C2C, {6, 8, 10}, F64, Decomposition::Pencils), {3, 4}},
                      Case{make(C2C, {6, 8, 10}, F32, Decomposition::PencilsTransposedIn), {4}},
                      Case{make(R2C, {8, 6, 10}, F32, Decomposition::Slabs), {3}},
                      Case{make(R2C, {6, 8, 9}, F64, Decomposition::Pencils), {4}},
                      Case{make(C2R, {8, 6, 10}, F32, Decomposition::SlabsTransposedIn), {3}},
                      Case{make(C2C, {9, 7, 5}, F32, Decomposition::Auto), {4}}),
    [](const ::testing::TestParamInfo<Case>& info) {
      std::string text = info.param.problem.token();
      for (char& ch : text)
        if (ch == '-') ch = '_';
      return text;
    });

// Device buffers, one a part, and profile()'s phases.
TEST(MultiDeviceBuffers, MatchFftw) {
  expect_matches_fftw(make(C2C, {8, 10, 6}, F32, Decomposition::Slabs), 3, true);
  expect_matches_fftw(make(R2C, {6, 8, 10}, F64, Decomposition::Pencils), 4, true);
}

// Where the exchange splits an axis evenly, the first stage stores the
// send blocks itself (fused_stage.hpp; pencils on a grid of one row): the
// same numbers, both ways.
TEST(MultiDeviceFusedStage, StoresTheSendBlocks) {
  for (int parts : {2, 3, 4})
    for (auto decomposition : {Decomposition::Slabs, Decomposition::SlabsTransposedIn, Decomposition::Pencils,
                               Decomposition::PencilsTransposedIn}) {
      const bool pencils =
          decomposition == Decomposition::Pencils || decomposition == Decomposition::PencilsTransposedIn;
      distributed::Problem problem = make(C2C, {12, 12, pencils ? 12 : 6}, F64, decomposition, Norm::Ortho);
      // (The grid whose first exchange is over every part.)
      if (pencils)
        problem.grid =
            decomposition == Decomposition::Pencils ? std::vector<int>{1, parts} : std::vector<int>{parts, 1};
      const std::string text = MultiDevicePlan(test_devices(parts), problem, options()).describe();
      EXPECT_NE(text.find("no pack"), std::string::npos) << text;
      expect_matches_fftw(problem, parts);
      expect_matches_fftw(problem, parts, true);
    }
}

// R2C slabs: the real axis, then the split axis into the send blocks (two
// passes where the stage and the pack took three).
TEST(MultiDeviceFusedStage, RealSlabsStoreTheSendBlocks) {
  for (int parts : {2, 3, 4}) {
    const distributed::Problem problem = make(R2C, {12, 12, 10}, F64, Decomposition::Slabs, Norm::Ortho);
    const std::string text = MultiDevicePlan(test_devices(parts), problem, options()).describe();
    EXPECT_NE(text.find("no pack"), std::string::npos) << text;
    expect_matches_fftw(problem, parts);
    expect_matches_fftw(problem, parts, true);
  }
}

// Pencils on a 2 x 2 grid: both stages before an exchange store their
// send blocks (each transforms the axis its exchange cuts), both ways.
TEST(MultiDeviceFusedStage, PencilsStoreBothExchangesBlocks) {
  for (auto decomposition : {Decomposition::Pencils, Decomposition::PencilsTransposedIn}) {
    distributed::Problem problem = make(C2C, {8, 12, 10}, F32, decomposition);
    problem.grid = {2, 2};
    const std::string text = MultiDevicePlan(test_devices(4), problem, options()).describe();
    std::size_t stored = 0;
    for (std::size_t at = text.find("no pack"); at != std::string::npos; at = text.find("no pack", at + 1)) ++stored;
    EXPECT_EQ(stored, 8u) << text;
    expect_matches_fftw(problem, 4);
    expect_matches_fftw(problem, 4, true);
  }
}

// The caller's own boxes: tilings along other axes than the
// decomposition's on each side (both reshapes run; uneven and empty boxes
// among them), against FFTW from host arrays and from device buffers
// (profile's phases too); the decomposition's own boxes reshape nothing;
// boxes that do not tile, or too few, are refused by name.
TEST(MultiDeviceGivenBoxes, AnyTiling) {
  struct Given {
    distributed::Problem problem;
    int parts, in_axis, out_axis;
  };
  for (const Given& g : {Given{make(C2C, {8, 10, 6}, F32, Decomposition::Slabs), 3, 2, 0},
                         Given{make(R2C, {6, 8, 10}, F64, Decomposition::Pencils), 4, 1, 2},
                         Given{make(C2R, {8, 6, 10}, F32, Decomposition::SlabsTransposedIn), 3, 2, 1},
                         Given{make(C2C, {3, 10}, F64, Decomposition::Slabs, Norm::Ortho), 4, 1, 0}}) {
    const std::string text = plan_of(g.problem, g.parts, g.in_axis, g.out_axis).describe();
    EXPECT_NE(text.find("reshape first"), std::string::npos) << text;
    EXPECT_NE(text.find("reshape last"), std::string::npos) << text;
    for (bool device_buffers : {false, true})
      expect_matches_fftw(g.problem, g.parts, device_buffers, g.in_axis, g.out_axis);
  }
  const distributed::Problem problem = make(C2C, {8, 10, 6}, F32, Decomposition::Slabs);
  const MultiDevicePlan plain(test_devices(3), problem, options());
  const MultiDevicePlan same(test_devices(3), problem, plain.input_boxes(), plain.output_boxes(), options());
  EXPECT_EQ(same.describe().find("reshape"), std::string::npos) << same.describe();
  std::vector<distributed::Box> gap = plain.input_boxes();
  gap[1].upper[0] -= 1;
  std::string error;
  try {
    MultiDevicePlan(test_devices(3), problem, gap, plain.output_boxes(), options());
  } catch (const Error& e) {
    error = e.what();
  }
  EXPECT_NE(error.find("input"), std::string::npos) << error;
  error.clear();
  try {
    MultiDevicePlan(test_devices(3), problem, {plain.input_boxes()[0]}, plain.output_boxes(), options());
  } catch (const Error& e) {
    error = e.what();
  }
  EXPECT_NE(error.find("1 input and 3 output boxes"), std::string::npos) << error;
}

TEST(MultiDeviceErrors, SayWhatIsWrong) {
  const distributed::Problem problem = make(C2C, {8, 8, 8}, F32, Decomposition::Slabs);
  auto message = [](auto&& make_or_run) -> std::string {
    try {
      make_or_run();
    } catch (const Error& e) {
      return e.what();
    }
    return "no error";
  };
  EXPECT_NE(message([&] { MultiDevicePlan({}, problem, options()); }).find("needs devices"), std::string::npos);
  const MultiDevicePlan plan(test_devices(2), problem, options());
  const std::vector<Buffer> one{Buffer(plan.devices()[0], 1 << 12)};
  EXPECT_NE(message([&] { plan.execute(one, one); }).find("1 input and 1 output buffers on a plan of 2 parts"),
            std::string::npos);
  const std::vector<Buffer> small{Buffer(plan.devices()[0], 16), Buffer(plan.devices()[1], 16)};
  EXPECT_NE(message([&] { plan.execute(small, small); }).find("bytes for part 0"), std::string::npos);
  const std::vector<float> real(512);
  std::vector<std::complex<float>> out(512);
  EXPECT_NE(message([&] { plan.execute(real.data(), out.data()); }).find("element types"), std::string::npos);
  distributed::Problem chunked = problem;
  chunked.pipeline = 4;
  EXPECT_NE(message([&] { MultiDevicePlan(test_devices(2), chunked, options()); }).find("pipeline 4"),
            std::string::npos);
  distributed::Problem bad = problem;
  bad.shape = {8, 0, 8};
  EXPECT_NE(message([&] { MultiDevicePlan(test_devices(2), bad, options()); }).find("length 0"), std::string::npos);
  if (test_devices(1)[0].info().backend != "cuda") {
    distributed::Problem nccl = problem;
    nccl.transport = distributed::Transport::Nccl;
    EXPECT_NE(message([&] { MultiDevicePlan(test_devices(2), nccl, options()); }).find("needs a CUDA device"),
              std::string::npos);
  }
  EXPECT_EQ(plan.transport(), test_devices(2)[0].info().backend == "cuda" &&
                                      test_devices(2)[0].info().spec != test_devices(2)[1].info().spec &&
                                      distributed::nccl_version() > 0
                                  ? distributed::Transport::Nccl
                                  : distributed::Transport::Mpi);
}

}  // namespace
}  // namespace bfly::test
