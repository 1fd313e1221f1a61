// cuFFT with LTO callbacks on issue 42's windowed dB spectrum: the Hann
// window in the R2C's load callback, 10 log10 |X|^2 in its store callback
// (floats written over the first half of the complex output: cuFFT's
// output is complex), the callbacks compiled to LTO-IR by NVRTC (-dlto)
// and handed to cufftXtSetJITCallback (CUDA 13's signature, with the
// symbol's name). Beside it: cuFFT's plain R2C, and the window and the dB
// as kernels of their own around it. Checked against the plain path.
// bfly's figure comes from scripts/gpu/spectrum-peers.py in the same call.
//
//   nvcc -O2 -arch=sm_90 bench/experiments/cufft_lto_spectrum.cu -lcufft -lnvrtc -o /tmp/lto
//   /tmp/lto 1024x65536 4096x16384 16x4194304 16384x4096 65536x1024
#include <cuda_runtime.h>
#include <cufft.h>
#include <cufftXt.h>
#include <nvrtc.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CHECK(call)                                                                       \
  do {                                                                                    \
    const auto status = (call);                                                           \
    if (static_cast<int>(status) != 0) {                                                  \
      std::fprintf(stderr, "%s:%d: %s failed: %d\n", __FILE__, __LINE__, #call, (int)status); \
      std::exit(1);                                                                       \
    }                                                                                     \
  } while (0)

static const char* kCallbacks = R"(
__device__ float bfly_window(void* in, unsigned long long offset, void* info, void* shared) {
  return ((const float*)in)[offset] * ((const float*)info)[offset % LENGTH];
}
__device__ void bfly_db(void* out, unsigned long long offset, float2 v, void* info, void* shared) {
  ((float*)out)[offset] = 10.0f * log10f(v.x * v.x + v.y * v.y);
}
)";

static std::vector<char> lto_ir(long long n) {
  std::string source = kCallbacks;
  const std::string length = std::to_string(n) + "ull";
  source.replace(source.find("LENGTH"), 6, length);
  nvrtcProgram program;
  CHECK(nvrtcCreateProgram(&program, source.c_str(), "callbacks.cu", 0, nullptr, nullptr));
  const char* options[] = {"-dlto", "--relocatable-device-code=true", "-arch=sm_90"};
  if (nvrtcCompileProgram(program, 3, options) != NVRTC_SUCCESS) {
    size_t size = 0;
    nvrtcGetProgramLogSize(program, &size);
    std::string log(size, '\0');
    nvrtcGetProgramLog(program, log.data());
    std::fprintf(stderr, "%s\n", log.c_str());
    std::exit(1);
  }
  size_t size = 0;
  CHECK(nvrtcGetLTOIRSize(program, &size));
  std::vector<char> ir(size);
  CHECK(nvrtcGetLTOIR(program, ir.data()));
  nvrtcDestroyProgram(&program);
  return ir;
}

__global__ void fill(float* x, long long count, unsigned seed) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i >= count) return;
  unsigned h = (unsigned)i * 2654435761u ^ seed;
  h ^= h >> 15, h *= 2246822519u, h ^= h >> 13;
  x[i] = (h & 0xffffff) / 8388608.0f - 1.0f;
}

__global__ void windowed(float* y, const float* x, const float* w, long long count, long long n) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < count) y[i] = x[i] * w[i % n];
}

__global__ void decibel(float* y, const float2* z, long long count) {
  const long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
  if (i < count) y[i] = 10.0f * log10f(z[i].x * z[i].x + z[i].y * z[i].y);
}

template <class F>
static float median_ms(F run, int calls = 10, int repetitions = 7) {
  for (int i = 0; i < 3; ++i) run();
  cudaEvent_t start, stop;
  cudaEventCreate(&start), cudaEventCreate(&stop);
  std::vector<float> times;
  for (int r = 0; r < repetitions; ++r) {
    cudaEventRecord(start);
    for (int c = 0; c < calls; ++c) run();
    cudaEventRecord(stop);
    cudaEventSynchronize(stop);
    float ms = 0;
    cudaEventElapsedTime(&ms, start, stop);
    times.push_back(ms / calls);
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

int main(int argc, char** argv) {
  int version = 0;
  cufftGetVersion(&version);
  std::printf("cuFFT %d: windowed dB spectrum (Hann load, 10 log10 |X|^2 store), float32\n", version);
  std::printf("%12s %10s %12s %14s %10s\n", "shape", "plain ms", "3 kernels ms", "LTO ms", "LTO err");
  for (int a = 1; a < argc; ++a) {
    long long rows = 0, n = 0;
    std::sscanf(argv[a], "%lldx%lld", &rows, &n);
    const long long h = n / 2 + 1, count = rows * n, spectrum = rows * h;
    float *x, *y, *w, *db;
    float2* z;
    CHECK(cudaMalloc(&x, count * 4));
    CHECK(cudaMalloc(&y, count * 4));
    CHECK(cudaMalloc(&w, n * 4));
    CHECK(cudaMalloc(&z, spectrum * 8));
    CHECK(cudaMalloc(&db, spectrum * 4));
    std::vector<float> hann(n);
    for (long long i = 0; i < n; ++i) hann[i] = (float)(0.5 - 0.5 * std::cos(2 * M_PI * (double)i / (double)n));
    CHECK(cudaMemcpy(w, hann.data(), n * 4, cudaMemcpyHostToDevice));
    const int threads = 256;
    auto blocks = [&](long long c) { return (unsigned)((c + threads - 1) / threads); };
    fill<<<blocks(count), threads>>>(x, count, 12345u);
    int length = (int)n;
    cufftHandle plain;
    CHECK(cufftPlanMany(&plain, 1, &length, nullptr, 1, (int)n, nullptr, 1, (int)h, CUFFT_R2C, (int)rows));
    const float plain_ms = median_ms([&] { cufftExecR2C(plain, x, z); });
    const float three_ms = median_ms([&] {
      windowed<<<blocks(count), threads>>>(y, x, w, count, n);
      cufftExecR2C(plain, y, z);
      decibel<<<blocks(spectrum), threads>>>(db, z, spectrum);
    });
    std::vector<float> want(spectrum), got(spectrum);
    CHECK(cudaMemcpy(want.data(), db, spectrum * 4, cudaMemcpyDeviceToHost));
    // The LTO plan.
    cufftHandle lto;
    CHECK(cufftCreate(&lto));
    const std::vector<char> ir = lto_ir(n);
    void* info[1] = {w};
    const cufftResult load = cufftXtSetJITCallback(lto, "bfly_window", ir.data(), ir.size(), CUFFT_CB_LD_REAL, info);
    const cufftResult store = cufftXtSetJITCallback(lto, "bfly_db", ir.data(), ir.size(), CUFFT_CB_ST_COMPLEX, nullptr);
    size_t work = 0;
    const cufftResult made = load || store ? load ? load : store
                                           : cufftMakePlanMany(lto, 1, &length, nullptr, 1, (int)n, nullptr, 1,
                                                               (int)h, CUFFT_R2C, (int)rows, &work);
    if (made != CUFFT_SUCCESS) {
      std::printf("%12s %10.3f %12.3f %14s %10s  (cuFFT LTO: error %d)\n", argv[a], plain_ms, three_ms, "-", "-",
                  (int)made);
    } else {
      const float lto_ms = median_ms([&] { cufftExecR2C(lto, x, z); });
      CHECK(cudaMemcpy(got.data(), z, spectrum * 4, cudaMemcpyDeviceToHost));
      double err = 0, ref = 0;
      for (long long i = 0; i < spectrum; ++i) {
        const double p = std::pow(10.0, got[i] / 10), q = std::pow(10.0, want[i] / 10);
        err += (p - q) * (p - q), ref += q * q;
      }
      std::printf("%12s %10.3f %12.3f %14.3f %10.1e\n", argv[a], plain_ms, three_ms, lto_ms, std::sqrt(err / ref));
    }
    cufftDestroy(lto), cufftDestroy(plain);
    cudaFree(x), cudaFree(y), cudaFree(w), cudaFree(z), cudaFree(db);
  }
  return 0;
}
