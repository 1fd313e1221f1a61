// libFuzzer target: the bfly command line. The input is an argument list,
// split on '\0' or '\n', parsed by the same CLI11 app as `bfly`'s main()
// (cli::add_commands); no action runs (they open devices, read and write
// files, clear caches). What the chosen command's options go through before
// a device opens is then run on the parsed values with the CLI's own helpers:
// problems (ProblemOptions: tokens, --shape, --axes, --kind, --norm, ...),
// numpy.fft's --axes/--n/--s (resolve_lengths, then the stages and problems
// they come to, for an array whose shape the input's file name gives when it
// is one, as 4x6x8), norms, convolve modes, paddings, suites, dialects.
// Properties: CLI11 reports a bad list as CLI::ParseError and nothing else,
// which main() turns into status 0 (--help, --version) with nothing on
// stderr, or status 2 and one line "bfly: error: ...";
// the helpers throw only bfly::Error; every problem the numpy.fft stages make
// of accepted lengths is one bfly takes (rank <= 4, <= 3 axes, its element
// count in range).
#include <bfly/convolve.hpp>
#include <bfly/filter.hpp>

#include <algorithm>
#include <limits>
#include <ostream>
#include <sstream>

#include "bench_runner.hpp"
#include "codegen/dialect.hpp"
#include "commands.hpp"
#include "fuzz_util.hpp"
#include "numpy_transform.hpp"
#include "options.hpp"
#include "problem/text.hpp"
#include "transform_axes.hpp"

namespace {

using namespace bfly;
using namespace bfly::cli;

// An option's value as CLI11 parsed it into the command's variable; empty
// (or `fallback`) where it was not given.
std::string text_of(const CLI::App* command, const std::string& name, const std::string& fallback = "") {
  const CLI::Option* option = command->get_option_no_throw(name);
  return option != nullptr && option->count() > 0 ? option->as<std::string>() : fallback;
}

bool given(const CLI::App* command, const std::string& name) {
  const CLI::Option* option = command->get_option_no_throw(name);
  return option != nullptr && option->count() > 0;
}

template <class T>
T value_of(const CLI::App* command, const std::string& name, T fallback) {
  return given(command, name) ? command->get_option(name)->as<T>() : fallback;
}

// A problem from a command's ProblemOptions: valid, and its token round-trips.
void check_problem(const ProblemOptions& o) {
  Problem p;
  try {
    p = o.problem();
  } catch (const Error&) {
    return;
  }
  p.validate();
  if (Problem::parse(p.token()) != p) fuzz::fail("problem token " + p.token() + " does not round-trip");
}

ProblemOptions problem_options(const CLI::App* c) {
  ProblemOptions o;
  o.token = text_of(c, "token");
  o.kind = text_of(c, "--kind");
  o.shape = text_of(c, "--shape");
  o.axes = text_of(c, "--axes");
  o.batch = value_of<std::int64_t>(c, "--batch", 1);
  o.inverse = value_of<bool>(c, "--inverse", false);
  o.in_place = value_of<bool>(c, "--in-place", false);
  o.precision = text_of(c, "--precision", "single");
  o.norm = text_of(c, "--norm", "none");
  o.strategy = text_of(c, "--strategy", "auto");
  return o;
}

// Product of `shape`, or -1 past 2^62.
std::int64_t elements(const std::vector<std::int64_t>& shape) {
  std::int64_t n = 1;
  for (std::int64_t s : shape) {
    if (s == 0) return 0;
    if (n > (std::int64_t{1} << 62) / s) return -1;
    n *= s;
  }
  return n;
}

void check_step(const Problem& p) {
  if (p.rank() > 4 || p.transform_axes().size() > 3)
    fuzz::fail("a numpy.fft stage made the problem " + text::shape(p.shape) + " over " +
               std::to_string(p.transform_axes().size()) + " axes");
  try {
    p.validate();
  } catch (const Error& e) {
    fuzz::fail(std::string("a numpy.fft stage made an invalid problem: ") + e.what());
  }
}

// The problems Runner::run (numpy_transform.cpp) makes of each stage, on
// the shapes the array takes between them.
void check_stages(std::vector<std::int64_t> shape, const NumpyTransform& t) {
  for (const Stage& stage : stages(t)) {
    const StageShapes s = shapes_of(shape, stage);
    if (elements(s.in) < 0 || elements(s.out) < 0)
      fuzz::fail("accepted lengths make an array of " + text::shape(s.in) + " -> " + text::shape(s.out));
    if (elements(s.in) > 0) {
      try {
        for (const ArrayStep& step : stage_steps(t, stage, s, Precision::Single).steps) check_step(step.problem);
      } catch (const Error& e) {
        fuzz::fail(std::string("a numpy.fft stage has no steps: ") + e.what());
      }
    }
    shape = s.out;
  }
}

// numpy.fft's verbs as cmd_transform.cpp and cmd_real_transform.cpp declare them.
struct Verb {
  const char* name;
  Kind kind;
  Direction direction;
  LengthRules rules;
};
const Verb kVerbs[] = {
    {"fft", Kind::C2C, Direction::Forward, {}},
    {"ifft", Kind::C2C, Direction::Inverse, {}},
    {"rfft", Kind::R2C, Direction::Forward, {}},
    {"irfft", Kind::C2R, Direction::Inverse, {false, true, true}},
    {"hfft", Kind::C2R, Direction::Inverse, {true, true, false}},
    {"ihfft", Kind::R2C, Direction::Forward, {true, false, false}},
};

// The array shape a verb's input stands for: its name when that is a shape
// (rank 1 to 6, as "4x6x8"), else 4x6x8.
std::vector<std::int64_t> shape_named(const std::string& input) {
  try {
    std::vector<std::int64_t> shape = text::parse_shape(input);
    if (!shape.empty() && shape.size() <= 6 && elements(shape) >= 0 &&
        std::all_of(shape.begin(), shape.end(), [](std::int64_t s) { return s >= 0; }))
      return shape;
  } catch (const Error&) {}
  return {4, 6, 8};
}

void check_verb(const CLI::App* c, const Verb& verb) {
  LengthOptions lengths;
  lengths.axes = text_of(c, "--axes");
  lengths.s = text_of(c, "--s");
  lengths.n = value_of<std::int64_t>(c, "--n", 0);
  lengths.axes_given = given(c, "--axes");
  lengths.n_given = given(c, "--n");
  lengths.s_given = given(c, "--s");
  const std::vector<std::int64_t> shape = shape_named(text_of(c, "input"));
  NumpyTransform t;
  try {
    t.norm = parse_numpy_norm(text_of(c, "--norm", "backward"));
    const AxesAndLengths resolved = resolve_lengths(lengths, verb.rules, shape, "input.npy");
    t.axes = resolved.axes;
    t.lengths = resolved.lengths;
  } catch (const Error&) {
    return;
  }
  if (t.axes.empty() || t.axes.size() != t.lengths.size()) fuzz::fail("resolve_lengths gave no axes");
  for (std::size_t i = 0; i < t.axes.size(); ++i)
    if (t.axes[i] < 0 || t.axes[i] >= static_cast<int>(shape.size()) || t.lengths[i] < 1)
      fuzz::fail("resolve_lengths gave axis " + std::to_string(t.axes[i]) + " of length " +
                 std::to_string(t.lengths[i]));
  t.kind = verb.kind;
  t.direction = verb.direction;
  check_stages(shape, t);
}

// What each command checks before its device opens.
void check_command(const CLI::App* c) {
  const std::string name = c->get_name();
  for (const Verb& verb : kVerbs)
    if (name == verb.name) return check_verb(c, verb);
  try {
    if (name == "plan" || name == "gen") {
      const ProblemOptions o = problem_options(c);
      check_problem(o);
      o.plan_options();
      if (name == "gen") codegen::parse_dialect(text_of(c, "--dialect", "opencl"));
    } else if (name == "bench" || name == "demo") {
      ProblemOptions o = problem_options(c);
      o.plan_options();
      if (!o.kind.empty()) parse_kind(o.kind);
      if (given(c, "--suite")) suite(text_of(c, "--suite"), value_of<std::int64_t>(c, "--points", 1 << 24));
      if (!o.shape.empty())
        for (const std::string& item : text::split(o.shape, ',')) {
          ProblemOptions single = o;
          single.shape = item;
          check_problem(single);
        }
    } else if (name == "warm") {
      for (const std::string& item : text::split(text_of(c, "--shape"), ','))
        if (!item.empty()) text::parse_shape(item);
      if (given(c, "--suite")) suite(text_of(c, "--suite"), 1);
    } else if (name == "convolve") {
      parse_convolve_mode(text_of(c, "--mode", "full"));
      parse_axes(text_of(c, "--axes"));
    } else if (name == "filter") {
      parse_padding(text_of(c, "--pad", "reflect"));
    }
  } catch (const Error&) {}
}

// The deepest subcommand the parse chose.
const CLI::App* chosen(const CLI::App* app) {
  for (const CLI::App* sub : app->get_subcommands())
    if (sub->parsed()) return chosen(sub);
  return app;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::vector<std::string> args{"bfly"};
  std::string current;
  for (std::size_t i = 0; i < size; ++i) {
    if (data[i] == '\0' || data[i] == '\n') {
      args.push_back(current);
      current.clear();
    } else {
      current += static_cast<char>(data[i]);
    }
  }
  if (!current.empty()) args.push_back(current);
  if (args.size() > 64) return 0;  // long lists add nothing a short one does not
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());

  CLI::App app;
  std::vector<std::pair<CLI::App*, Action>> actions;
  add_commands(app, actions);
  try {
    app.parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError& e) {
    std::ostream silent(nullptr);  // what --help and --version print, formatted and dropped
    std::ostringstream err;
    const int status = parse_error_status(app, e, silent, err);
    const std::string line = err.str();
    if (status == 0 ? !line.empty()
                    : status != 2 || line.rfind("bfly: error: ", 0) != 0 || line.find('\n') != line.size() - 1)
      fuzz::fail("a parse error gave status " + std::to_string(status) + " and '" + line + "'");
    return 0;
  }
  check_command(chosen(&app));
  return 0;
}
