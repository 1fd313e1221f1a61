// bfly bigmul X Y [-o OUT]: the exact product of two big integers
// (bfly::bigmul). X and Y are numbers (decimal, or hex after 0x, with an
// optional sign) or, when they are not, paths of text files holding one.
#include <bfly/exact.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "commands.hpp"
#include "io/output_file.hpp"
#include "memory_needs.hpp"
#include "options.hpp"

namespace bfly::cli {
namespace {

struct BigmulOptions {
  std::string x, y, output;
  bool verbose = false;
  DeviceOptions device;
};

// Whether an argument is a number as typed rather than a file naming one.
bool is_literal(const std::string& arg) {
  std::size_t at = arg.empty() || (arg[0] != '+' && arg[0] != '-') ? 0 : 1;
  bool hex = arg.compare(at, 2, "0x") == 0 || arg.compare(at, 2, "0X") == 0;
  if (hex) at += 2;
  bool literal = at < arg.size();
  for (std::size_t i = at; i < arg.size() && literal; ++i)
    literal =
        std::isdigit(static_cast<unsigned char>(arg[i])) || (hex && std::isxdigit(static_cast<unsigned char>(arg[i])));
  return literal;
}

// A number literal as it is, else the contents of the file it names.
std::string number_or_file(const std::string& arg) {
  if (is_literal(arg)) return arg;
  std::ifstream in(arg, std::ios::binary);
  if (!in)
    throw Error(ErrorCode::InvalidArgument,
                "'" + arg + "' is neither a number nor a readable file (" + std::strerror(errno) + ")");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw Error(ErrorCode::Io, "cannot read '" + arg + "'");
  return text.str();
}

int run(const BigmulOptions& o) {
  std::vector<std::string> files;
  for (const std::string& arg : {o.x, o.y})
    if (!is_literal(arg)) files.push_back(arg);
  io::OutputFile output(o.output.empty() ? "-" : o.output, files);
  const std::string x = number_or_file(o.x), y = number_or_file(o.y);
  check_memory(o.device, bigmul_needs(o.device.open(), x, y));
  ExactStats stats;
  const std::string product = bigmul(o.device.open(), x, y, &stats);
  if (o.verbose)
    std::fprintf(stderr, "bfly: %d digits a limb, %d attempt(s), checked modulo random primes\n", stats.limb_digits,
                 stats.attempts);
  output.write(product);
  output.write("\n", 1);
  output.commit();
  return 0;
}

}  // namespace

void add_bigmul_command(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions) {
  auto o = std::make_shared<BigmulOptions>();
  CLI::App* command =
      app.add_subcommand("bigmul", "exact product of two big integers (decimal, or hex after 0x; a sign allowed)");
  command->add_option("x", o->x, "a number, or a text file holding one")->required();
  command->add_option("y", o->y, "a number in the same base, or a text file holding one")->required();
  command->add_option("-o,--output", o->output, "write the product to this file (default, or -: standard output)");
  command->add_flag("--verbose", o->verbose, "report the limb width and the checks on stderr");
  o->device.add_to(*command);
  actions.emplace_back(command, [o] { return run(*o); });
}

}  // namespace bfly::cli
