// A stage that writes the next exchange's send buffer itself, so the
// exchange packs nothing (issue 43, "fused pack and unpack").
//
// Where it applies: a 3D C2C stage, or an R2C first stage, whose exchange cuts the box along
// one axis s into equal blocks, one a peer in order, each sent in its
// receiver's storage order (exchange.hpp); block p of the send buffer at p
// x (the block's points), which is the pack's layout. Two forms:
//
//  - The stage transforms s alone (pencils' first two stages: axis 2,
//    then axis 1, each the axis the next exchange splits): the stage's own
//    plan (its input as the exchange before stored it) with its output
//    split into the blocks (Layout::split, pieces/split_store.cpp), its
//    input to `send`.
//    Where the planner cannot split (the axis in several passes, Rader's or
//    Bluestein's kernels) the stage packs as before.
//  - The first stage transforms {s, 2} and every receiver stores axis 2
//    last (slabs and their way back): two bfly plans instead of the one (which
//    took two passes anyway), the last of them over axis 2, the contiguous
//    one, s a batch axis there:
//      split  axis s of the box, its input to `tmp` (row-major)
//      last   axis 2 of `tmp` seen as (peer, the box's other axes with s's
//             block, axis 2): each row lands in its peer's block of `send`
//    A stage the planner makes in one pass (a plane in one kernel) stays
//    as it is: splitting it would add a pass where the pack is one.
//  - R2C slabs (the first stage {s, 2}, the real axis 2): the real axis
//    into `tmp` (the half spectrum, row-major), then axis s as the first
//    form's one plan, into the blocks: two passes where the stage and the
//    pack took three, and the half spectrum is what travels.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bfly/bfly.hpp"
#include "bfly/distributed.hpp"
#include "distributed/exchange.hpp"
#include "distributed/transport.hpp"

namespace bfly::distributed::detail {

class FusedStage {
 public:
  // For a rank's stage (its `box`, kind and axes as the schedule has
  // them): `whole`, the stage's plan as one, and `exchange`, the rank's
  // side of the exchange after it. None where it does not apply.
  static std::optional<FusedStage> make(const Device& device, const Problem& problem, const Box& box, Kind kind,
                                        const std::vector<int>& axes, const bfly::Plan& whole, const Exchange& exchange,
                                        const PlanOptions& options);

  // Enqueues the stage on `stream` (nullptr: the device's queue): `in` (the
  // stage's input) to `tmp` (at least the box's points; the two plans'
  // form only) to `send` (at least send_elements()).
  void run(const Buffer& in, const Buffer& tmp, const Buffer& send, void* stream) const;
  // What the exchange sends, by peer: every block in `send`.
  std::vector<Run> sends(Buffer& send) const;
  std::int64_t send_elements() const { return block_ * peers_; }
  // Its form, for describe(): ", as ..." (the plans and where they store).
  std::string form() const;

 private:
  FusedStage(std::optional<bfly::Plan> split, bfly::Plan last, std::int64_t block, int peers)
      : split_(std::move(split)), last_(std::move(last)), block_(block), peers_(peers) {}
  std::optional<bfly::Plan> split_;  // the two plans' first (into `tmp`); none: one plan
  bfly::Plan last_;
  std::int64_t block_ = 0;  // points a peer
  int peers_ = 0;
};

}  // namespace bfly::distributed::detail
