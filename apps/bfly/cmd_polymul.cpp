// bfly polymul A B OUT: the exact product of two integer polynomials
// (bfly::polymul). A and B: 1-D .npy arrays of bool or any integer type
// (read_exact_integers: every value as int64, exactly; floats are refused,
// not rounded), or text files with one coefficient a line, lowest degree
// first (a blank line is an error: it would shift every later degree). OUT:
// .npy (int64; a coefficient beyond int64 is an error) or any other name,
// text (exact, any size).
#include <bfly/exact.hpp>

#include <cstring>

#include "commands.hpp"
#include "fft_input.hpp"
#include "io/npy.hpp"
#include "io/output_file.hpp"
#include "io/text_file.hpp"
#include "memory_needs.hpp"
#include "options.hpp"

namespace bfly::cli {
namespace {

struct PolymulOptions {
  std::string a, b, output;
  bool verbose = false;
  DeviceOptions device;
};

std::vector<std::int64_t> read_polynomial(const std::string& path) {
  if (!io::is_npy_file(path)) {
    std::vector<std::int64_t> values = io::read_integer_lines(path);
    if (values.empty()) throw Error(ErrorCode::InvalidArgument, path + ": no coefficients");
    return values;
  }
  const io::NpyArray array = read_exact_integers(path);
  if (array.shape.size() != 1)
    throw Error(ErrorCode::InvalidArgument, path + ": a polynomial is a 1-D array; this one has " +
                                                std::to_string(array.shape.size()) + " dimensions");
  if (array.elements() == 0) throw Error(ErrorCode::InvalidArgument, path + ": no coefficients");
  std::vector<std::int64_t> values(static_cast<std::size_t>(array.elements()));
  std::memcpy(values.data(), array.data.data(), values.size() * sizeof(std::int64_t));
  return values;
}

int run(const PolymulOptions& o) {
  io::OutputFile output(o.output, {o.a, o.b});
  const std::vector<std::int64_t> a = read_polynomial(o.a), b = read_polynomial(o.b);
  check_memory(o.device, polymul_needs(o.device.open(), a, b));
  ExactStats stats;
  const std::vector<WideInt> c = polymul(o.device.open(), a, b, &stats);
  if (o.verbose)
    std::fprintf(stderr, "bfly: %zu x %zu coefficients: %d-bit digits, %d attempt(s), checked modulo random primes\n",
                 a.size(), b.size(), stats.limb_bits, stats.attempts);
  if (ends_with(o.output, ".npy")) {
    io::NpyArray out;
    out.dtype = io::DType::Int64;
    out.shape = {static_cast<std::int64_t>(c.size())};
    out.data.resize(c.size() * sizeof(std::int64_t));
    for (std::size_t k = 0; k < c.size(); ++k) {
      if (!c[k].fits_int64())
        throw Error(ErrorCode::InvalidArgument, "coefficient " + std::to_string(k) + " of the product is " +
                                                    c[k].to_string() +
                                                    ", beyond int64: write the result to a text file instead");
      const std::int64_t v = c[k].to_int64();
      std::memcpy(out.data.data() + k * sizeof v, &v, sizeof v);
    }
    io::write_npy(output, out);
  } else {
    std::string text;
    for (const WideInt& v : c) text += v.to_string() + '\n';
    output.write(text);
    output.commit();
  }
  return 0;
}

}  // namespace

void add_polymul_command(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions) {
  auto o = std::make_shared<PolymulOptions>();
  CLI::App* command = app.add_subcommand(
      "polymul", "exact product of two integer polynomials (numpy.convolve on integers, without overflow)");
  command
      ->add_option("a", o->a,
                   "first polynomial: a 1-D .npy of bool or any integer type, int8 to uint64 (a uint64 up to 2^63 - 1; "
                   "floats are refused, not rounded), or text, one integer a line, lowest degree first, no blank lines")
      ->required();
  command->add_option("b", o->b, "second polynomial, the same forms")->required();
  command
      ->add_option("output", o->output,
                   "result: .npy (int64; a coefficient beyond int64 is an error) or text (exact, any size; - for "
                   "standard output)")
      ->required();
  command->add_flag("--verbose", o->verbose, "report the digit width and the checks on stderr");
  o->device.add_to(*command);
  actions.emplace_back(command, [o] { return run(*o); });
}

}  // namespace bfly::cli
