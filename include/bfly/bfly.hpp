// bfly: Fast Fourier Transforms generated at run time for GPUs and CPUs.
//
// The whole public API: describe a transform (Problem), open a Device, build a
// Plan once and execute it many times on device Buffers.
//
//   bfly::Device device = bfly::Device::open("auto");
//   bfly::Problem problem = bfly::Problem::parse("c2c_f32_fwd_1024_b8_oop_none");
//   bfly::Plan plan(device, problem);
//   plan.execute_host(input, output);          // host memory convenience
//
// Conventions: forward X[k] = sum_n x[n] exp(-2 pi i n k / N), inverse uses +;
// unnormalised both ways unless Problem::norm says otherwise; interleaved
// complex data, row-major, shapes outermost first.
#pragma once

#include <complex>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace bfly {

enum class ErrorCode {
  InvalidArgument,  // a value the caller passed is out of range or malformed
  Unsupported,      // a valid request this version cannot do yet
  Device,           // the backend reported a failure
  Build,            // a generated kernel failed to compile (message has the log)
  OutOfMemory,      // device or host allocation failed
  Io,               // a file could not be read or written
};

const char* to_string(ErrorCode code);

// Every failure of a public call is reported as a bfly::Error whose message
// names the bad value.
class Error : public std::runtime_error {
 public:
  Error(ErrorCode code, const std::string& message) : std::runtime_error(message), code_(code) {}
  ErrorCode code() const { return code_; }

 private:
  ErrorCode code_;
};

// Complex to complex, or real data and the non-redundant half of its
// spectrum (FFTW's r2c / c2r, numpy.fft.rfftn / irfftn), or real to real:
// a DCT or DST (Problem::family, Problem::type; scipy.fft.dct / dst).
enum class Kind { C2C, R2C, C2R, R2R };
// The real-to-real transforms (Kind::R2R): scipy.fft's dct and dst.
enum class Family { DCT, DST };
enum class Precision { Single, Double };
// How the caller's buffers hold the values (issue 42): Native in the
// precision; Half (IEEE binary16) or BFloat16 (the top 16 bits of a
// binary32) with Precision::Single compute: converted in the first load and
// the last store, scaled in fp32 before that store. A complex point is two
// 16-bit values, real part first (torch's complex32); a value past the
// format's range is stored as Inf (fp16: |x| >= 65520).
enum class Storage { Native, Half, BFloat16 };
enum class Direction { Forward, Inverse };
enum class Placement { OutOfPlace, InPlace };
// Which direction carries the 1/N factor, as numpy.fft's `norm`.
enum class Norm { None, Backward, Ortho, Forward };

const char* to_string(Kind k);
const char* to_string(Precision p);
const char* to_string(Direction d);
const char* to_string(Placement p);
const char* to_string(Norm n);
const char* to_string(Storage s);          // "native", "f16", "bf16"
const char* to_string(Family f);           // "dct", "dst"
Norm parse_norm(const std::string& text);  // throws Error naming the text

// Where the elements of one side (input or output) of a problem live, in
// elements (cuFFT's advanced layout, FFTW's guru dims): element (i0, i1, ...)
// of batch entry b is at b * distance + sum_k i_k * strides[k]. Empty strides
// mean row-major contiguous; distance 0 means one array's extent.
//
// `split` (output only): one transformed axis stored in blocks, index k of
// it at (k / length) * stride + (k % length) * strides[axis] in place of
// k * strides[axis]: what a distributed FFT's first stage writes, each
// peer's block of the axis at its own place in the send buffer, so the
// exchange packs nothing (bfly/distributed.hpp). A C2C plan that does the
// axis in one plain pass stores so (`bfly plan` says why another cannot).
struct Split {
  int axis = -1;  // -1: none
  std::int64_t length = 0, stride = 0;
  bool none() const { return axis < 0; }
  bool operator==(const Split& o) const { return axis == o.axis && length == o.length && stride == o.stride; }
};

struct Layout {
  std::vector<std::int64_t> strides;
  std::int64_t distance = 0;
  Split split;
  bool is_default() const { return strides.empty() && distance == 0 && split.none(); }
  bool operator==(const Layout& o) const { return strides == o.strides && distance == o.distance && split == o.split; }
  bool operator!=(const Layout& o) const { return !(*this == o); }
};

// One transform, as a value: the transform of `axes` of an array of `shape`
// (its other axes, and `batch` copies of the array, are independent
// transforms). The canonical text token (print with token(), read with
// parse()) names every field, e.g. "c2c_f32_fwd_1024_b8_oop_none":
//   kind(c2c|r2c|c2r) _ precision(f32|f64, or f16|bf16: Storage) _ direction(fwd|inv) _ shape(AxB..)
//   _ b<batch> _ placement(oop|ip) _ norm(none|backward|ortho|forward)
// then, only where they differ from the defaults: _ax<a.b> (axes),
// _is<s.s..> _id<d> (input strides and distance), _os<..> _od<d> (output),
// _sp<axis.length.stride> (the output's split).
//
// Real transforms (R2C forward, C2R inverse), as FFTW and cuFFT define them:
// `shape` is the real array's shape; the complex side holds the
// non-redundant half of the spectrum, n/2 + 1 points along the real axis
// (the last of `axes` as given, as numpy.fft.rfftn; the array's last axis
// when `axes` is empty). Ask input_shape() / output_shape() rather than
// computing it. Layout strides count elements of their own side: reals on
// the real side, complex points on the other. In place, the layouts must be
// the defaults: the complex side contiguous, the real side the same memory
// with each row of the (innermost) real axis padded to 2 * (n/2 + 1) reals.
// C2R reads its input only: it leaves the input buffer as it was.
//
// DCT and DST (Kind::R2R, scipy.fft's definitions): the token's kind is the
// family and type, "dct2_f64_fwd_100_b1_oop_ortho", with "_orth" where
// `orthogonalize` is set. Reals in, reals out, the same shape. The inverse
// direction is scipy's idct / idst: of type 2 it computes type 3 and of
// type 3 type 2; types 1 and 4 are their own inverses. Each transformed axis
// is transformed in turn (dctn). The norm's length is the product over the
// axes of 2 (n - 1) for DCT-I, 2 (n + 1) for DST-I and 2 n otherwise;
// Norm::None leaves both directions unscaled (scipy's default, "backward",
// scales the inverse). DCT-I needs n >= 2 on every axis.
struct Problem {
  Kind kind = Kind::C2C;
  std::vector<std::int64_t> shape{1};  // array shape, outermost first (rank 1..4); the real shape for R2C / C2R
  std::vector<int> axes;               // axes to transform (1..3 of them); empty: all; negative counts from the end
  std::int64_t batch = 1;
  Layout input, output;  // in place: output must be default or equal input
  Precision precision = Precision::Single;
  Storage storage = Storage::Native;  // Half / BFloat16: 16-bit buffers, Single compute
  Direction direction = Direction::Forward;
  Placement placement = Placement::OutOfPlace;
  Norm norm = Norm::None;
  // Kind::R2R only: which transform (type 1..4), and scipy's
  // `orthogonalize` (the first and last elements' sqrt(2) factors that make
  // the ortho-normalised matrix orthogonal; its default is norm == Ortho).
  Family family = Family::DCT;
  int type = 2;
  bool orthogonalize = false;

  std::string token() const;
  static Problem parse(const std::string& token);  // throws Error

  // Throws Error(InvalidArgument) naming the bad field.
  void validate() const;
  int rank() const { return static_cast<int>(shape.size()); }
  // The transformed axes, ascending, negatives resolved (validate() first).
  std::vector<int> transform_axes() const;
  std::int64_t length() const;        // points per transform (product of the transformed lengths)
  std::int64_t elements() const;      // points of all arrays: product of shape * batch
  std::size_t element_bytes() const;  // of a complex point in the buffers: 8 (f32), 16 (f64), 4 (f16, bf16)
  std::size_t bytes() const;          // elements() * element_bytes(): the contiguous complex size
  // Real transforms (R2C, C2R): whether this is one, and the axis whose
  // length the complex side halves (-1 for C2C and R2R; validate() first).
  bool is_real() const { return kind == Kind::R2C || kind == Kind::C2R; }
  int real_axis() const;
  // The complex side's shape: `shape` with the real axis n/2 + 1.
  std::vector<std::int64_t> complex_shape() const;
  // The shapes of the input and output arrays (each times batch), and the
  // bytes of one of their elements (4 or 8 for a real one).
  std::vector<std::int64_t> input_shape() const;
  std::vector<std::int64_t> output_shape() const;
  std::size_t input_element_bytes() const;
  std::size_t output_element_bytes() const;
  // Resolved layouts (defaults filled in) and the elements a buffer must hold
  // for them: the largest offset + 1.
  Layout input_layout() const;
  Layout output_layout() const;
  std::int64_t input_extent() const;
  std::int64_t output_extent() const;
  // The factor applied to the output of this problem's direction under norm.
  double scale() const;

  bool operator==(const Problem& other) const;
  bool operator!=(const Problem& other) const { return !(*this == other); }
};

// How to decompose a problem, where there is a choice. Auto: the planner's
// choice (strided passes, one or more per axis). Transpose: the row-column
// scheme of the seeds, every axis transformed as contiguous rows between
// explicit tiled transposes (a baseline to compare with).
enum class Strategy { Auto, Transpose };
const char* to_string(Strategy s);
Strategy parse_strategy(const std::string& text);  // throws Error naming the text

// Which kernels a plan runs (issue 40). Specialised: kernels made for the
// problem, compiled the first time a device meets its size (0.2-2 s a
// kernel on a GPU, seconds on PoCL), then cached on disk. Generic: the
// generic tier's fixed kernels, which take the length as an argument, so a
// new size compiles nothing (made once per device); correct at every size,
// slower. Tiered: the generic plan at once, the specialised one made on a
// thread meanwhile and run by every execution after it is made (a tiered
// plan's destructor waits for that thread, whose kernels then sit in the
// disk cache for the next process). Auto: Specialised where every kernel is
// at hand (made in this process, shipped in the library or in the disk
// cache), else Tiered: a new size answers at once, a size met before runs
// its own kernels. AtHand: Specialised where every kernel is at hand, else
// Generic; never compiles, never waits (one-shot processes: the CLI's
// transforms). Default: the limits override's `generic` key (0 Specialised,
// 1 Generic, 2 Tiered, 3 Auto, 4 AtHand: BFLY_LIMITS=generic=0), else Auto.
enum class Tier { Default, Specialised, Generic, Tiered, Auto, AtHand };
const char* to_string(Tier t);             // default, specialised, generic, tiered, auto, at-hand
Tier parse_tier(const std::string& text);  // throws Error naming the text

// What a device is, as listed by `bfly info`.
struct DeviceInfo {
  std::string spec;     // how to open it again: "opencl:0:0", "cuda:0"
  std::string backend;  // "opencl", "cuda"
  std::string name;
  std::string vendor;
  std::string driver;  // driver / runtime version string
  bool is_gpu = false;
  bool is_cpu = false;
  std::size_t compute_units = 0;
  std::size_t global_memory_bytes = 0;
  std::size_t max_allocation_bytes = 0;  // the largest one buffer may be (OpenCL's limit; CUDA: the memory)
  std::size_t local_memory_bytes = 0;
  std::size_t max_group_size = 0;
  std::string compute_capability;  // "9.0" on a CUDA device; empty elsewhere
};

// A backend that was looked for and why it offers no device.
struct BackendStatus {
  std::string backend;
  std::size_t devices = 0;
  std::string reason;  // empty when devices > 0
};

namespace detail {
class DeviceImpl;
class BufferImpl;
class PlanImpl;
}  // namespace detail

class Device {
 public:
  // spec: "auto" (a CUDA GPU if any, else an OpenCL GPU, else the OpenCL
  // CPU device), "cuda:N", "cpu", "gpu", "opencl:P:D" (platform P, device D).
  // Empty means the environment variable BFLY_DEVICE, else "auto".
  static Device open(const std::string& spec = "");
  static std::vector<DeviceInfo> list();
  static std::vector<BackendStatus> backends();

  const DeviceInfo& info() const;
  void synchronize() const;  // waits for everything enqueued on this device
  // Waits for a stream or queue the caller owns: a CUstream (nullptr is
  // CUDA's legacy default stream), a cl_command_queue (nullptr: the device's).
  void synchronize(void* stream) const;

  std::shared_ptr<detail::DeviceImpl> impl() const { return impl_; }
  explicit Device(std::shared_ptr<detail::DeviceImpl> impl);
  // In a process forked after the device was opened, the device cannot be
  // used (calls throw an Error that says so) and is never released.
  ~Device();
  Device(const Device&) = default;
  Device(Device&&) noexcept = default;
  Device& operator=(const Device&) = default;
  Device& operator=(Device&&) noexcept = default;

 private:
  std::shared_ptr<detail::DeviceImpl> impl_;
};

// Device memory. Copies are blocking.
class Buffer {
 public:
  Buffer(const Device& device, std::size_t bytes);
  // Memory the caller owns on a CUDA device (a CUdeviceptr or the pointer
  // cudaMalloc returned, as an integer); bfly never frees it.
  static Buffer wrap(const Device& device, std::uintptr_t device_pointer, std::size_t bytes);
  // The device address of a CUDA buffer (throws for other backends).
  std::uintptr_t device_pointer() const;
  std::size_t bytes() const;
  void write(const void* host, std::size_t bytes, std::size_t offset = 0);
  void read(void* host, std::size_t bytes, std::size_t offset = 0) const;

  detail::BufferImpl& impl() const { return *impl_; }
  Buffer(std::shared_ptr<detail::BufferImpl> impl, std::shared_ptr<detail::DeviceImpl> device)
      : impl_(std::move(impl)), device_(std::move(device)) {}
  ~Buffer();  // (never released in a process forked after it was made: see Device)
  Buffer(const Buffer&) = default;
  Buffer(Buffer&&) noexcept = default;
  Buffer& operator=(const Buffer&) = default;
  Buffer& operator=(Buffer&&) noexcept = default;
  const std::shared_ptr<detail::DeviceImpl>& device() const { return device_; }

 private:
  std::shared_ptr<detail::BufferImpl> impl_;
  std::shared_ptr<detail::DeviceImpl> device_;
};

// Code fused into a plan's first loads (PlanOptions::load) or last stores
// (PlanOptions::store), issue 42: each element of the caller's input is
// read as f(value, offset), each of the output stored as g(value, offset),
// offset the element's index in its buffer (the layout's offset), without a
// pass of its own where the plan's first (last) pass can take it, else in
// a kernel of its own over the elements the layout reaches. `ops` is a
// comma-separated chain, applied in turn (docs/CALLBACKS.md):
//   scale:S                    times S
//   hann hamming blackman      times the periodic window (scipy.signal's
//   kaiser:BETA                  get_window) along each transformed axis
//   window                     times `values`: each transformed axis's
//                                window in turn (sum of the lengths)
//   mask                       times values[offset] (`values` as long as the
//                                side's extent) or data's reals
//   code                       the body `code`, written once for OpenCL C and
//                                CUDA: it sees v (cpx or real: .x, .y),
//                                o (the offset), data and cdata (the reals
//                                and the complex points of `data`) and
//                                returns the new v (cmul, cmake, sqrt, ...)
//   magnitude power db         (stores, last) |X|, |X|^2, 10 log10 |X|^2: the
//                                output holds reals, of the output's layout
// Hann, Hamming, Blackman, Kaiser: scipy.signal.get_window's (periodic).
// At most one op a side reads values or data. A bad op, value or code is
// refused by name when the plan is made; code that does not compile, with
// the compiler's message and its line in the code.
struct Callback {
  std::string ops;
  std::string code;
  std::vector<double> values;
  std::shared_ptr<Buffer> data;
  bool empty() const { return ops.empty(); }
};

struct PlanOptions {
  Strategy strategy = Strategy::Auto;
  // The tuning table (`bfly tune`) this plan takes its launch choices from:
  // empty for the device's (the one shipped for it, the user's under the
  // cache directory, $BFLY_TUNING), "off" for the planner's model alone, or
  // a table's JSON text.
  std::string tuning;
  // An override of the planner's limits, "key=value,..." (for example
  // "max_pass_length=16" for several passes where one would do, or
  // "columns=8,strided_occ=2"): to measure alternatives, or to force a
  // plan's shape in a test. Empty: $BFLY_LIMITS, else none. The keys are
  // listed in docs/ARCHITECTURE.md ("The limits override"); a bad one is
  // refused by name when the plan is made.
  std::string limits;
  // Told why a plan waits: called with a one-line message when making its
  // kernels has taken a second (a size new to this device and to the
  // kernel cache compiles: 0.2-2 s a kernel on a GPU, seconds on PoCL),
  // and again when they are made. It runs on a thread of its own while
  // the constructor waits; exceptions it throws are ignored. Empty: silent.
  // (The CLI prints these on stderr; Python logs them.)
  std::function<void(const std::string&)> on_wait;
  // Which kernels run (Tier above; last, so aggregate initialisers of the
  // fields before it keep their meaning).
  Tier tier = Tier::Default;
  // User code or built-ins fused into the first loads and the last stores
  // (Callback below; empty: none).
  Callback load, store;
};

// Time spent building a plan, for `bfly bench` and bug reports.
struct BuildStats {
  double plan_ms = 0;     // factorisation and decomposition
  double codegen_ms = 0;  // generating kernel source
  double compile_ms = 0;  // compiling or loading kernels
  double twiddle_ms = 0;  // computing and uploading twiddle tables
  int kernels = 0;
  int built = 0;       // kernels this plan generated and compiled or loaded (the rest were shared in memory)
  int cache_hits = 0;  // kernels loaded from the on-disk binary cache
  int shipped = 0;     // kernels loaded from those compiled into the library (the generic tier's, on CUDA)
};

class Plan {
 public:
  // Plans, generates and compiles everything the problem needs. Throws Error.
  Plan(const Device& device, const Problem& problem, const PlanOptions& options = {});
  ~Plan();
  Plan(Plan&&) noexcept;
  Plan& operator=(Plan&&) noexcept;

  const Problem& problem() const;
  std::string describe() const;  // the printed plan tree
  // Device memory the plan holds for intermediate results (0 for most
  // one-pass plans) on ONE queue or stream: a plan executed on several
  // holds this much for each (made on its first execution there and kept
  // while the plan lives), so executions on different streams never share
  // it.
  std::size_t workspace_bytes() const;
  const BuildStats& build_stats() const;
  int passes() const;  // trips over device memory
  // The bytes of an output element: problem().output_element_bytes(), or a
  // real's where the store callback ends in magnitude, power or db.
  std::size_t output_element_bytes() const;
  // Replaces the callbacks (PlanOptions::load, store; empty ones: none):
  // the plan is made again with them, its other options as they were
  // (kernels made before come from memory or the disk cache). Not while
  // the plan executes. Throws Error as the constructor does, and then
  // leaves the plan as it was.
  void set_callbacks(const Callback& load, const Callback& store);

  // A built plan may be executed from many threads at once, on one queue or
  // on several (each an in-order queue or a stream); executions on one queue
  // run one after the other, as if from one thread.
  //
  // Enqueues the transform; returns without waiting. `in` and `out` must hold
  // problem().input_extent() / output_extent() elements (of
  // input_element_bytes() / output_element_bytes() each); for an in-place
  // problem pass the same buffer twice.
  void execute(const Buffer& in, const Buffer& out) const;
  // The same on a stream or queue the caller owns: a cudaStream_t / CUstream
  // on a CUDA device, a cl_command_queue on an OpenCL one. Stream-ordered:
  // nothing waits for the work to finish.
  void execute(const Buffer& in, const Buffer& out, void* stream) const;

  // Copies host data in, transforms, copies the result out (blocking).
  // Element type must match the precision (complex<float> for Single,
  // complex<double> for Double); `in`
  // holds input_extent() elements, `out` output_extent(). Elements of `out`
  // that the output layout skips keep their values.
  void execute_host(const std::complex<float>* in, std::complex<float>* out) const;
  void execute_host(const std::complex<double>* in, std::complex<double>* out) const;
  // The same for real transforms: R2C reads reals, C2R writes them.
  void execute_host(const float* in, std::complex<float>* out) const;
  void execute_host(const double* in, std::complex<double>* out) const;
  void execute_host(const std::complex<float>* in, float* out) const;
  void execute_host(const std::complex<double>* in, double* out) const;
  // The DCT and DST (Kind::R2R): reals both sides.
  void execute_host(const float* in, float* out) const;
  void execute_host(const double* in, double* out) const;
  // Half storage (Problem::storage): 16-bit values both sides, two a complex
  // point (to_storage / from_storage convert).
  void execute_host(const std::uint16_t* in, std::uint16_t* out) const;

 private:
  std::unique_ptr<detail::PlanImpl> impl_;
  PlanOptions options_;  // as made (set_callbacks makes it again)
};

// A value in half storage's bits and back, as the kernels convert: round to
// nearest even, Inf past the range, NaN kept NaN, fp16 subnormals exact.
std::uint16_t to_storage(float value, Storage storage);
float from_storage(std::uint16_t bits, Storage storage);

// Library version, also part of the kernel cache key.
const char* version();

// The smallest length >= target that bfly transforms fastest: a product of
// 2, 3, 5 and 7, whose every factor is a butterfly of its own (no Rader, no
// Bluestein); with `real`, an even one (a real transform of even length is a
// complex one of half the length), but 1 for 1. 0 for 0, as scipy's
// next_fast_len. Throws Error(InvalidArgument) naming a negative target or
// one past 2^58.
std::int64_t next_fast_length(std::int64_t target, bool real = false);

}  // namespace bfly
