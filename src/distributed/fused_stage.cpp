// The first stage writing the send buffer (fused_stage.hpp).
#include "distributed/fused_stage.hpp"

#include <utility>

#include "distributed/boxes.hpp"
#include "distributed/schedule.hpp"

namespace bfly::distributed::detail {
namespace {

// The axis the exchange's parts cut `box` along, in equal blocks, one a
// peer in peer order, and the block's length; {-1, 0} where they do not.
std::pair<int, std::int64_t> cut_axis(const Box& box, const std::vector<Part>& parts) {
  const int peers = static_cast<int>(parts.size());
  const std::vector<std::int64_t> extent = box.shape();
  for (int s = 0; s < static_cast<int>(extent.size()) && peers >= 2; ++s) {
    if (extent[s] % peers != 0) continue;
    const std::int64_t L = extent[s] / peers;
    bool blocks = true;
    for (int p = 0; p < peers && blocks; ++p) {
      Box block = box;
      block.lower[s] = box.lower[s] + p * L, block.upper[s] = block.lower[s] + L;
      blocks = parts[p].box == block;
    }
    if (blocks) return {s, L};
  }
  return {-1, 0};
}

}  // namespace

std::optional<FusedStage> FusedStage::make(const Device& device, const Problem& problem, const Box& box, Kind kind,
                                           const std::vector<int>& axes, const bfly::Plan& whole,
                                           const Exchange& exchange, const PlanOptions& options) {
  if (box.lower.size() != 3 || box.empty() || kind == Kind::C2R) return std::nullopt;
  const bool real = kind == Kind::R2C;  // (its real axis last and whole: the schedule's)
  // The box the exchange cuts: an R2C's half spectrum along axis 2.
  Box cut = box;
  if (real) cut.upper[2] = cut.lower[2] + box.shape()[2] / 2 + 1;
  const std::vector<Part>& parts = exchange.sends();
  const auto [s, L] = cut_axis(cut, parts);
  if (s < 0) return std::nullopt;
  const int peers = static_cast<int>(parts.size());
  // A block in its receiver's storage order (`order`, outermost first).
  const std::vector<int>& order = exchange.order();
  const std::vector<std::int64_t> extent = cut.shape();
  std::vector<std::int64_t> part_extent = extent;
  part_extent[s] = L;
  std::vector<std::int64_t> part_strides(3);
  std::int64_t step = 1;
  for (int k = 2; k >= 0; --k) {
    const int a = order.size() == 3 ? order[k] : k;
    part_strides[a] = step, step *= part_extent[a];
  }
  const std::int64_t block = step;

  auto split_plan = [&](bfly::Problem one) -> std::optional<bfly::Plan> {
    one.output.strides = part_strides;
    one.output.split = Split{s, L, block};
    try {
      return bfly::Plan(device, one, options);
    } catch (const Error& e) {
      if (e.code() != ErrorCode::Unsupported) throw;
      return std::nullopt;  // (the planner cannot split this axis: the stage packs)
    }
  };
  if (real) {
    // R2C slabs: the real axis into `tmp` (the half spectrum, row-major),
    // then axis s split into the blocks: two passes where the stage and
    // the pack took three.
    if (axes.size() != 2 || axes[0] != s || axes[1] != 2 || s == 2) return std::nullopt;
    std::optional<bfly::Plan> last = split_plan(stage_problem(problem, cut, Kind::C2C, {s}));
    if (!last) return std::nullopt;
    return FusedStage(bfly::Plan(device, stage_problem(problem, box, Kind::R2C, {2}), options), std::move(*last), block,
                      peers);
  }
  if (axes.size() == 1 && axes[0] == s) {
    // One plan, the stage's own (its input as the exchange before left
    // it), its output split into the peers' blocks.
    std::optional<bfly::Plan> one = split_plan(whole.problem());
    if (!one) return std::nullopt;
    return FusedStage(std::nullopt, std::move(*one), block, peers);
  }
  // Two plans: every receiver stores its box with axis 2 last, so the
  // part's rows are runs of axis 2 there too.
  if (axes.size() != 2 || axes[0] != s || axes[1] != 2 || order.size() != 3 || order[2] != 2 || whole.passes() < 2 ||
      !whole.problem().input.is_default())
    return std::nullopt;
  // The last plan's 4D view: (peer, axis 0, axis 1, axis 2), axis s
  // counting within the peer's block. In `tmp`, row-major over the box;
  // in `send`, block p at p x block, each block in `order`.
  const std::vector<std::int64_t> box_strides{extent[1] * extent[2], extent[2], 1};
  bfly::Problem split = stage_problem(problem, box, Kind::C2C, {s});
  bfly::Problem last = stage_problem(problem, box, Kind::C2C, {3});
  last.shape = {peers, part_extent[0], part_extent[1], part_extent[2]};
  last.input.strides = {L * box_strides[s], box_strides[0], box_strides[1], 1};
  last.output.strides = {block, part_strides[0], part_strides[1], 1};
  return FusedStage(bfly::Plan(device, split, options), bfly::Plan(device, last, options), block, peers);
}

void FusedStage::run(const Buffer& in, const Buffer& tmp, const Buffer& send, void* stream) const {
  const Buffer& source = split_ ? tmp : in;
  if (stream) {
    if (split_) split_->execute(in, tmp, stream);
    last_.execute(source, send, stream);
  } else {
    if (split_) split_->execute(in, tmp);
    last_.execute(source, send);
  }
}

std::vector<Run> FusedStage::sends(Buffer& send) const {
  std::vector<Run> runs;
  for (int p = 0; p < peers_; ++p) runs.push_back({&send, p * block_, block_});
  return runs;
}

std::string FusedStage::form() const {
  return !split_ ? ", as one plan storing the split axis in the peers' blocks of the send buffer"
         : split_->problem().kind == Kind::R2C ? ", as two plans: the real axis, then the exchange's split axis into "
                                                 "the send buffer's blocks"
                                               : ", as two plans: the exchange's split axis, then the last axis into "
                                                 "the send buffer";
}

}  // namespace bfly::distributed::detail
