// A first stage that writes the exchange's send buffer itself, so the
// exchange packs nothing (issue 43, "fused pack and unpack").
//
// Where it applies: a 3D C2C first stage over two axes, {s, 2}, whose
// exchange splits axis s into equal blocks, one a peer, and stores every
// receiver's box with axis 2 last (slabs and their way back). The stage
// then runs as two bfly plans instead of one (which took two passes
// anyway), the last of them over axis 2, the contiguous one:
//
//   split  axis s of the box, its input to `tmp` (row-major)
//   last   axis 2 of `tmp` seen as (peer, the box's other axes with s's
//          block, axis 2): each row lands in its peer's block of `send`,
//          in the receiver's storage order (exchange.hpp)
//
// which is the pack's layout: block p at p x (the block's points). A stage
// the planner makes in one pass (a plane in one kernel) stays as it is:
// splitting it would add a pass where the pack is one.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "bfly/bfly.hpp"
#include "bfly/distributed.hpp"
#include "distributed/exchange.hpp"
#include "distributed/transport.hpp"

namespace bfly::distributed::detail {

class FusedFirstStage {
 public:
  // For a rank's first stage: `whole`, the plan of the stage as one
  // (kind, axes and box as the schedule has them), and `exchange`, the
  // rank's side of the first exchange. None where it does not apply.
  static std::optional<FusedFirstStage> make(const Device& device, const Problem& problem, const Box& box, Kind kind,
                                             const std::vector<int>& axes, const bfly::Plan& whole,
                                             const Exchange& exchange, const PlanOptions& options);

  // Enqueues the stage on `stream` (nullptr: the device's queue): `in` (the
  // stage's input) to `tmp` (at least the box's points) to `send` (at
  // least send_elements()).
  void run(const Buffer& in, const Buffer& tmp, const Buffer& send, void* stream) const;
  // What the exchange sends, by peer: every block in `send`.
  std::vector<Run> sends(Buffer& send) const;
  std::int64_t send_elements() const { return block_ * peers_; }

 private:
  FusedFirstStage(bfly::Plan split, bfly::Plan last, std::int64_t block, int peers)
      : split_(std::move(split)), last_(std::move(last)), block_(block), peers_(peers) {}
  bfly::Plan split_, last_;
  std::int64_t block_ = 0;  // points a peer
  int peers_ = 0;
};

}  // namespace bfly::distributed::detail
