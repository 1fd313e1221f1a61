// bfly bench: time problems or a named suite beside the peers.
// bfly demo: the README's first command: a short suite, checked against FFTW.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <utility>

#include "bench_bigmul.hpp"
#include "bench_convolve.hpp"
#include "bench_distributed.hpp"
#include "bench_report.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "problem/text.hpp"
#include "random_suite.hpp"
#include "size_lists.hpp"
#include "peer.hpp"

namespace bfly::cli {
namespace {

struct BenchOptions {
  ProblemOptions problem;
  std::string window;  // --window: the load's first op
  DeviceOptions device;
  std::string suite_name;
  std::int64_t points = std::int64_t{1} << 22;
  std::string out;
  bool quiet = false;
  bool no_peers = false;
  bool cold = false;
  std::string tuning;  // "", "off" or a table file
  std::string tier = "specialised";
  BenchSettings settings;
  std::string app;                           // "convolve": bench_convolve.cpp instead of transforms
  std::string kernel_sizes;                  // --kernel-sizes for --app convolve
  std::string product = "auto";              // --product for --app convolve
  std::string digits;                        // --digits for --app bigmul
  std::int64_t seed = -1;                    // --seed for --suite random (-1: a fresh one, printed)
  bool list = false;                         // --list: print the cases and stop
  std::vector<std::string> shapes;           // operands: shapes as --shape's, each a list too
  bool distributed = false;                  // --distributed: bench_distributed.hpp instead
  DistributedBenchOptions distributed_only;  // its own options (--grid, ...)
};

Progress progress_for(bool quiet) {
  if (quiet || !isatty(fileno(stderr))) return nullptr;
  return [](std::size_t done, std::size_t total, const std::string& what) {
    std::fprintf(stderr, "\r\033[K[%zu/%zu] %s", done, total, what.c_str());
    if (done == total) std::fprintf(stderr, "\r\033[K");
    std::fflush(stderr);
  };
}

// --precision as text; suites and the demo build no Problem from the options
// that would check it. half and bfloat16: 16-bit storage, single compute.
Precision parse_precision(const std::string& text, Storage* storage) {
  *storage = text == "half" ? Storage::Half : text == "bfloat16" ? Storage::BFloat16 : Storage::Native;
  if (text == "single" || *storage != Storage::Native) return Precision::Single;
  if (text == "double") return Precision::Double;
  throw Error(ErrorCode::InvalidArgument,
              "invalid precision '" + text + "' (expected single, double, half or bfloat16)");
}

// Removed when the run ends, however it ends.
struct TemporaryDirectory {
  std::string path;
  ~TemporaryDirectory() {
    std::error_code ignored;
    if (!path.empty()) std::filesystem::remove_all(path, ignored);
  }
};

// "3,15,63" or "1e4,1e6" as integers; `what` names them in the error.
std::vector<std::int64_t> parse_counts(const std::string& text, const char* what) {
  std::vector<std::int64_t> out;
  std::size_t at = 0;
  while (at <= text.size()) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    const std::string item = text.substr(at, comma - at);
    char* end = nullptr;
    const double v = std::strtod(item.c_str(), &end);
    if (item.empty() || *end != '\0' || !(v >= -9e18 && v <= 9e18) ||
        v != static_cast<double>(static_cast<std::int64_t>(v)))
      throw Error(ErrorCode::InvalidArgument, std::string("invalid ") + what + " '" + item + "' (expected an integer)");
    out.push_back(static_cast<std::int64_t>(v));
    at = comma + 1;
  }
  return out;
}

// bench --distributed reads the options bench_distributed.hpp lists: any
// other given with it is refused by name, and its own without it.
std::string usage_error(const CLI::App& command, bool distributed) {
  const std::vector<std::string>& shared = distributed_bench_shared_options();
  const std::vector<std::string>& own = distributed_bench_own_options();
  for (const CLI::Option* option : command.get_options()) {
    const std::string name = option->get_name();
    if (option->count() == 0 || name == "--distributed") continue;
    const bool owned = std::find(own.begin(), own.end(), name) != own.end();
    if (distributed && !owned && std::find(shared.begin(), shared.end(), name) == shared.end())
      return name + " is not for bench --distributed";
    if (!distributed && owned) return name + " is for bench --distributed";
  }
  return "";
}

// The distributed run's options: its own, and the bench's it shares.
DistributedBenchOptions distributed_options(const BenchOptions& o, const CLI::App& command) {
  DistributedBenchOptions d = o.distributed_only;
  d.usage_error = usage_error(command, true);
  if (!o.problem.shape.empty()) d.shapes.push_back(o.problem.shape);
  d.shapes.insert(d.shapes.end(), o.shapes.begin(), o.shapes.end());
  d.kind = o.problem.kind, d.precision = o.problem.precision, d.norm = o.problem.norm, d.inverse = o.problem.inverse;
  d.device = o.device.spec, d.out = o.out, d.quiet = o.quiet;
  if (command.count("--repetitions") > 0) d.repetitions = o.settings.repetitions;
  d.tier = o.tier, d.tuning = o.tuning, d.strategy = o.problem.strategy;
  return d;
}

int run_distributed(const DistributedBenchOptions& options) {
#ifdef BFLY_HAVE_DISTRIBUTED
  return run_distributed_bench(options);
#else
  (void)options;
  throw Error(ErrorCode::Unsupported,
              "bench --distributed: this bfly was built without MPI (distributed isn't built: configure with an MPI "
              "installed, e.g. apt-get install libopenmpi-dev openmpi-bin, and -DBFLY_MPI=ON)");
#endif
}

int run(BenchOptions& o, bool demo) {
  // Line-buffered even into a file, so a run cut short keeps what it printed.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  o.settings.strategy = o.problem.plan_options().strategy;
  o.settings.tuning = tuning_option(o.tuning);
  o.settings.tier = parse_tier(o.tier);
  if (!o.window.empty()) o.settings.load = o.window + (o.settings.load.empty() ? "" : "," + o.settings.load);
  Storage storage = Storage::Native;
  const Precision precision = parse_precision(o.problem.precision, &storage);
  if (storage != Storage::Native && !o.app.empty())
    throw Error(ErrorCode::InvalidArgument, "--precision " + o.problem.precision + " is for transforms, not --app");
  if (!o.app.empty()) {
    if (o.app == "bigmul") {
      BigmulBenchOptions b;
      if (!o.digits.empty()) b.digits = parse_counts(o.digits, "digit count");
      b.repetitions = o.settings.repetitions;
      return run_bigmul_bench(o.device.open(), b);
    }
    if (o.app != "convolve")
      throw Error(ErrorCode::InvalidArgument, "unknown --app '" + o.app + "' (expected convolve or bigmul)");
    ConvolveBenchOptions c;
    if (!o.problem.shape.empty()) c.shape = text::parse_shape(o.problem.shape);
    if (!o.kernel_sizes.empty()) c.kernel_sizes = parse_counts(o.kernel_sizes, "kernel size");
    c.precision = precision;
    c.repetitions = o.settings.repetitions;
    c.product = parse_product_at(o.product);
    return run_convolve_bench(o.device.open(), c);
  }
  // --kind for every case; the real suite is real (r2c) unless told otherwise.
  const KindChoice choice = !o.problem.kind.empty()  ? parse_kind(o.problem.kind)
                            : o.suite_name == "real" ? KindChoice{Kind::R2C}
                                                     : KindChoice{};
  const Kind kind = choice.kind;
  // A suite's cases take the kind, and --inverse where the kind has both
  // directions (c2c, a DCT or DST; c2r is the inverse, r2c the forward).
  if (o.problem.inverse && kind == Kind::R2C && !o.suite_name.empty())
    throw Error(ErrorCode::InvalidArgument,
                "--inverse with --kind r2c: an r2c transform is forward (c2r is its inverse)");
  auto take_kind = [&](BenchCase& c, const KindChoice& k) {
    c.kind = k.kind;
    c.family = k.family;
    c.type = k.type;
    c.inverse = k.kind == Kind::C2R || (o.problem.inverse && k.kind != Kind::R2C);
  };
  std::vector<BenchCase> cases;
  std::string source = o.suite_name.empty() ? std::string() : "suite " + o.suite_name;  // for --out's record
  if (o.seed != -1 && o.suite_name != "random")
    throw Error(ErrorCode::InvalidArgument, "--seed " + std::to_string(o.seed) + " is for --suite random");
  if (demo) {
    cases = suite("demo", std::int64_t{1} << 20);
  } else if (o.suite_name == "random") {
    if (o.seed < -1)
      throw Error(ErrorCode::InvalidArgument, "invalid --seed " + std::to_string(o.seed) + " (0 or more)");
    const std::uint64_t seed = o.seed >= 0 ? static_cast<std::uint64_t>(o.seed) : fresh_seed();
    source = "suite random, seed " + std::to_string(seed);
    std::printf("random suite: seed %llu (bfly bench --suite random --seed %llu draws the same cases)\n",
                static_cast<unsigned long long>(seed), static_cast<unsigned long long>(seed));
    for (const RandomCase& r : random_cases(seed)) {
      BenchCase c;
      c.shape = r.shape;
      take_kind(c, o.problem.kind.empty() ? KindChoice{r.kind} : choice);
      c.batch = std::max<std::int64_t>(1, o.points / c.array_points());
      cases.push_back(c);
    }
  } else if (!o.suite_name.empty()) {
    if (suite_shapes(o.suite_name).empty()) {
      std::string names;
      for (const std::string& known : suite_names()) names += known + ", ";
      throw Error(ErrorCode::InvalidArgument, "unknown suite '" + o.suite_name + "' (expected " + names + "or random)");
    }
    cases = suite(o.suite_name, o.points);
    for (BenchCase& c : cases) take_kind(c, choice);
  } else {
    if (o.problem.shape.empty())
      throw Error(ErrorCode::InvalidArgument, "bench needs --shape N[xM...][,...] or --suite NAME");
    for (const std::string& item : text::split(o.problem.shape, ',')) {
      ProblemOptions single = o.problem;
      single.shape = item;
      const Problem p = single.problem();
      BenchCase c;
      c.kind = p.kind;
      c.family = p.family;
      c.type = p.type;
      c.shape = p.shape;
      c.axes = p.axes;
      c.inverse = p.direction == Direction::Inverse;
      c.batch = o.problem.batch > 1 ? o.problem.batch : std::max<std::int64_t>(1, o.points / c.array_points());
      cases.push_back(c);
    }
  }
  for (BenchCase& c : cases) {
    c.precision = precision;
    c.storage = storage;
  }
  if (o.list) {
    for (const BenchCase& c : cases) std::printf("%s\n", c.label().c_str());
    return 0;
  }
  TemporaryDirectory cold_caches;
  if (o.cold) {
    // A new, empty kernel cache for this run: the first plan of each case
    // compiles from source (cold), the warm column then loads from it.
    // The compilers keep caches of their own, and those go empty too (set
    // before the first device call reads them): NVRTC 13 with a CUDA driver
    // reuses the driver's compute cache (CUDA_CACHE_PATH, ~/.nv by default),
    // where an earlier process's same kernel compiled in 75-120 ms instead
    // of 1.0-1.3 s (H100 host, 2026-11-23: docs/PERF.md "NVRTC's time");
    // PoCL keeps its programs in POCL_CACHE_DIR.
    char dir[] = "/tmp/bfly-cold-cache-XXXXXX";
    if (!mkdtemp(dir)) throw Error(ErrorCode::Io, "cannot create a temporary cache directory");
    cold_caches.path = dir;
    setenv("BFLY_CACHE_DIR", dir, 1);
    for (const auto& [variable, sub] : {std::pair{"CUDA_CACHE_PATH", "/cuda"}, std::pair{"POCL_CACHE_DIR", "/pocl"}}) {
      const std::string path = cold_caches.path + sub;
      if (mkdir(path.c_str(), 0700) != 0) throw Error(ErrorCode::Io, "cannot create the cold cache directory " + path);
      setenv(variable, path.c_str(), 1);
    }
    std::printf("cold run: kernel cache in %s (NVRTC's and PoCL's caches under it too; removed at the end)\n", dir);
  }
  bench::enlarge_thread_stacks();  // before the first OpenCL call: PoCL's threads run VkFFT's big work-groups
  const Device device = o.device.open();
  std::printf("bfly %s on %s: %s\n  driver %s\n", version(), device.info().spec.c_str(), device.info().name.c_str(),
              device.info().driver.c_str());
  const double limit = error_limit(precision);
  const bool fp64 = precision == Precision::Double;
  if (storage != Storage::Native)
    std::printf(
        "  %s storage (%s buffers, fp32 compute), checked against FFTW double on the rounded input "
        "(relative L2 error <= %s); the f32 column and the peers run fp32 on the same values\n",
        precision_name(precision, storage), to_string(storage), storage == Storage::Half ? "4e-4" : "3e-3");
  else if (kind == Kind::R2R)
    std::printf("  %s%s %s precision (%s to %s), checked against %s r2r (relative L2 error <= %s)\n",
                choice.text().c_str(), o.problem.inverse ? " inverse" : "", precision_name(precision),
                fp64 ? "float64" : "float32", fp64 ? "float64" : "float32", reference_name(precision).c_str(),
                error_limit_text(precision).c_str());
  else if (kind == Kind::C2C)
    std::printf("  %s precision (%s), checked against %s (relative L2 error <= %s)\n", precision_name(precision),
                fp64 ? "complex128" : "complex64", reference_name(precision).c_str(),
                error_limit_text(precision).c_str());
  else
    std::printf("  %s %s precision (%s to %s), checked against %s (relative L2 error <= %s)\n", to_string(kind),
                precision_name(precision),
                kind == Kind::R2C ? (fp64 ? "float64" : "float32") : (fp64 ? "complex128" : "complex64"),
                kind == Kind::R2C ? (fp64 ? "complex128" : "complex64") : (fp64 ? "float64" : "float32"),
                reference_name(precision).c_str(), error_limit_text(precision).c_str());
  o.settings.peers = !o.no_peers;
  for (const std::string& absent : bench::absent_peers()) std::printf("  peer absent: %s\n", absent.c_str());
  std::vector<std::string> notes;
  const Progress progress = progress_for(o.quiet);
  bool first = true;
  // Rows are printed as cases finish, so long runs show results as they go.
  const std::vector<CaseResult> results = run_bench(
      device, cases, o.settings, progress,
      [&](const CaseResult& r) {
        if (progress) std::fprintf(stderr, "\r\033[K");
        if (first) {
          for (const std::string& note : notes) std::printf("  peer absent: %s\n", note.c_str());
          if (!o.settings.load.empty() || !o.settings.store.empty())
            std::printf(
                "  bfly's row with callbacks: load '%s', store '%s' (the peers: the bare transform; bfly's "
                "output unchecked here, tests/accuracy/test_callbacks.cpp checks it)\n",
                o.settings.load.c_str(), o.settings.store.c_str());
          std::fputs(table_header(r).c_str(), stdout);
          first = false;
        }
        std::fputs(table_row(r).c_str(), stdout);
      },
      &notes);
  BenchCase example;  // of the run's --kind (a random suite without one mixes c2c and r2c: c2c's footer)
  take_kind(example, choice);
  example.precision = precision;
  example.storage = storage;
  std::fputs(table_footer(example).c_str(), stdout);
  std::fputs(table_summary(results).c_str(), stdout);
  if (!o.out.empty()) save(o.out, results, device.info(), source);
  if (demo) {
    for (const CaseResult& r : results) {
      if (!r.unsupported.empty()) {
        std::fprintf(stderr, "bfly: error: %s: %s\n", r.bench_case.label().c_str(), r.unsupported.c_str());
        return 1;
      }
      std::vector<std::pair<std::string, double>> errors{{"bfly", r.error}};
      for (const PeerResult& p : r.peers)
        if (p.name == kTransposePeer && p.unsupported.empty()) errors.push_back({p.name, p.error});
      for (const auto& [who, error] : errors)
        if (!(error >= 0 && error <= limit)) {
          std::fprintf(stderr, "bfly: error: %s of %s has relative error %.3g against %s (limit %s)\n", who.c_str(),
                       r.bench_case.label().c_str(), error, reference_name(precision).c_str(),
                       error_limit_text(precision).c_str());
          return 1;
        }
    }
    std::printf("all %s-precision results agree with %s (relative L2 error <= %s)\n", precision_name(precision),
                reference_name(precision).c_str(), error_limit_text(precision).c_str());
  }
  return 0;
}

}  // namespace

void add_bench_commands(CLI::App& app, std::vector<std::pair<CLI::App*, Action>>& actions) {
  for (const char* name : {"bench", "demo"}) {
    const bool demo = std::string(name) == "demo";
    auto o = std::make_shared<BenchOptions>();
    CLI::App* command = app.add_subcommand(
        name, demo ? "transform generated data, check it against FFTW and time bfly beside its peers"
                   : "time transforms beside FFTW, clFFT, VkFFT and cuFFT on the same data and device");
    if (!demo)
      command->footer(
          "Shapes as --shape 4096,1000x1000,64x64x64; --kind r2c or c2r for real transforms, with "
          "bfly's complex transform of the same shape beside; --kind dct1..dct4 or dst1..dst4 (with --inverse: "
          "scipy's idctn / idstn, unscaled) for a DCT or DST, with bfly's r2c of the same shape beside. Peers without "
          "the transform read n/a (cuFFT and clFFT have no DCT or DST, VkFFT no DST). Over MPI ranks: mpirun -np P "
          "bfly bench --distributed [--decomposition slabs|pencils] [--grid P0xP1] [--transport auto|mpi|nccl] "
          "SHAPE... times bfly::distributed plans (docs/DISTRIBUTED.md, Benchmark).");
    o->device.add_to(*command);
    command->add_flag("--quiet", o->quiet, "no progress display");
    command->add_option("--out", o->out, "also write results to FILE.csv or FILE.json");
    command->add_flag("--no-peers", o->no_peers, "time bfly alone");
    if (!demo) {
      o->problem.add_to(*command, false);
      command->add_option("--suite", o->suite_name,
                          "named case list: pocl, gpu, smooth (30 smooth lengths in no other suite and no tuning "
                          "table), large (20 lengths from 2^15 to 2^26 in no other suite), tune (the tuned lengths), "
                          "demo (1D), 2d, 3d, prime (Bluestein lengths beside "
                          "powers of two, 1D), prime-extra (15 primes and awkward lengths in no other suite), prime-nd "
                          "(prime axes in 2D and 3D), real (real-transform sizes, 1D "
                          "to 3D, even and odd; r2c unless --kind says otherwise), random (40 cases drawn from "
                          "--seed: smooth 1D lengths to 2^24, 2D and 3D shapes, primes, odd real lengths)");
      command->add_option("--seed", o->seed,
                          "--suite random: the seed its cases are drawn from (default: a fresh one, printed)");
      command->add_flag("--list", o->list, "print the cases (shape, batch, kind) and stop");
      command->add_option("--points", o->points,
                          "points per case when the batch is not given (default 2^22; at least one array)");
      command->add_option("--repetitions,--reps", o->settings.repetitions,
                          "timed repetitions per case (median reported; default 7, with --distributed 20)");
      command->add_option("shapes", o->shapes, "shapes to time, as --shape's (64x64x64 or 64,1000x1000)");
      command->add_flag(
          "--distributed", o->distributed,
          "time bfly::distributed plans over the MPI ranks (mpirun -np P bfly bench --distributed "
          "SHAPE...; docs/DISTRIBUTED.md): execution, local, exchange and bound times, and a round "
          "trip's error; with --kind c2c or r2c, --precision, --norm, --inverse, --device, --out FILE.json");
      DistributedBenchOptions& d = o->distributed_only;
      command->add_option("--decomposition", d.decomposition,
                          "--distributed: slabs (default), pencils (3D), slabs-transposed-in, pencils-transposed-in or "
                          "auto (slabs where every rank holds planes, else pencils)");
      command->add_option("--grid", d.grid, "--distributed pencils: the process grid P0xP1 (default: most square)");
      command->add_option("--transport", d.transport, "--distributed: auto (default; NCCL on CUDA), mpi or nccl");
      command->add_option("--exchange", d.exchange,
                          "--distributed, MPI transport: alltoallv (default), alltoall (padded), p2p, or auto (the "
                          "plan times the three and keeps the fastest)");
      command->add_option("--warmup", d.warmup, "--distributed: untimed executions per shape (default 3)");
      command->add_option("--pipeline", d.pipeline,
                          "--distributed: the first stage in this many chunks, each one's exchange overlapping the "
                          "next one's compute (NCCL; default 0: 4 chunks; 1: none)");
      command->add_option("--devices", d.devices,
                          "--distributed in one process, no mpirun: part r on the r-th device of LIST ('all': every "
                          "CUDA GPU, NCCL between them; or specs with commas, e.g. cuda:0,cuda:1 or cpu,cpu)");
      command->add_flag("--verbose", d.verbose, "--distributed: each rank's device, and rank 0's plans");
      command->add_option("--json", d.json,
                          "--distributed: rank 0 writes the rows to FILE as JSON (or --out FILE.json)");
      command->add_option("--app", o->app,
                          "time an application instead of transforms: convolve (2D image of --shape, default "
                          "4096x4096, with square kernels of --kernel-sizes, default 3,15,63,255, mode same, beside a "
                          "direct convolution on the device) or bigmul (products of --digits decimal digits, default "
                          "1e4,1e5,1e6,1e7, beside GMP's mpz_mul)");
      command->add_option("--kernel-sizes", o->kernel_sizes, "--app convolve: kernel widths, e.g. 3,15,63,255");
      command->add_option("--product", o->product,
                          "--app convolve: where the spectra's product runs: auto (default), loads (the inverse's "
                          "first), stores (the forward's last) or pass (one of its own), to measure the difference");
      command->add_option("--digits", o->digits,
                          "--app bigmul: decimal digits of each factor, e.g. 1e4,1e5,1e6,1e7,1e8");
      command->add_flag("--cold", o->cold,
                        "start from empty caches (bfly's kernel cache, NVRTC's CUDA compute cache, PoCL's), so plan "
                        "times include compilation");
      command->add_option("--tuning", o->tuning,
                          "the tuning table bfly plans with: device (the device's, default), off (the planner's "
                          "model alone) or FILE (a table bfly tune wrote)");
      command->add_option("--tier", o->tier,
                          "the kernels bfly's plans run: specialised (default), generic, tiered (generic until the "
                          "specialised plan is made: with --cold, first ms is a new size's first answer), auto, "
                          "at-hand or default (BFLY_LIMITS's generic key)");
    } else {
      command->add_option("--precision", o->problem.precision,
                          "single or double; half or bfloat16: 16-bit buffers, fp32 compute, beside the fp32 case");
    }
    if (!demo) {
      command->add_option("--window", o->window,
                          "bfly's plans multiply their input by this window as they load it (hann, hamming, "
                          "blackman, kaiser:BETA; a load callback: docs/CALLBACKS.md); the peers run the bare "
                          "transform");
      command->add_option("--load", o->settings.load, "bfly's load callback ops, e.g. hann,scale:0.5 (after --window)");
      command->add_option("--store", o->settings.store,
                          "bfly's store callback ops, e.g. db, power, magnitude, scale:2 (docs/CALLBACKS.md)");
    }
    actions.emplace_back(command, [o, demo, command] {
      if (o->distributed) return run_distributed(distributed_options(*o, *command));
      if (const std::string error = usage_error(*command, false); !error.empty())
        throw Error(ErrorCode::InvalidArgument, error);
      for (const std::string& shape : o->shapes) o->problem.shape += (o->problem.shape.empty() ? "" : ",") + shape;
      return run(*o, demo);
    });
  }
}

}  // namespace bfly::cli
