#include "plan/composite_radices.hpp"

#include <algorithm>
#include <tuple>

#include "plan/factorize.hpp"

namespace bfly::plan {

namespace {

// Depth-first over radices in non-increasing order: every factorisation of
// n into at most `stages` factors from `radices`, keeping the best by
// (stages, widest, -smallest).
void search(std::int64_t n, const std::vector<int>& radices, std::size_t from, int stages, std::vector<int>& path,
            std::vector<int>& best) {
  if (n == 1) {
    auto key = [](const std::vector<int>& r) {
      return std::make_tuple(r.size(), *std::max_element(r.begin(), r.end()), -*std::min_element(r.begin(), r.end()));
    };
    if (!path.empty() && (best.empty() || key(path) < key(best))) best = path;
    return;
  }
  if (static_cast<int>(path.size()) >= stages) return;
  for (std::size_t i = from; i < radices.size(); ++i) {
    if (n % radices[i] != 0) continue;
    path.push_back(radices[i]);
    search(n / radices[i], radices, i, stages, path, best);
    path.pop_back();
  }
}

}  // namespace

std::vector<int> fewer_stage_radices(std::int64_t n, const std::vector<int>& model) {
  if (model.size() < 2) return {};
  // The model's radices and the composite ones, largest first (once).
  static const std::vector<int> radices = [] {
    std::vector<int> r = available_radices();
    r.insert(r.end(), composite_radices().begin(), composite_radices().end());
    std::sort(r.begin(), r.end(), std::greater<int>());
    r.erase(std::unique(r.begin(), r.end()), r.end());
    return r;
  }();
  std::vector<int> path, best;
  search(n, radices, 0, static_cast<int>(model.size()) - 1, path, best);
  return best;  // largest first, as choose_radices
}

// One-pass rows whose factors past 16 cost a stage: 4536 = 2^3 3^4 7 takes
// four (9 x 9 x 8 x 7, three exchanges through local memory) where 18 x 18
// x 14 takes three. Nsight Compute, H200, fp32, 2^26 points: cuFFT ran
// 4536 as 252 threads of 18 points (70 registers, 3 groups) in 316 us,
// bfly's 504 threads of 9 (60 registers, 2 groups) in 488 us, the copy in
// 249 (docs/PERF.md, issue 39, fourteenth step). A thread then holds a
// composite butterfly of up to 28 points. Only contiguous rows of one pass
// (a real row's packed half too; no convolution, chirp or Rader), and only
// in fp32: NVRTC, sm_90, fp64 5040 = 20 x 18 x 14 took 242 registers at one
// group, 8232 = 28 x 21 x 14 spilled 148 bytes, 4536 104 (fp32: 56-80
// registers below 6000 points, no spill but 5103's 16 bytes and 8232's
// 44). On for GPUs (device_limits.cpp gpu_limits: 0.84x the time over 18
// C2C lengths on the H200).
//
// Only from four stages of the model's on: every length timed went from
// four or five stages to three; 600 = 10 x 10 x 6 as 25 x 24 (two stages,
// 24 threads of 48 points, 157 registers where the model's 60 threads of
// 12 take 50; NVRTC, sm_90) ran at 0.76x VkFFT in seed 11271415.
void apply_composite_radices(KernelSpec& spec, const DeviceLimits& limits) {
  if (!limits.composite_radices || spec.radices.size() < 4 || spec.precision == Precision::Double ||
      spec.stride_product != 1 || spec.mapping != Mapping::TransformMajor || spec.clustered() || spec.plane() ||
      spec.convolve || spec.bluestein() || spec.rader() || spec.identity)
    return;
  const std::vector<int> fewer = fewer_stage_radices(spec.length, spec.radices);
  if (!fewer.empty()) spec.radices = fewer;
}

}  // namespace bfly::plan
