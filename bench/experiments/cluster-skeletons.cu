// Data-movement skeletons of one-pass FFTs across a thread-block cluster
// (issue 14): each kernel moves a row of N = C x L points the way a design
// would (loads, cluster barriers, distributed-shared-memory exchanges,
// stores) with no arithmetic, so the fastest a design can be shows before it
// is written into the generator. Times are medians of 15, against a copy.
//
//   nvcc -O3 -arch=sm_90 -o /tmp/skel bench/experiments/cluster-skeletons.cu && /tmp/skel
//
// Designs (S = points in a 32-byte sector: 4 fp32, 2 fp64):
//   current      block k loads chunk k; barrier; each block reads point p of
//                every chunk and writes output j to block j (the C-point
//                DFTs); barrier; strided store (stride C): today's kernel
//   third        current, then a third exchange: barrier, transposed read
//                of the blocks' outputs, contiguous store; barrier
//   store-sector current with S x C-point DFTs, each block holding S
//                consecutive sub-chunks, so the stores fill whole sectors
//                (S lanes a sector)
//   load-sector  each block loads S consecutive points every S x C (whole
//                sectors); barrier; each block reads S x C points of one
//                output column across the blocks and stores them
//                contiguously (runs of L/S); barrier: one exchange, reads only
//   bare         block k loads chunk k; barrier; transposed read; contiguous
//                store; barrier (the issue's "bare cluster exchange")
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace cg = cooperative_groups;

#define CHECK(x)                                                                         \
  do {                                                                                   \
    cudaError_t err = (x);                                                               \
    if (err != cudaSuccess) {                                                            \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(err)); \
      std::exit(1);                                                                      \
    }                                                                                    \
  } while (0)

template <class P>
__device__ P mix(P a, P b) {  // keeps the values live without arithmetic worth timing
  P r;
  r.x = a.x;
  r.y = b.y;
  return r;
}

__global__ void copy_kernel(const float4* in, float4* out, size_t n) {
  for (size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x; i < n; i += (size_t)gridDim.x * blockDim.x) out[i] = in[i];
}

template <class P, int C, int T>
__global__ void __launch_bounds__(T) k_current(const P* in, P* out, int L, int third) {
  extern __shared__ __align__(16) unsigned char smem[];
  P* s = reinterpret_cast<P*>(smem);
  cg::cluster_group cl = cg::this_cluster();
  const int k = (int)cl.block_rank();
  const size_t row = blockIdx.x / C;
  const P* src = in + row * (size_t)C * L + (size_t)k * L;
  for (int i = threadIdx.x; i < L; i += T) s[i] = src[i];
  cl.sync();
  P* peer[C];
#pragma unroll
  for (int c = 0; c < C; ++c) peer[c] = cl.map_shared_rank(s, c);
  const int share = L / C;
  for (int i = threadIdx.x; i < share; i += T) {
    const int p = k * share + i;
    P y[C];
#pragma unroll
    for (int c = 0; c < C; ++c) y[c] = peer[c][p];
#pragma unroll
    for (int j = 0; j < C; ++j) peer[j][p] = mix(y[j], y[(j + 1) % C]);
  }
  cl.sync();
  P* dst = out + row * (size_t)C * L;
  if (!third) {
    for (int i = threadIdx.x; i < L; i += T) dst[k + (size_t)C * i] = s[i];
    return;
  }
  // Third exchange: block b stores outputs b*L .. b*L + L - 1, output q
  // being point q / C of block q % C.
  for (int i = threadIdx.x; i < L; i += T) dst[(size_t)k * L + i] = peer[i % C][(k * L + i) / C];
  cl.sync();
}

// S x C-point DFTs: block k's chunk is S sub-chunks of L / S (padded rows).
template <class P, int C, int T, int S>
__global__ void __launch_bounds__(T) k_store_sector(const P* in, P* out, int L) {
  extern __shared__ __align__(16) unsigned char smem[];
  P* s = reinterpret_cast<P*>(smem);
  cg::cluster_group cl = cg::this_cluster();
  const int k = (int)cl.block_rank();
  const int Ls = L / S, pitch = Ls + 4;
  const size_t row = blockIdx.x / C;
  const P* src = in + row * (size_t)C * L + (size_t)k * L;
  for (int i = threadIdx.x; i < L; i += T) s[(i / Ls) * pitch + i % Ls] = src[i];
  cl.sync();
  P* peer[C];
#pragma unroll
  for (int c = 0; c < C; ++c) peer[c] = cl.map_shared_rank(s, c);
  const int share = Ls / C;
  for (int i = threadIdx.x; i < share; i += T) {
    const int p = k * share + i;
    P y[C * S];
#pragma unroll
    for (int c = 0; c < C; ++c)
#pragma unroll
      for (int r = 0; r < S; ++r) y[c * S + r] = peer[c][r * pitch + p];
#pragma unroll
    for (int c = 0; c < C; ++c)
#pragma unroll
      for (int r = 0; r < S; ++r) peer[c][r * pitch + p] = mix(y[c * S + r], y[(c * S + r + 1) % (C * S)]);
  }
  cl.sync();
  // Output q = S k + m + S C qb from sub-chunk m, point qb: S lanes a sector.
  P* dst = out + row * (size_t)C * L;
  for (int i = threadIdx.x; i < L; i += T) {
    const int m = i % S, qb = i / S;
    dst[S * k + m + (size_t)S * C * qb] = s[m * pitch + qb];
  }
}

// Whole sectors in: block k loads points S (k + C j) + r, r < S; one
// exchange out: block b reads column qb of every block and stores runs.
template <class P, int C, int T, int S>
__global__ void __launch_bounds__(T) k_load_sector(const P* in, P* out, int L) {
  extern __shared__ __align__(16) unsigned char smem[];
  P* s = reinterpret_cast<P*>(smem);
  cg::cluster_group cl = cg::this_cluster();
  const int k = (int)cl.block_rank();
  const int Ls = L / S, pitch = Ls + 4;
  const size_t row = blockIdx.x / C;
  const P* src = in + row * (size_t)C * L;
  for (int i = threadIdx.x; i < L; i += T) {
    const int r = i % S, j = i / S;
    s[r * pitch + j] = src[S * (k + (size_t)C * j) + r];
  }
  cl.sync();
  P* peer[C];
#pragma unroll
  for (int c = 0; c < C; ++c) peer[c] = cl.map_shared_rank(s, c);
  P* dst = out + row * (size_t)C * L;
  const int share = Ls / C;
  for (int i = threadIdx.x; i < share; i += T) {
    const int qb = k * share + i;
    P y[C * S];
#pragma unroll
    for (int c = 0; c < C; ++c)
#pragma unroll
      for (int r = 0; r < S; ++r) y[c * S + r] = peer[c][r * pitch + qb];
#pragma unroll
    for (int a = 0; a < C * S; ++a) dst[qb + (size_t)Ls * a] = mix(y[a], y[(a + 1) % (C * S)]);
  }
  cl.sync();
}

template <class P, int C, int T>
__global__ void __launch_bounds__(T) k_bare(const P* in, P* out, int L) {
  extern __shared__ __align__(16) unsigned char smem[];
  P* s = reinterpret_cast<P*>(smem);
  cg::cluster_group cl = cg::this_cluster();
  const int k = (int)cl.block_rank();
  const size_t row = blockIdx.x / C;
  const P* src = in + row * (size_t)C * L + (size_t)k * L;
  for (int i = threadIdx.x; i < L; i += T) s[i] = src[i];
  cl.sync();
  P* peer[C];
#pragma unroll
  for (int c = 0; c < C; ++c) peer[c] = cl.map_shared_rank(s, c);
  P* dst = out + row * (size_t)C * L;
  for (int i = threadIdx.x; i < L; i += T) dst[(size_t)k * L + i] = peer[i % C][(k * L + i) / C];
  cl.sync();
}

template <class F>
float time_ms(F launch) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  launch();
  CHECK(cudaDeviceSynchronize());
  std::vector<float> t;
  for (int i = 0; i < 15; ++i) {
    CHECK(cudaEventRecord(a));
    launch();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float ms = 0;
    CHECK(cudaEventElapsedTime(&ms, a, b));
    t.push_back(ms);
  }
  CHECK(cudaGetLastError());
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

template <class K>
void launch_cluster(K kernel, int C, int T, size_t blocks, size_t smem, void** args) {
  CHECK(cudaFuncSetAttribute((const void*)kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
  cudaLaunchConfig_t cfg = {};
  cfg.gridDim = dim3((unsigned)blocks);
  cfg.blockDim = dim3(T);
  cfg.dynamicSmemBytes = smem;
  cudaLaunchAttribute attr[1];
  attr[0].id = cudaLaunchAttributeClusterDimension;
  attr[0].val.clusterDim.x = C;
  attr[0].val.clusterDim.y = 1;
  attr[0].val.clusterDim.z = 1;
  cfg.attrs = attr;
  cfg.numAttrs = 1;
  CHECK(cudaLaunchKernelExC(&cfg, (const void*)kernel, args));
}

template <class P, int C, int T>
void run_case(const char* prec, long N, size_t total_points, void* in, void* out, float copy_ms) {
  constexpr int S = 32 / sizeof(P);
  int L = (int)(N / C);
  size_t rows = total_points / N, blocks = rows * C;
  size_t smem_plain = (size_t)L * sizeof(P), smem_pad = (size_t)(L + 4 * S) * sizeof(P);
  const P* pin = (const P*)in;
  P* pout = (P*)out;
  int zero = 0, one = 1;
  struct Row {
    const char* name;
    float ms;
  };
  std::vector<Row> rows_out;
  {
    void* args[] = {&pin, &pout, &L, &zero};
    rows_out.push_back({"current", time_ms([&] { launch_cluster(k_current<P, C, T>, C, T, blocks, smem_plain, args); })});
  }
  {
    void* args[] = {&pin, &pout, &L, &one};
    rows_out.push_back({"third", time_ms([&] { launch_cluster(k_current<P, C, T>, C, T, blocks, smem_plain, args); })});
  }
  {
    void* args[] = {&pin, &pout, &L};
    rows_out.push_back({"store-sector", time_ms([&] { launch_cluster(k_store_sector<P, C, T, S>, C, T, blocks, smem_pad, args); })});
    rows_out.push_back({"load-sector", time_ms([&] { launch_cluster(k_load_sector<P, C, T, S>, C, T, blocks, smem_pad, args); })});
    rows_out.push_back({"bare", time_ms([&] { launch_cluster(k_bare<P, C, T>, C, T, blocks, smem_plain, args); })});
  }
  for (const Row& r : rows_out)
    std::printf("%-5s N=%-7ld C=%d L=%-6d T=%-4d %-13s %8.4f ms  %5.1f%% of copy  %6.0f GB/s\n", prec, N, C, L, T, r.name,
                r.ms, 100.0 * copy_ms / r.ms, 2.0 * total_points * sizeof(P) / (r.ms * 1e6));
  std::fflush(stdout);
}

int main() {
  const size_t bytes = size_t(1) << 29;  // 2^26 fp32 points, 2^25 fp64
  void *in, *out;
  CHECK(cudaMalloc(&in, bytes));
  CHECK(cudaMalloc(&out, bytes));
  CHECK(cudaMemset(in, 0, bytes));
  const size_t n4 = bytes / 16;
  const float copy_ms = time_ms([&] { copy_kernel<<<132 * 16, 512>>>((const float4*)in, (float4*)out, n4); });
  std::printf("copy %.4f ms, %.0f GB/s\n", copy_ms, 2.0 * bytes / (copy_ms * 1e6));
  const size_t p32 = bytes / 8, p64 = bytes / 16;
  run_case<float2, 4, 512>("fp32", 32768, p32, in, out, copy_ms);
  run_case<float2, 8, 256>("fp32", 32768, p32, in, out, copy_ms);
  run_case<float2, 8, 512>("fp32", 32768, p32, in, out, copy_ms);
  run_case<float2, 8, 256>("fp32", 65536, p32, in, out, copy_ms);
  run_case<float2, 8, 512>("fp32", 65536, p32, in, out, copy_ms);
  run_case<float2, 8, 1024>("fp32", 65536, p32, in, out, copy_ms);
  run_case<float2, 4, 512>("fp32", 65536, p32, in, out, copy_ms);
  run_case<float2, 8, 512>("fp32", 131072, p32, in, out, copy_ms);
  run_case<float2, 8, 1024>("fp32", 131072, p32, in, out, copy_ms);
  run_case<double2, 4, 512>("fp64", 16384, p64, in, out, copy_ms);
  run_case<double2, 8, 256>("fp64", 32768, p64, in, out, copy_ms);
  run_case<double2, 8, 512>("fp64", 32768, p64, in, out, copy_ms);
  run_case<double2, 8, 512>("fp64", 65536, p64, in, out, copy_ms);
  return 0;
}
