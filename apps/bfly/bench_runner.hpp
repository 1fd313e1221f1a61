// The benchmark: bfly and its peers timed in one process on the same data
// and the same device, each result checked against FFTW in a wider precision
// (double for fp32 cases, long double for fp64 ones where libfftw3l is found).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bfly/bfly.hpp"

namespace bfly::cli {

// One benchmark case: `batch` arrays of `shape` (row-major, one after
// another), transformed over `axes` (empty: every axis, the only kind the
// peers run). A real case (R2C, C2R) has `shape` the real array's, and halves
// the last of `axes` (the last axis when empty) on the complex side. A DCT or
// DST (R2R) has reals of `shape` on both sides.
struct BenchCase {
  std::vector<std::int64_t> shape{1};
  std::vector<int> axes;
  std::int64_t batch = 1;
  bool inverse = false;                     // true for C2R; scipy's idctn / idstn for R2R
  Precision precision = Precision::Single;  // complex64 (and float32) or complex128 (and float64) data
  // Half storage (16-bit data, fp32 compute): bfly's row runs it; its
  // yardstick and the peers run the fp32 case (native()) on the same values.
  Storage storage = Storage::Native;
  BenchCase native() const;
  Kind kind = Kind::C2C;
  Family family = Family::DCT;                     // R2R only
  int type = 2;                                    // R2R only: 1..4
  bool real() const { return kind != Kind::C2C; }  // real data on one side (R2C, C2R) or both (R2R)
  std::string kind_name() const;                   // "c2c", "r2c", "c2r", "dct2", "dst4", ...
  // The R2R type computed: of an inverse, 3 for type 2 and 2 for type 3
  // (scipy's idct, unscaled under Norm::None); types 1 and 4 are their own.
  int r2r_type() const { return inverse && (type == 2 || type == 3) ? 5 - type : type; }
  // The transform bfly times beside this one, of the same shape, axes and
  // batch, as the bar it is held to: for R2C and C2R the complex (C2C) one
  // of the same direction (issue 7: real within 0.6 of complex); for a DCT
  // or DST the R2C (issue 41: types I and IV within 1.2x of an R2C of the
  // same length); none for C2C; beside a half-storage case, its fp32 self
  // (issue 42: half storage moves half the bytes).
  std::optional<BenchCase> yardstick() const;
  std::int64_t array_points() const;  // product of shape
  std::size_t point_bytes() const;    // 8 (complex64) or 16 (complex128)
  // Bytes of all batch arrays of the input and of the output: reals on the
  // real side, complex points (n/2 + 1 along the real axis) on the other.
  std::size_t input_bytes() const;
  std::size_t output_bytes() const;
  std::int64_t length() const;   // points per transform: product of the transformed axes
  int transformed_axes() const;  // how many axes are transformed
  Problem problem() const;       // out of place, unnormalised
  std::string label() const;     // "1000x1000 b4", "64x64x64 ax0.1 b1 inv", "4096 b1024 r2c", "4096 b1024 dct2"
};

struct BenchSettings {
  int warmup = 2;
  int repetitions = 7;
  int buffers = 3;  // input/output pairs rotated so caches start cold-ish
  bool peers = true;
  bool check = true;  // compare every output with reference_name(precision)
  // The strategy of the bfly row. Under Auto, cases of two or more axes are
  // also timed with Strategy::Transpose, reported as the peer "bfly (transpose)".
  Strategy strategy = Strategy::Auto;
  // PlanOptions::tuning of every bfly plan: the device's table (empty),
  // "off" for the model alone, or a table's JSON text.
  std::string tuning;
  // PlanOptions::tier of every bfly plan: the specialised kernels, whose
  // speed a benchmark is after (tiered or generic to measure those).
  Tier tier = Tier::Specialised;
  // PlanOptions::load and store ops of the bfly row (`--window`, `--load`,
  // `--store`; issue 42): the peers run the bare transform, so the row
  // shows what fusing them costs. Its output is then not checked here
  // (tests/accuracy/test_callbacks.cpp checks the ops against FFTW).
  std::string load, store;
};

struct PeerResult {
  std::string name;
  std::string unsupported;  // non-empty: why the peer did not run this case
  double median_ms = 0;
  double plan_ms = 0;
  double error = -1;  // relative L2 vs reference_name(precision) (-1: not checked)
  int passes = 0;     // for bfly's own strategies: trips over device memory (0: unknown)
};

// The name of the peer entry timing bfly's explicit-transpose strategy.
extern const char* const kTransposePeer;

struct CaseResult {
  BenchCase bench_case;
  std::string unsupported;  // non-empty: bfly could not plan this case (why); its columns stay 0
  int passes = 0;
  double median_ms = 0;
  double min_ms = 0;
  double plan_ms = 0;  // first Plan construction in this process
  int kernels = 0;
  int cache_hits = 0;       // kernels of that first construction loaded from the disk cache or shipped in the library
  double warm_plan_ms = 0;  // the same Plan on a new device context: kernels from the disk cache
  double first_result_ms = 0;  // plan_ms plus the first execution and its wait: a new size's first answer
  double copy_ms = 0;          // a plain copy of copy_bytes on the same device
  double copy_bytes = 0;       // what the copy read (and wrote): the smaller of the input and the output
  // bfly's time for bench_case.yardstick() (C2C beside a real case, R2C
  // beside a DCT or DST), timed in the same run (0: none or not run; why in
  // yardstick_unsupported), and the ratio of this case's time to it.
  double yardstick_ms = 0;
  std::string yardstick_unsupported;
  double over_yardstick() const { return yardstick_ms > 0 && median_ms > 0 ? median_ms / yardstick_ms : 0; }
  // Fraction of the floor: passes x (one read + one write of the case's
  // bytes) at the copy's speed.
  double floor_fraction() const { return floor_fraction(passes, median_ms); }
  double floor_fraction(int trips, double ms) const {
    return copy_ms > 0 && ms > 0 ? trips * copy_ms * moved_bytes() / (2 * copy_bytes) / ms : 0;
  }
  double copy_gbytes() const { return copy_ms > 0 ? 2 * copy_bytes / (copy_ms * 1e6) : 0; }
  double error = -1;
  std::vector<PeerResult> peers;

  double points() const { return static_cast<double>(bench_case.array_points()) * bench_case.batch; }
  // Bytes read + written once: input_bytes() + output_bytes().
  double moved_bytes() const {
    return static_cast<double>(bench_case.input_bytes()) + static_cast<double>(bench_case.output_bytes());
  }
  double gflops(double ms) const;  // 5 N log2 N per complex transform of N points; half that per real or R2R one
  double gbytes(double ms) const;  // moved_bytes() per ms
};

// What results of `precision` are checked against, and the relative L2 error
// they must stay under (DESIGN.md "Accuracy": fp32 at the best peers' level,
// fp64 at about 1e-15).
std::string reference_name(Precision precision);  // "FFTW double", "FFTW long double"
const char* precision_name(Precision precision, Storage storage = Storage::Native);  // "single", "half", as --precision
double error_limit(Precision precision);                                             // 5e-7, 2e-15
std::string error_limit_text(Precision precision);                                   // "5e-7", "2e-15"

using Progress = std::function<void(std::size_t done, std::size_t total, const std::string& what)>;
using OnResult = std::function<void(const CaseResult& result)>;

// `notes` receives why peers expected on this device are missing.
std::vector<CaseResult> run_bench(const Device& device, const std::vector<BenchCase>& cases,
                                  const BenchSettings& settings, const Progress& progress, const OnResult& on_result,
                                  std::vector<std::string>* notes = nullptr);

// Named suites: "pocl" (the sizes of the core issue), "gpu" (the CUDA
// issue's), "demo" (a short tour), "2d" and "3d" (the multi-dimensional
// issue's), "prime" (Bluestein lengths beside fast ones, 2D and 3D included),
// "real" (the real-transform issue's 1D, 2D and 3D sizes, even and odd).
// Each case has `points` points, or one array where that is larger; cases
// are single-precision C2C unless set otherwise afterwards.
std::vector<BenchCase> suite(const std::string& name, std::int64_t points);

}  // namespace bfly::cli
