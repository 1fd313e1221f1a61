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
    Part sent{intersect(from_, to[peer])}, received{intersect(from[peer], to_)};
    check_count(sent.box.elements(), "block"), check_count(received.box.elements(), "block");
    sent_points_ += sent.box.elements(), received_points_ += received.box.elements();
    // Sent in place only where the receiver's order is the sender's.
    const auto send_run = identity ? contiguous_run(from_, sent.box) : std::nullopt;
    const auto receive_run = contiguous_run(permuted(to_, order_), permuted(received.box, order_));
    sent.in_place = send_run.has_value(), received.in_place = receive_run.has_value();
    sent.offset = send_run ? *send_run : send_elements_;
    received.offset = receive_run ? *receive_run : receive_elements_;
    if (!send_run) send_elements_ += sent.box.elements();
    if (!receive_run) receive_elements_ += received.box.elements();
    sends_.push_back(sent), receives_.push_back(received);
  }
  check_count(sent_points_, "send buffer"), check_count(received_points_, "receive buffer");
}

std::vector<Run> Exchange::pack(const DeviceCopy& copy, Buffer& source, Buffer& send, void* stream, bool bare) const {
  std::vector<Run> runs;
  for (const Part& sent : sends_) {
    runs.push_back({sent.in_place ? &source : &send, sent.offset, sent.box.elements()});
    if (!sent.in_place && !bare) copy.pack(source, from_, sent.box, send, sent.offset, order_, stream);
  }
  return runs;
}

std::vector<Run> Exchange::receive_runs(Buffer& receive, Buffer& target) const {
  std::vector<Run> runs;
  for (const Part& received : receives_)
    runs.push_back({received.in_place ? &target : &receive, received.offset, received.box.elements()});
  return runs;
}

void Exchange::unpack(const DeviceCopy& copy, Buffer& receive, Buffer& target, void* stream) const {
  for (const Part& received : receives_)
    if (!received.in_place) copy.unpack(receive, received.offset, received.box, to_, target, order_, stream);
}

void Exchange::run(const Transport& transport, const DeviceCopy& copy, Buffer& source, Buffer& send, Buffer& receive,
                   Buffer& target, void* stream, bool bare) const {
  transport.exchange(pack(copy, source, send, stream, bare), receive_runs(receive, target), stream);
  if (!bare) unpack(copy, receive, target, stream);
}

}  // namespace bfly::distributed::detail
