// The L2 experiment of issue 14, as a data-movement model: can a batched
// two-pass FFT keep its intermediate in L2 so that device memory sees less
// than two reads and two writes a point?
//
// Each transform of N = R x C points (fp32 complex, 8 bytes) is moved the way
// bfly's two passes move it, with no arithmetic: pass A reads 16 whole rows
// (contiguous) from `in` and writes them to the scratch buffer; pass B reads
// 16 columns (runs of 128 bytes, stride C) of the scratch buffer and writes
// them to `out` at the same places. A tile holds all its points in registers
// before it stores any, as an FFT must.
//
//   nvcc -O3 -arch=sm_90 -o /tmp/l2 bench/experiments/l2-chunks.cu && /tmp/l2 [--once]
//
// Designs:
//   two-launch   pass A over the whole batch, then pass B (today's plans)
//   ticket D     one kernel; blocks take work items in order from an atomic
//                ticket: A tiles of transform t + D beside B tiles of t, so
//                B reads what A wrote a few transforms earlier, while it is
//                still in L2. A B tile waits (spinning) for its transform's
//                A tiles to finish; it only waits on items with earlier
//                tickets, taken by blocks already running, so it cannot
//                deadlock whatever the grid.
//   +discard     B drops the scratch lines it has read from L2 with
//                discard.global.L2 (sm_90), so dirty scratch is never
//                written back to device memory: the floor is then one read
//                and one write a point, a single copy.
//   +hints       loads of `in` and stores of `out` marked evict-first, so
//                streaming data does not push the scratch out of L2.
// --once runs each design once (for ncu's DRAM byte counts).
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CHECK(x)                                                                                   \
  do {                                                                                             \
    cudaError_t err = (x);                                                                         \
    if (err != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(err));     \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

constexpr int kVec = 16;   // float4 loads a thread holds (2 points each)
constexpr int kTileCols = 16;  // 16 points x 8 bytes = one 128-byte line

struct Shape {
  int rows, cols;       // N = rows x cols
  long long batch;
  int items_per_pass;   // tiles of one transform in one pass (cols / 16)
};

__device__ __forceinline__ uint64_t policy_evict_first() {
  uint64_t p;
  asm volatile("createpolicy.fractional.L2::evict_first.b64 %0, 1.0;" : "=l"(p));
  return p;
}

__device__ __forceinline__ float4 load_hint(const float4* a, uint64_t pol) {
  float4 v;
  asm volatile("ld.global.L2::cache_hint.v4.f32 {%0,%1,%2,%3}, [%4], %5;"
               : "=f"(v.x), "=f"(v.y), "=f"(v.z), "=f"(v.w)
               : "l"(a), "l"(pol));
  return v;
}

__device__ __forceinline__ void store_hint(float4* a, float4 v, uint64_t pol) {
  asm volatile("st.global.L2::cache_hint.v4.f32 [%0], {%1,%2,%3,%4}, %5;" ::"l"(a), "f"(v.x), "f"(v.y),
               "f"(v.z), "f"(v.w), "l"(pol)
               : "memory");
}

__device__ __forceinline__ void discard_line(const void* a) {
  asm volatile("discard.L2 [%0], 128;" ::"l"(a) : "memory");  // generic address
}

// Pass A: tile `tile` of transform t = rows [16 tile, 16 tile + 16), contiguous.
template <bool Hints>
__device__ void pass_a(const float4* in, float4* scratch, const Shape& s, long long t, int tile) {
  const long long base = (t * s.rows * (long long)s.cols + (long long)tile * kTileCols * s.cols) / 2;
  float4 v[kVec];
  uint64_t pol = Hints ? policy_evict_first() : 0;
#pragma unroll
  for (int i = 0; i < kVec; ++i) {
    const float4* a = in + base + i * (long long)blockDim.x + threadIdx.x;
    v[i] = Hints ? load_hint(a, pol) : __ldcs(a);
  }
#pragma unroll
  for (int i = 0; i < kVec; ++i) scratch[base + i * (long long)blockDim.x + threadIdx.x] = v[i];
}

// Pass B: tile `tile` of transform t = columns [16 tile, 16 tile + 16), all
// rows: 8 threads a row (one 128-byte line), blockDim / 8 rows at a time.
template <bool Discard, bool Hints>
__device__ void pass_b(float4* scratch, float4* out, const Shape& s, long long t, int tile) {
  const long long tbase = t * s.rows * (long long)s.cols / 2;
  const int lane = threadIdx.x % 8, row0 = threadIdx.x / 8, rows_per = blockDim.x / 8;
  float4 v[kVec];
  // Float4 i of this thread: row0 + i rows_per, at + i step (kept as one base
  // and a stride so that the addresses cost two registers, not 2 kVec).
  const long long at = tbase + ((long long)row0 * s.cols + (long long)tile * kTileCols) / 2 + lane;
  const long long step = (long long)rows_per * s.cols / 2;
#pragma unroll
  for (int i = 0; i < kVec; ++i) v[i] = __ldcg(scratch + at + i * step);
  if (Discard) {
    __syncthreads();  // every thread's loads of these lines are done
    // The 8 threads of a row share its kVec lines. (ptxas 13.0 gave every
    // discard of an unrolled run the first one's address: kept as a loop.)
    const float4* line0 = scratch + at - lane;
#pragma unroll 1
    for (int i = lane; i < kVec; i += 8) discard_line(line0 + i * step);
  }
  uint64_t pol = Hints ? policy_evict_first() : 0;
#pragma unroll
  for (int i = 0; i < kVec; ++i) {
    if (Hints)
      store_hint(out + at + i * step, v[i], pol);
    else
      __stcs(out + at + i * step, v[i]);
  }
}

__global__ void __launch_bounds__(512) k_pass_a(const float4* in, float4* scratch, Shape s) {
  const long long item = blockIdx.x;
  pass_a<false>(in, scratch, s, item / s.items_per_pass, (int)(item % s.items_per_pass));
}
__global__ void __launch_bounds__(512) k_pass_b(float4* scratch, float4* out, Shape s) {
  const long long item = blockIdx.x;
  pass_b<false, false>(scratch, out, s, item / s.items_per_pass, (int)(item % s.items_per_pass));
}

// Work item order: round k holds A tiles of transform k (k < batch) and B
// tiles of transform k - D (k >= D), interleaved one for one.
__device__ void decode(long long ticket, const Shape& s, int D, bool* is_a, long long* t, int* tile) {
  const long long P = s.items_per_pass;
  const long long d = D < s.batch ? D : s.batch;
  const long long head = d * P;  // rounds with A only
  if (ticket < head) {
    *is_a = true, *t = ticket / P, *tile = (int)(ticket % P);
    return;
  }
  ticket -= head;
  const long long both = (s.batch - d) * 2 * P;  // rounds with A and B
  if (ticket < both) {
    const long long round = ticket / (2 * P), r = ticket % (2 * P);
    *is_a = (r % 2) == 0;
    *t = *is_a ? round + D : round;
    *tile = (int)(r / 2);
    return;
  }
  ticket -= both;
  *is_a = false, *t = s.batch - d + ticket / P, *tile = (int)(ticket % P);
}

template <bool Discard, bool Hints>
__global__ void __launch_bounds__(512) k_ticket(const float4* in, float4* scratch, float4* out, Shape s, int D,
                         unsigned long long* ticket_counter, int* done) {
  __shared__ long long ticket_s;
  const long long total = 2 * s.batch * s.items_per_pass;
  for (;;) {
    if (threadIdx.x == 0) ticket_s = (long long)atomicAdd(ticket_counter, 1ull);
    __syncthreads();
    const long long ticket = ticket_s;
    __syncthreads();
    if (ticket >= total) return;
    bool is_a;
    long long t;
    int tile;
    decode(ticket, s, D, &is_a, &t, &tile);
    if (is_a) {
      pass_a<Hints>(in, scratch, s, t, tile);
      __threadfence();
      __syncthreads();
      if (threadIdx.x == 0) atomicAdd(done + t, 1);
    } else {
      if (threadIdx.x == 0) {
        int seen;
        for (;;) {
          asm volatile("ld.acquire.gpu.global.s32 %0, [%1];" : "=r"(seen) : "l"(done + t) : "memory");
          if (seen >= s.items_per_pass) break;
          __nanosleep(64);
        }
      }
      __syncthreads();
      pass_b<Discard, Hints>(scratch, out, s, t, tile);
    }
  }
}

__global__ void k_copy(const float4* in, float4* out, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    __stcs(out + i, __ldcs(in + i));
}

template <class F>
static float median_ms(F&& f, int reps) {
  cudaEvent_t a, b;
  CHECK(cudaEventCreate(&a));
  CHECK(cudaEventCreate(&b));
  std::vector<float> ms;
  f();  // warm-up
  for (int r = 0; r < reps; ++r) {
    CHECK(cudaEventRecord(a));
    f();
    CHECK(cudaEventRecord(b));
    CHECK(cudaEventSynchronize(b));
    float x;
    CHECK(cudaEventElapsedTime(&x, a, b));
    ms.push_back(x);
  }
  CHECK(cudaGetLastError());
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

int main(int argc, char** argv) {
  const bool once = argc > 1 && std::strcmp(argv[1], "--once") == 0;
  const int reps = once ? 0 : 15;
  const long long points = 1ll << 26;  // 512 MB a buffer
  cudaDeviceProp prop;
  CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("# %s, %d SMs, L2 %d MB; %lld points (fp32 complex) a buffer, medians of %d\n", prop.name,
              prop.multiProcessorCount, prop.l2CacheSize >> 20, points, reps);
  float4 *in, *scratch, *out;
  CHECK(cudaMalloc(&in, points * 8));
  CHECK(cudaMalloc(&scratch, points * 8));
  CHECK(cudaMalloc(&out, points * 8));
  CHECK(cudaMemset(in, 0x3c, points * 8));
  unsigned long long* counter;
  int* done;
  CHECK(cudaMalloc(&counter, 8));
  CHECK(cudaMalloc(&done, sizeof(int) * (points / 1024 + 1)));

  auto run = [&](const char* name, auto&& f) {
    if (once) {
      f();
      CHECK(cudaDeviceSynchronize());
      std::printf("%s done\n", name);
      return 0.0f;
    }
    return median_ms(f, reps);
  };
  const long long n4 = points / 2;
  bool check = true;
  const float copy = run("copy", [&] { k_copy<<<prop.multiProcessorCount * 8, 512>>>(in, out, n4); });
  if (!once) std::printf("copy (1 read + 1 write a point): %.3f ms, %.0f GB/s\n", copy, 2.0 * points * 8 / copy / 1e6);

  const char* only_rows = std::getenv("L2_ROWS");      // run one shape only
  const char* only_variant = std::getenv("L2_VARIANT");  // 0..3: +discard = 1, +hints = 2
  for (int rows : {256, 512, 1024}) {
    if (only_rows && std::atoi(only_rows) != rows) continue;
    Shape s;
    s.rows = rows, s.cols = rows;
    const long long n = (long long)rows * rows;
    s.batch = points / n;
    s.items_per_pass = s.cols / kTileCols;
    // A tile is 16 x rows points = 8 x rows float4s, kVec a thread.
    const int threads = 8 * rows / kVec;
    const long long items = s.batch * s.items_per_pass;
    const double mb = n * 8.0 / (1 << 20);
    std::printf("\nN = %d x %d (%.0f MB a transform), batch %lld, %d threads a tile\n", rows, rows, mb, s.batch, threads);
    const float two = run("two-launch", [&] {
      k_pass_a<<<(unsigned)items, threads>>>(in, scratch, s);
      k_pass_b<<<(unsigned)items, threads>>>(scratch, out, s);
    });
    if (!once) std::printf("  %-28s %.3f ms  %.2fx copy\n", "two-launch", two, two / copy);
    int per_sm = 0;
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, k_ticket<true, true>, threads, 0));
    const int grid = per_sm * prop.multiProcessorCount;
    std::vector<int> lookaheads;  // in transforms, from about 4 to 40 MB of scratch
    for (int lookahead_mb : {4, 8, 16, 24, 32, 40}) {
      const int D = std::max(1, (int)(lookahead_mb / mb));
      if (std::find(lookaheads.begin(), lookaheads.end(), D) == lookaheads.end()) lookaheads.push_back(D);
    }
    for (int D : lookaheads) {
      for (int variant = 0; variant < 4; ++variant) {
        if (only_variant && std::atoi(only_variant) != variant) continue;
        const bool discard = variant & 1, hints = variant & 2;
        char name[96];
        std::snprintf(name, sizeof name, "ticket D=%d (%.0f MB)%s%s", D, D * mb, discard ? " +discard" : "",
                      hints ? " +hints" : "");
        auto launch = [&] {
          CHECK(cudaMemsetAsync(counter, 0, 8));
          CHECK(cudaMemsetAsync(done, 0, sizeof(int) * s.batch));
          if (discard && hints)
            k_ticket<true, true><<<grid, threads>>>(in, scratch, out, s, D, counter, done);
          else if (discard)
            k_ticket<true, false><<<grid, threads>>>(in, scratch, out, s, D, counter, done);
          else if (hints)
            k_ticket<false, true><<<grid, threads>>>(in, scratch, out, s, D, counter, done);
          else
            k_ticket<false, false><<<grid, threads>>>(in, scratch, out, s, D, counter, done);
        };
        const float ms = run(name, launch);
        // Every design must move every point: poison `out`, run once more, compare.
        if (once) continue;
        CHECK(cudaMemset(out, 0, points * 8));
        launch();
        CHECK(cudaDeviceSynchronize());
        std::vector<unsigned char> host(points * 8);
        CHECK(cudaMemcpy(host.data(), out, points * 8, cudaMemcpyDeviceToHost));
        if (std::count(host.begin(), host.end(), (unsigned char)0x3c) != (long long)host.size()) {
          std::printf("  %s: MISMATCH, points left unwritten\n", name);
          check = false;
        }
        if (!once) std::printf("  %-38s %.3f ms  %.2fx copy  (%d blocks of %d)\n", name, ms, ms / copy, grid, threads);
      }
    }
  }
  return check ? 0 : 1;
}
