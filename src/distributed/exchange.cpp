// The exchange on the device (exchange.hpp).
//
// Each part travels in its receiver's storage order (the group's gathered
// axis first), so every received part is one run of the next box and is
// received in place: the exchanges unpack nothing, and only the pack copies.
//
// Still to fuse (issue 43, "Fused pack and unpack"): the pack kernels below
// would become the store of the first stage's last pass (each output point
// written straight to its peer's run of the send buffer), so the exchange costs the wire and no extra trip over memory.
#include "distributed/exchange.hpp"

#include <climits>
#include <string>

#include "distributed/boxes.hpp"

namespace bfly::distributed::detail {

namespace {

void check_count(std::int64_t n, const char* what) {
  if (n > INT_MAX)
    throw Error(ErrorCode::Unsupported, std::string("bfly::distributed: the exchange's ") + what + " of " +
                                            std::to_string(n) + " points passes MPI's int counts (2^31 - 1)");
}

}  // namespace

Exchange::Exchange(const std::vector<Box>& from, const std::vector<Box>& to, int rank, std::vector<int> order)
    : from_(from[rank]), to_(to[rank]), order_(order.empty() ? identity_order(from_.lower.size()) : std::move(order)) {
  const bool identity = order_ == identity_order(order_.size());
  for (std::size_t peer = 0; peer < from.size(); ++peer) {
    send_parts_.push_back(intersect(from_, to[peer]));
    receive_parts_.push_back(intersect(from[peer], to_));
    const Box &sent = send_parts_.back(), &received = receive_parts_.back();
    check_count(sent.elements(), "block"), check_count(received.elements(), "block");
    sent_points_ += sent.elements(), received_points_ += received.elements();
    // Sent in place only where the receiver's order is the sender's.
    const auto send_run = identity ? contiguous_run(from_, sent) : std::nullopt;
    const auto receive_run = contiguous_run(permuted(to_, order_), permuted(received, order_));
    send_in_place_.push_back(send_run ? *send_run : -1);
    receive_in_place_.push_back(receive_run ? *receive_run : -1);
    send_offsets_.push_back(send_elements_), receive_offsets_.push_back(receive_elements_);
    if (!send_run) send_elements_ += sent.elements();
    if (!receive_run) receive_elements_ += received.elements();
  }
  check_count(sent_points_, "send buffer"), check_count(received_points_, "receive buffer");
}

void Exchange::run(const Transport& transport, const DeviceCopy& copy, Buffer& source, Buffer& send, Buffer& receive,
                   Buffer& target, void* stream, bool bare) const {
  const std::size_t peers = send_parts_.size();
  std::vector<Run> sends(peers), receives(peers);
  for (std::size_t p = 0; p < peers; ++p) {
    if (send_in_place_[p] >= 0) {
      sends[p] = {&source, send_in_place_[p], send_parts_[p].elements()};
    } else {
      sends[p] = {&send, send_offsets_[p], send_parts_[p].elements()};
      if (!bare) copy.pack(source, from_, send_parts_[p], send, send_offsets_[p], order_, stream);
    }
    receives[p] = receive_in_place_[p] >= 0 ? Run{&target, receive_in_place_[p], receive_parts_[p].elements()}
                                            : Run{&receive, receive_offsets_[p], receive_parts_[p].elements()};
  }
  transport.exchange(sends, receives, stream);
  if (bare) return;
  for (std::size_t p = 0; p < peers; ++p)
    if (receive_in_place_[p] < 0)
      copy.unpack(receive, receive_offsets_[p], receive_parts_[p], to_, target, order_, stream);
}

}  // namespace bfly::distributed::detail
