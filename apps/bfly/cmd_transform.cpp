// bfly fft / ifft: numpy.fft.fft / ifft along the last axis of an .npy file.
#include <complex>
#include <cstring>

#include "commands.hpp"
#include "io/npy.hpp"
#include "options.hpp"

namespace bfly::cli {
namespace {

struct TransformOptions {
  std::string input, output, norm = "backward";
  DeviceOptions device;
};

std::vector<std::complex<float>> as_complex64(const io::NpyArray& a, const std::string& path) {
  std::vector<std::complex<float>> data(static_cast<std::size_t>(a.elements()));
  if (a.dtype == io::DType::Complex64) {
    std::memcpy(data.data(), a.data.data(), data.size() * sizeof(data[0]));
  } else if (a.dtype == io::DType::Float32) {
    const auto* real = reinterpret_cast<const float*>(a.data.data());
    for (std::size_t i = 0; i < data.size(); ++i) data[i] = {real[i], 0.0f};
  } else {
    throw Error(ErrorCode::Unsupported, path + ": dtype " + io::to_string(a.dtype) +
                                            " is not supported yet (bfly transforms complex64 and float32)");
  }
  return data;
}

int run(const TransformOptions& o, Direction direction) {
  if (o.norm != "backward" && o.norm != "ortho" && o.norm != "forward")
    throw Error(ErrorCode::InvalidArgument, "invalid norm '" + o.norm + "' (expected backward, ortho or forward, as numpy.fft)");
  const Norm norm = parse_norm(o.norm);
  const io::NpyArray input = io::read_npy(o.input);
  if (input.shape.empty())
    throw Error(ErrorCode::InvalidArgument, o.input + ": a 0-dimensional array has no axis to transform");
  std::vector<std::complex<float>> data = as_complex64(input, o.input);
  const std::int64_t length = input.shape.back();
  if (length == 0) throw Error(ErrorCode::InvalidArgument, o.input + ": invalid number of data points (0) on the last axis");
  const std::int64_t batch = input.elements() / length;

  io::NpyArray result;
  result.dtype = io::DType::Complex64;
  result.shape = input.shape;
  result.data.resize(data.size() * sizeof(data[0]));
  if (batch > 0) {
    Problem problem;
    problem.shape = {length};
    problem.batch = batch;
    problem.direction = direction;
    problem.placement = Placement::InPlace;
    problem.norm = norm;
    const Plan plan(o.device.open(), problem);
    plan.execute_host(data.data(), data.data());
    std::memcpy(result.data.data(), data.data(), result.data.size());
  }
  io::write_npy(o.output, result);
  return 0;
}

void add(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions, const char* name, Direction direction,
         const char* help) {
  auto options = std::make_shared<TransformOptions>();
  CLI::App* command = app.add_subcommand(name, help);
  command->add_option("input", options->input, "input .npy (complex64, or float32 promoted)")->required();
  command->add_option("output", options->output, "output .npy (complex64, same shape)")->required();
  command->add_option("--norm", options->norm, "backward (default), ortho or forward, as numpy.fft");
  options->device.add_to(*command);
  actions.emplace_back(command, [options, direction] { return run(*options, direction); });
}

}  // namespace

void add_transform_commands(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions) {
  add(app, actions, "fft", Direction::Forward, "numpy.fft.fft of the last axis of an .npy file");
  add(app, actions, "ifft", Direction::Inverse, "numpy.fft.ifft of the last axis of an .npy file");
}

}  // namespace bfly::cli
