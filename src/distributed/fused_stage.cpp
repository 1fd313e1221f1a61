// The first stage writing the send buffer (fused_stage.hpp).
#include "distributed/fused_stage.hpp"

#include "distributed/boxes.hpp"
#include "distributed/schedule.hpp"

namespace bfly::distributed::detail {

std::optional<FusedFirstStage> FusedFirstStage::make(const Device& device, const Problem& problem, const Box& box,
                                                     Kind kind, const std::vector<int>& axes, const bfly::Plan& whole,
                                                     const Exchange& exchange, const PlanOptions& options) {
  if (box.lower.size() != 3 || box.empty() || kind != Kind::C2C || axes.size() != 2 || axes[1] != 2 ||
      whole.passes() < 2)
    return std::nullopt;
  const int s = axes[0];
  // Every receiver stores its box with axis 2 last (the gathered axis
  // first, then the other): the part's rows are runs of axis 2 there too.
  const std::vector<int>& order = exchange.order();
  if (order.size() != 3 || order[2] != 2) return std::nullopt;
  // The peers' parts: the box cut along s into equal blocks, in peer order.
  const std::vector<Part>& parts = exchange.sends();
  const std::vector<std::int64_t> extent = box.shape();
  const int peers = static_cast<int>(parts.size());
  if (peers < 2 || extent[s] % peers != 0) return std::nullopt;
  const std::int64_t L = extent[s] / peers;
  for (int p = 0; p < peers; ++p) {
    Box block = box;
    block.lower[s] = box.lower[s] + p * L, block.upper[s] = block.lower[s] + L;
    if (parts[p].box != block) return std::nullopt;
  }
  // The last plan's 4D view: (peer, axis 0, axis 1, axis 2), axis s
  // counting within the peer's block. In `tmp`, row-major over the box;
  // in `send`, block p at p x block, each block in `order`.
  std::vector<std::int64_t> part_extent = extent;
  part_extent[s] = L;
  const std::vector<std::int64_t> box_strides{extent[1] * extent[2], extent[2], 1};
  std::vector<std::int64_t> part_strides(3);
  std::int64_t step = 1;
  for (int k = 2; k >= 0; --k) part_strides[order[k]] = step, step *= part_extent[order[k]];
  const std::int64_t block = step;

  bfly::Problem split = stage_problem(problem, box, Kind::C2C, {s});
  bfly::Problem last = stage_problem(problem, box, Kind::C2C, {3});
  last.shape = {peers, part_extent[0], part_extent[1], part_extent[2]};
  last.input.strides = {L * box_strides[s], box_strides[0], box_strides[1], 1};
  last.output.strides = {block, part_strides[0], part_strides[1], 1};
  return FusedFirstStage(bfly::Plan(device, split, options), bfly::Plan(device, last, options), block, peers);
}

void FusedFirstStage::run(const Buffer& in, const Buffer& tmp, const Buffer& send, void* stream) const {
  if (stream) {
    split_.execute(in, tmp, stream);
    last_.execute(tmp, send, stream);
  } else {
    split_.execute(in, tmp);
    last_.execute(tmp, send);
  }
}

std::vector<Run> FusedFirstStage::sends(Buffer& send) const {
  std::vector<Run> runs;
  for (int p = 0; p < peers_; ++p) runs.push_back({&send, p * block_, block_});
  return runs;
}

}  // namespace bfly::distributed::detail
