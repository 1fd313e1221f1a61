// The exchange between two local stages: every rank sends each rank of its
// group the part of its box that rank's next box covers. On the device:
// the parts are packed into runs of a send buffer (device_copy.hpp), the
// transport moves the runs (transport.hpp), and the received runs are
// unpacked into the next box. A part that is already one contiguous run of
// its box (slabs' receive side: whole planes of axis 0) is sent from, or
// received into, its box in place, with no copy.
#pragma once

#include <cstdint>
#include <vector>

#include "bfly/distributed.hpp"
#include "distributed/device_copy.hpp"
#include "distributed/transport.hpp"

namespace bfly::distributed::detail {

// A peer's part of an exchange on this rank: the box it covers and where its
// run lies: in place in this rank's box (at `offset` of its storage order)
// or in the send / receive buffer (at `offset`).
struct Part {
  Box box;
  std::int64_t offset = 0;
  bool in_place = false;
};

class Exchange {
 public:
  // `from` and `to`: every group member's box before and after (each
  // tiling the group's part of the array); `rank` this one's index in the
  // group. Throws Error(Unsupported) where a block passes MPI's int counts
  // (2^31 - 1 points).
  // `order`: how this rank's `to` box is stored (boxes.hpp; the group's
  // gathered axis first makes each received part one run, received in
  // place); each part is sent in the receiver's order. Empty: the identity.
  Exchange(const std::vector<Box>& from, const std::vector<Box>& to, int rank, std::vector<int> order = {});
  const std::vector<int>& order() const { return order_; }
  // By peer (place in the group): what this rank sends and receives.
  const std::vector<Part>& sends() const { return sends_; }
  const std::vector<Part>& receives() const { return receives_; }

  // Points of the send and receive buffers (the parts not sent or received in place).
  std::int64_t send_elements() const { return send_elements_; }
  std::int64_t receive_elements() const { return receive_elements_; }
  // Every point that leaves or arrives, in place or not.
  std::int64_t sent_points() const { return sent_points_; }
  std::int64_t received_points() const { return received_points_; }

  // Collective over the group: from `source` (this rank's `from` box) to
  // `target` (its `to` box) through `send` and `receive`, ordered on
  // `stream`. With `bare`, only the transport (the same runs, no packs):
  // a benchmark's bound.
  void run(const Transport& transport, const DeviceCopy& copy, Buffer& source, Buffer& send, Buffer& receive,
           Buffer& target, void* stream, bool bare = false) const;

  // run()'s steps, for a caller that moves the runs itself (one process
  // driving every device of the group: multi_device.cpp). pack: enqueues
  // the packs of the parts not sent in place (none with `bare`) and returns
  // the runs to send, by peer; receive_runs: the runs each peer's part
  // lands in; unpack: enqueues the unpacks of the parts not received in place.
  std::vector<Run> pack(const DeviceCopy& copy, Buffer& source, Buffer& send, void* stream, bool bare = false) const;
  std::vector<Run> receive_runs(Buffer& receive, Buffer& target) const;
  void unpack(const DeviceCopy& copy, Buffer& receive, Buffer& target, void* stream) const;

 private:
  Box from_, to_;
  std::vector<int> order_;
  std::vector<Part> sends_, receives_;  // by peer
  std::int64_t send_elements_ = 0, receive_elements_ = 0, sent_points_ = 0, received_points_ = 0;
};

}  // namespace bfly::distributed::detail
