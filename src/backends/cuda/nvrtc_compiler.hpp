// NVRTC front end: compiles CUDA C++ source to a cubin for one architecture
// and reports each __global__ kernel's resource usage as ptxas computed it.
//
// libnvrtc is loaded at run time with dlopen, so a binary using this runs on
// machines without CUDA (Nvrtc::available() then says why it cannot). No CUDA
// header is needed to build this; link with -ldl.
#pragma once

#include <memory>
#include <string>
#include <vector>

namespace bfly {
namespace cuda {

// Resources of one __global__ kernel, as ptxas allocated them.
struct KernelResources {
  std::string name;             // symbol name: mangled unless extern "C"
  int registers = 0;            // registers per thread
  int spill_store_bytes = 0;    // bytes of spill stores per thread
  int spill_load_bytes = 0;     // bytes of spill loads per thread
  int stack_bytes = 0;          // local memory per thread: stack frame, or the
                                // cumulative stack size when calls add to it
  int static_shared_bytes = 0;  // __shared__ declared in the source, per block
  int max_threads = 0;          // x*y*z of __launch_bounds__/maxntid, else 0
};

struct CompileResult {
  std::vector<char> cubin;               // ELF for the requested sm_XX
  std::string log;                       // NVRTC log (ptxas info lines included)
  std::vector<KernelResources> kernels;  // every __global__ kernel, by name
  int nvrtc_major = 0, nvrtc_minor = 0;
};

class Nvrtc {
 public:
  // The process-wide instance. Loads libnvrtc on first use: $BFLY_NVRTC_LIBRARY
  // when set, then libnvrtc.so, libnvrtc.so.13, libnvrtc.so.12 from the
  // loader's search path, then the same names under $CUDA_HOME/lib64,
  // $CUDA_PATH/lib64 and /usr/local/cuda/lib64. Throws
  // bfly::Error(ErrorCode::Device, ...) naming what was tried when it is absent.
  // Thread-safe; compile() may be called from several threads at once.
  static Nvrtc& instance();
  // Whether instance() would succeed; never throws. On false, *why (if given)
  // receives the reason.
  static bool available(std::string* why = nullptr);

  std::string version() const;  // "13.0"
  int major() const { return major_; }
  int minor() const { return minor_; }
  const std::string& library_path() const { return path_; }

  // Compiles `source` for `arch` ("sm_90", "sm_90a", "sm_100f", ...).
  // `-arch=<arch>` and `-Xptxas=-v` are added to extra_options. Throws
  // bfly::Error(ErrorCode::InvalidArgument) for a malformed arch,
  // bfly::Error(ErrorCode::Build, program_name + ": " + log) when NVRTC
  // rejects the source or an option, bfly::Error(ErrorCode::Device) when an
  // NVRTC call fails otherwise.
  CompileResult compile(const std::string& source, const std::string& program_name, const std::string& arch,
                        const std::vector<std::string>& extra_options = {}) const;

  Nvrtc(const Nvrtc&) = delete;
  Nvrtc& operator=(const Nvrtc&) = delete;
  ~Nvrtc();

  struct Api;  // dlopen'ed entry points (defined in the .cpp)

 private:
  friend struct NvrtcLoader;
  Nvrtc(std::unique_ptr<Api> api, std::string path);
  std::unique_ptr<Api> api_;
  std::string path_;
  int major_ = 0, minor_ = 0;
};

// The two independent readings of a compile's resources, exposed for tests
// and tools. compile() merges them: the ptxas report gives every field; the
// cubin gives the authoritative list of kernels, max_threads, and registers and
// stack if a future ptxas stops printing them.

// Parses the "ptxas info : ..." lines of an NVRTC or nvcc -Xptxas -v log.
// Entry functions only (device functions compiled separately are skipped).
std::vector<KernelResources> parse_ptxas_log(const std::string& log);

// Reads a cubin ELF: kernel symbols (STO_CUDA_ENTRY), EIATTR_REGCOUNT,
// EIATTR_FRAME_SIZE / EIATTR_MAX_STACK_SIZE, EIATTR_MAX_THREADS or
// EIATTR_REQNTID, and the .nv.shared.<kernel> section size (which on sm_90
// and later also counts the 1 KiB the system reserves, so ptxas' figure is
// preferred). Spills are not recorded in the ELF and stay 0. Returns an empty
// vector when the bytes are not a 64-bit little-endian ELF.
std::vector<KernelResources> parse_cubin_resources(const std::vector<char>& cubin);

}  // namespace cuda
}  // namespace bfly
