// Issue 40: an execution a CUDA graph can capture. Once a plan has run on a
// stream (its workspace for that stream made), executing it there
// allocates nothing and waits for nothing on the host, so
// cuStreamBeginCapture ... cuStreamEndCapture records its launches; the
// graph, replayed, gives the bits a plain execution gives, and reads the
// input buffer's contents at replay time. Specialised plans of one and
// several passes, real kinds, Bluestein, and the generic tier's plans.
#include <dlfcn.h>

#include <cmath>
#include <cstring>
#include <random>

#include "accuracy/fixture.hpp"
#include "backends/cuda/driver_api.hpp"

namespace bfly::test {
namespace {

using detail::cuda::CUresult;
using detail::cuda::CUstream;
using CUgraph = struct CUgraph_st*;
using CUgraphExec = struct CUgraphExec_st*;

// The graph entry points, from the driver bfly loaded (the library's own
// table lists only what bfly itself calls).
struct GraphApi {
  CUresult (*begin)(CUstream, int) = nullptr;  // cuStreamBeginCapture_v2 (mode)
  CUresult (*end)(CUstream, CUgraph*) = nullptr;
  CUresult (*instantiate)(CUgraphExec*, CUgraph, unsigned long long) = nullptr;
  CUresult (*launch)(CUgraphExec, CUstream) = nullptr;
  CUresult (*exec_destroy)(CUgraphExec) = nullptr;
  CUresult (*destroy)(CUgraph) = nullptr;

  bool load() {
    void* h = dlopen("libcuda.so.1", RTLD_NOW | RTLD_NOLOAD);
    if (!h) return false;
    auto get = [&](auto& f, const char* name) {
      f = reinterpret_cast<std::remove_reference_t<decltype(f)>>(dlsym(h, name));
      return f != nullptr;
    };
    return get(begin, "cuStreamBeginCapture_v2") && get(end, "cuStreamEndCapture") &&
           get(instantiate, "cuGraphInstantiateWithFlags") && get(launch, "cuGraphLaunch") &&
           get(exec_destroy, "cuGraphExecDestroy") && get(destroy, "cuGraphDestroy");
  }
};

void cu(CUresult r, const char* what) { detail::cuda::check(r, what); }

class GraphCapture : public Accuracy {};

TEST_P(GraphCapture, ReplaysPlansBitForBit) {
  if (device().info().backend != "cuda") GTEST_SKIP() << "CUDA graphs: a CUDA device's test";
  GraphApi graphs;
  ASSERT_TRUE(graphs.load()) << "the driver has no graph entry points";
  const detail::cuda::DriverApi* api = detail::cuda::driver();
  ASSERT_NE(api, nullptr);
  const std::string& spec = device().info().spec;
  detail::cuda::CUdevice cu_device = 0;
  detail::cuda::CUcontext context = nullptr;
  cu(api->cuDeviceGet(&cu_device, std::atoi(spec.substr(spec.find(':') + 1).c_str())), "cuDeviceGet");
  cu(api->cuDevicePrimaryCtxRetain(&context, cu_device), "cuDevicePrimaryCtxRetain");
  cu(api->cuCtxSetCurrent(context), "cuCtxSetCurrent");
  CUstream stream = nullptr;
  cu(api->cuStreamCreate(&stream, 0), "cuStreamCreate");

  struct Case {
    Kind kind;
    std::vector<std::int64_t> shape;
    std::int64_t batch;
    Tier tier;
  };
  const std::vector<Case> cases = {
      {Kind::C2C, {4096}, 8, Tier::Specialised}, {Kind::C2C, {1 << 20}, 2, Tier::Specialised},
      {Kind::R2C, {1000}, 3, Tier::Specialised}, {Kind::C2R, {640, 480}, 1, Tier::Specialised},
      {Kind::C2C, {1009}, 5, Tier::Specialised}, {Kind::C2C, {6144}, 3, Tier::Generic},
      {Kind::R2C, {1025}, 2, Tier::Generic}};
  std::mt19937 engine(40);
  std::uniform_real_distribution<float> uniform(-1, 1);
  for (const Case& c : cases) {
    Problem p;
    p.kind = c.kind;
    p.shape = c.shape;
    p.batch = c.batch;
    if (c.kind == Kind::C2R) p.direction = Direction::Inverse;
    PlanOptions options;
    options.tier = c.tier;
    const Plan plan(device(), p, options);
    SCOPED_TRACE(p.token() + (c.tier == Tier::Generic ? " (generic tier)" : ""));
    const std::size_t in_bytes = static_cast<std::size_t>(p.input_extent()) * p.input_element_bytes();
    const std::size_t out_bytes = static_cast<std::size_t>(p.output_extent()) * p.output_element_bytes();
    auto data = [&] {
      std::vector<float> v(in_bytes / sizeof(float));
      for (float& x : v) x = uniform(engine);
      return v;
    };
    const std::vector<float> first = data(), second = data();
    std::vector<float> poisoned(out_bytes / sizeof(float), NAN);
    Buffer in(device(), in_bytes), out(device(), out_bytes);
    // A plain execution of each input on the stream: what the graph must give.
    auto plain = [&](const std::vector<float>& x) {
      in.write(x.data(), in_bytes);
      out.write(poisoned.data(), out_bytes);
      plan.execute(in, out, stream);
      device().synchronize(stream);
      std::vector<float> y(out_bytes / sizeof(float));
      out.read(y.data(), out_bytes);
      return y;
    };
    const std::vector<float> want_first = plain(first), want_second = plain(second);
    // Captured (global mode: an allocation or a host wait inside fails it).
    CUgraph graph = nullptr;
    CUgraphExec exec = nullptr;
    cu(graphs.begin(stream, 0), "cuStreamBeginCapture");
    plan.execute(in, out, stream);
    cu(graphs.end(stream, &graph), "cuStreamEndCapture");
    cu(graphs.instantiate(&exec, graph, 0), "cuGraphInstantiate");
    for (int round = 0; round < 2; ++round)
      for (const auto* x : {&first, &second}) {
        in.write(x->data(), in_bytes);
        out.write(poisoned.data(), out_bytes);
        cu(graphs.launch(exec, stream), "cuGraphLaunch");
        cu(api->cuStreamSynchronize(stream), "cuStreamSynchronize");
        std::vector<float> got(out_bytes / sizeof(float));
        out.read(got.data(), out_bytes);
        const std::vector<float>& want = x == &first ? want_first : want_second;
        EXPECT_EQ(std::memcmp(got.data(), want.data(), out_bytes), 0) << "replay " << round;
      }
    graphs.exec_destroy(exec);
    graphs.destroy(graph);
  }
  api->cuStreamDestroy(stream);
  api->cuDevicePrimaryCtxRelease(cu_device);
}

INSTANTIATE_TEST_SUITE_P(Backends, GraphCapture, ::testing::Values("cuda", "opencl"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace bfly::test
