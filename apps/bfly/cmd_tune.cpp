// bfly tune: FFTW's wisdom for GPUs. Times the launch choices of each
// length's one-pass kernel on the device and writes the winners to a tuning
// table, which every later plan on this device reads (plan/tuning.hpp).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <ctime>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "options.hpp"
#include "problem/text.hpp"
#include "runtime/tuning_files.hpp"
#include "tuner.hpp"

namespace bfly::cli {
namespace {

struct TuneOptions {
  DeviceOptions device;
  std::string shape;  // lengths, comma-separated
  std::string suite;  // "tune": the shipped tables' lengths
  std::string precision = "single";
  std::string out;  // empty: the user's table for the device
  std::string log;  // every timed variant as JSON lines; empty: none
  bool quiet = false;
  TuneSettings settings;
};

std::vector<std::int64_t> lengths_of(const TuneOptions& o) {
  std::vector<std::int64_t> lengths;
  if (!o.suite.empty()) {
    if (o.suite != "tune")
      throw Error(ErrorCode::InvalidArgument, "unknown tune suite '" + o.suite + "' (expected tune)");
    lengths = tune_suite();
  }
  for (const std::string& item : text::split(o.shape, ',')) {
    if (item.empty()) continue;
    char* end = nullptr;
    const long long n = std::strtoll(item.c_str(), &end, 10);
    if (*end != '\0' || n < 2)
      throw Error(ErrorCode::InvalidArgument,
                  "invalid length '" + item + "' (bfly tune takes 1D lengths >= 2, as 1024,6144)");
    lengths.push_back(n);
  }
  if (lengths.empty()) throw Error(ErrorCode::InvalidArgument, "tune needs --shape N[,M...] or --suite tune");
  return lengths;
}

std::vector<Precision> precisions_of(const std::string& text) {
  if (text == "single") return {Precision::Single};
  if (text == "double") return {Precision::Double};
  if (text == "both") return {Precision::Single, Precision::Double};
  throw Error(ErrorCode::InvalidArgument, "invalid precision '" + text + "' (expected single, double or both)");
}

std::string today() {
  const std::time_t now = std::time(nullptr);
  char text[16];
  std::strftime(text, sizeof text, "%Y-%m-%d", std::gmtime(&now));
  return text;
}

// One JSON line of the log: the device, the problem, the search step and
// the launch as planned with its kernel and median time.
std::string log_line(const DeviceInfo& info, std::int64_t length, Precision precision, const TimedLaunch& t) {
  const plan::LaunchChoice& l = t.launch;
  const nlohmann::json line = {{"device", info.name},
                               {"length", length},
                               {"precision", precision == Precision::Single ? "single" : "double"},
                               {"step", t.step},
                               {"round", t.round},
                               {"threads", l.threads},
                               {"group_threads", l.group_threads},
                               {"padding", l.padding},
                               {"halves", l.halves},
                               {"two_level", l.two_level},
                               {"occupancy", l.occupancy},
                               {"staged", l.staged},
                               {"radices", l.radices},
                               {"kernel", t.kernel},
                               {"ms", t.ms < 1e29 ? t.ms : -1.0}};
  return line.dump();
}

int run(const TuneOptions& o) {
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  const std::vector<std::int64_t> lengths = lengths_of(o);
  const std::vector<Precision> precisions = precisions_of(o.precision);
  if (o.settings.points < 1 || o.settings.repetitions < 1 || o.settings.rounds < 1)
    throw Error(ErrorCode::InvalidArgument, "--points, --repetitions and --rounds must be >= 1");
  // Opened (appending) before any work, so a bad path fails at once.
  std::ofstream log;
  if (!o.log.empty()) {
    log.open(o.log, std::ios::app);
    if (!log) throw Error(ErrorCode::InvalidArgument, "cannot open the tune log '" + o.log + "' for appending");
  }
  const Device device = o.device.open();
  const DeviceInfo& info = device.info();
  const std::string path = o.out.empty() ? detail::user_tuning_path(info) : o.out;
  if (path.empty())
    throw Error(ErrorCode::InvalidArgument, "no cache directory for the tuning table: name one with --out FILE");
  // Entries already in the file stay unless this run measures them again.
  plan::TuningTable table;
  if (std::filesystem::exists(path)) {
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    table = plan::parse_tuning(text.str(), path);
    if (!table.matches(info.name, info.compute_capability)) {
      std::printf("%s was tuned on %s (sm %s, bfly %s): starting a new table\n", path.c_str(), table.device.c_str(),
                  table.compute_capability.c_str(), table.version.c_str());
      table = {};
    }
  }
  table.device = info.name;
  table.compute_capability = info.compute_capability;
  table.version = version();
  table.note = "bfly tune on " + info.name + " (" + info.driver + "), " + today() + ", " +
               std::to_string(o.settings.points) + " points per case";
  std::printf("bfly %s tune on %s: %s\n  driver %s\n  table %s\n", version(), info.spec.c_str(), info.name.c_str(),
              info.driver.c_str(), path.c_str());
  std::printf("%-8s %-7s %-9s %10s %10s %8s %6s  %s\n", "length", "prec", "model", "model ms", "best ms", "speed-up",
              "tried", "choice");
  const bool show = !o.quiet && isatty(fileno(stderr));
  int failures = 0;
  for (Precision precision : precisions)
    for (std::int64_t length : lengths) {
      try {
        const TuneResult r = tune_length(device, length, precision, o.settings, [&](const std::string& what) {
          if (show) std::fprintf(stderr, "\r\033[K  tuning %s", what.c_str());
        });
        if (show) std::fprintf(stderr, "\r\033[K");
        std::string choice = r.entry.passes.empty() ? "1 pass: " + r.entry.launch.text() : "passes";
        for (std::int64_t p : r.entry.passes) choice += " " + std::to_string(p);
        std::printf("%-8lld %-7s %-9s %10.4f %10.4f %7.2fx %6d  %s\n", static_cast<long long>(length),
                    precision == Precision::Single ? "single" : "double", r.model_plan.c_str(), r.model_ms, r.best_ms,
                    r.model_ms / r.best_ms, r.variants, choice.c_str());
        for (const std::string& note : r.notes) std::printf("    rejected %s\n", note.c_str());
        if (log.is_open()) {
          for (const TimedLaunch& t : r.timed) log << log_line(info, length, precision, t) << "\n";
          log.flush();
        }
        table.put(r.entry);
        // Written after every length, so a run cut short keeps what it measured.
        detail::write_tuning(table, path);
      } catch (const Error& e) {
        if (show) std::fprintf(stderr, "\r\033[K");
        std::printf("%-8lld %-7s failed: %s\n", static_cast<long long>(length),
                    precision == Precision::Single ? "single" : "double", e.what());
        ++failures;
      }
    }
  std::printf("wrote %zu entries to %s\n", table.entries.size(), path.c_str());
  return failures == 0 ? 0 : 1;
}

}  // namespace

void add_tune_command(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions) {
  auto o = std::make_shared<TuneOptions>();
  CLI::App* command = app.add_subcommand(
      "tune",
      "measure the launch choices of each length's one-pass kernel on the device and write the fastest "
      "to a tuning table");
  command->footer(
      "The choices: threads per transform, transforms per group, blocks per multiprocessor asked of the "
      "compiler, the shared-memory exchange in halves, staging (persistent blocks that copy the next "
      "transform's input to shared memory, by each thread or in one bulk copy, while they compute this one), "
      "padding, the twiddle table and the stage order, with 32-point butterflies; one pass or the model's split "
      "where the model takes several. The table is JSON keyed by device name, compute capability and bfly "
      "version. Later plans on this device read it: the table shipped for the device (tuning/*.json in the "
      "source), then the user's table written here (by default under the cache directory), or only the file "
      "named by BFLY_TUNING (BFLY_TUNING=off: the model alone). Lengths the table lacks take the planner's "
      "model (nothing is borrowed from a neighbour). `bfly plan` says where each pass's launch came from. "
      "--log FILE appends every timed variant as a JSON line (step, launch, kernel, median ms): the data a "
      "rule for untuned lengths is fitted to.");
  o->device.add_to(*command);
  command->add_option("--shape", o->shape, "lengths to tune, comma-separated (1D, contiguous: 1024,6144,20000)");
  command->add_option("--suite", o->suite, "tune: the lengths of the shipped tables");
  command->add_option("--precision", o->precision, "single, double or both");
  command->add_option("--points", o->settings.points, "points per timed case (batch = points / length; default 2^26)");
  command->add_option("--repetitions", o->settings.repetitions, "timed samples per variant, median kept (default 5)");
  command->add_option("--rounds", o->settings.rounds, "rounds of the coordinate search (default 2)");
  command->add_option("--out", o->out,
                      "the table to write (default: the user's table for this device under the cache directory); "
                      "entries of other lengths already in it are kept");
  command->add_option("--log", o->log, "append every timed variant to FILE as JSON lines");
  command->add_flag("--quiet", o->quiet, "no progress display");
  actions.emplace_back(command, [o] { return run(*o); });
}

}  // namespace bfly::cli
