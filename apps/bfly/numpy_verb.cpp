#include "numpy_verb.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <memory>
#include <optional>

#include "fft_input.hpp"
#include "io/npy.hpp"
#include "memory_needs.hpp"
#include "numpy_transform.hpp"
#include "options.hpp"

namespace bfly::cli {
namespace {

struct VerbOptions {
  std::string input, output, norm = "backward", tier = "at-hand", precision, window;
  LengthOptions lengths;
  DeviceOptions device;
};

// Half storage stores a value past the format's range as Inf: say so, once,
// where the output holds any (the input's own Infs too: they stay Inf).
void warn_overflow(const io::NpyArray& result, Storage storage) {
  std::size_t infinite = 0, count = 0;
  auto scan = [&](const auto* v, std::size_t n) {
    count = n;
    for (std::size_t i = 0; i < n; ++i) infinite += std::isinf(static_cast<float>(v[i])) ? 1 : 0;
  };
  const std::size_t bytes = result.data.size();
  if (result.dtype == io::DType::Float32 || result.dtype == io::DType::Complex64)
    scan(reinterpret_cast<const float*>(result.data.data()), bytes / sizeof(float));
  else if (result.dtype == io::DType::Float16)
    for (std::size_t i = 0; i < bytes / 2; ++i, ++count) {
      std::uint16_t h;
      std::memcpy(&h, result.data.data() + 2 * i, 2);
      infinite += (h & 0x7fffu) == 0x7c00u ? 1 : 0;
    }
  if (infinite > 0)
    std::fprintf(stderr,
                 "bfly: warning: %zu of %zu output values are Inf: past %s's range (%s); scale with --norm ortho or "
                 "forward, or leave out --precision\n",
                 infinite, count, to_string(storage), storage == Storage::Half ? "|x| >= 65520" : "|x| > 3.4e38");
}

// numpy's _swap_direction: hfft and ihfft scale as the transform they invert.
Norm swapped(Norm norm) {
  if (norm == Norm::Backward) return Norm::Forward;
  if (norm == Norm::Forward) return Norm::Backward;
  return norm;
}

int run(const NumpyVerb& verb, const VerbOptions& o) {
  io::OutputFile output(o.output, {o.input});
  const Norm norm = parse_numpy_norm(o.norm);
  // Sized from the header: the one memory check comes before anything is read.
  const io::NpyHeader header = io::read_npy_header(o.input, fft_input_dtypes());
  if (header.shape.empty())
    throw Error(ErrorCode::InvalidArgument, o.input + ": a 0-dimensional array has no axis to transform");
  if (verb.kind == Kind::R2C && is_complex(header.dtype))
    throw Error(ErrorCode::InvalidArgument, o.input + " holds " + io::to_string(header.dtype) + " data: " + verb.name +
                                                " takes real input (bool, integers, float16 to float64); "
                                                "use bfly fft for complex data");
  const AxesAndLengths resolved = resolve_lengths(o.lengths, verb.lengths, header.shape, o.input);
  NumpyTransform t;
  t.kind = verb.kind;
  t.direction = verb.direction;
  t.axes = resolved.axes;
  t.lengths = resolved.lengths;
  t.norm = verb.hermitian ? swapped(norm) : norm;
  t.conjugate_input = verb.hermitian && verb.kind == Kind::C2R;
  t.conjugate_output = verb.hermitian && verb.kind == Kind::R2C;
  t.tier = parse_tier(o.tier);
  if (!o.precision.empty()) {
    if (o.precision != "half" && o.precision != "bfloat16")
      throw Error(ErrorCode::InvalidArgument, "invalid --precision '" + o.precision + "' (expected half or bfloat16)");
    if (is_double(promoted_dtype(header.dtype)))
      throw Error(ErrorCode::InvalidArgument, o.input + " holds " + io::to_string(header.dtype) +
                                                  " data: --precision " + o.precision +
                                                  " takes float16, float32 or complex64 input");
    t.storage = o.precision == "half" ? Storage::Half : Storage::BFloat16;
  }
  if (!o.window.empty()) {
    // bfly.fft's windows (scipy.signal.get_window's periodic ones), as load ops.
    const std::string& w = o.window;
    const bool kaiser =
        w.rfind("kaiser:", 0) == 0 && w.size() > 7 && w.find_first_not_of("0123456789.eE+-", 7) == std::string::npos;
    if (w != "hann" && w != "hamming" && w != "blackman" && !kaiser)
      throw Error(ErrorCode::InvalidArgument,
                  "invalid --window '" + w + "' (expected hann, hamming, blackman or kaiser:BETA)");
    t.window = w;
  }
  std::optional<Device> opened;  // none where nothing is transformed (a batch axis of 0 points)
  if (transforms_anything(header.shape, t)) opened = o.device.open();
  const Device* device = opened ? &*opened : nullptr;
  const io::MemoryNeeds needs = transform_needs(header, t, device, std::string(verb.name) + " of " + o.input);
  if (device)
    check_memory(o.device, needs);
  else
    check_host_memory(needs);
  FftInput input = promote(io::read_npy(o.input, fft_input_dtypes()));
  const io::DType file_dtype = input.file_dtype;
  io::NpyArray result = real_output_for(run_numpy_transform(std::move(input.array), t, device), file_dtype);
  if (t.storage != Storage::Native) warn_overflow(result, t.storage);
  io::write_npy(output, result);
  return 0;
}

}  // namespace

void add_numpy_verb(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions, const NumpyVerb& verb) {
  auto o = std::make_shared<VerbOptions>();
  CLI::App* command = app.add_subcommand(verb.name, verb.help);
  command->add_option("input", o->input, verb.input_help)->required();
  command->add_option("output", o->output, std::string(verb.output_help) + " (- for standard output)")->required();
  CLI::Option* axes = command->add_option("--axes", o->lengths.axes, verb.axes_help);
  CLI::Option* n = command->add_option("--n", o->lengths.n, verb.n_help);
  CLI::Option* s = nullptr;
  if (!verb.lengths.one_axis)
    s = command->add_option(
        "--s", o->lengths.s,
        "lengths N[,M,...], one per transformed axis, as numpy's s: each axis cropped or "
        "zero-padded to its length (irfft's last: n reals out); without --axes the last len(s) axes");
  command->add_option("--norm", o->norm, "backward (default), ortho or forward, as numpy.fft");
  command->add_option("--precision", o->precision,
                      "half or bfloat16: transform in 16-bit storage on the device (fp32 compute; float16, float32 "
                      "or complex64 input, rounded to it), the results written in the verb's single-precision dtype "
                      "(NumPy has no complex32); an Inf from overflow is reported on stderr. Default: by the input's "
                      "dtype, as NumPy");
  command->add_option("--tier", o->tier,
                      "at-hand (default: a size's own kernels where compiled before, else the generic tier's, "
                      "never waiting to compile), specialised (compile a new size's own first), generic, tiered or "
                      "auto (answer at once, compile in the background; the process waits for it at exit)");
  if (verb.direction == Direction::Forward && verb.kind != Kind::C2R && !verb.hermitian)
    command->add_option("--window", o->window,
                        "hann, hamming, blackman or kaiser:BETA: the input times scipy.signal.get_window's periodic "
                        "window of each transformed axis's length (after --n/--s), fused into the loads");
  o->device.add_to(*command);
  actions.emplace_back(command, [o, verb, axes, n, s] {
    o->lengths.axes_given = axes->count() > 0;
    o->lengths.n_given = n->count() > 0;
    o->lengths.s_given = s != nullptr && s->count() > 0;
    return run(verb, *o);
  });
}

}  // namespace bfly::cli
