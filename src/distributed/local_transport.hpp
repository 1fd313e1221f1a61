// How an exchange's runs travel between the devices of one process
// (MultiDevicePlan, multi_device.cpp): every member's runs at once, where
// transport.hpp's Transport is one rank's side of a collective.
//
//   HostCopies  waits for each device, reads each run to host memory and
//               writes it to its receiver's run: any devices, even one
//               device standing for several parts (the tests on PoCL).
//   NcclLocal   grouped ncclSend / ncclRecv over an NcclClique (one
//               communicator a GPU, ncclCommInitAll), each member's on its
//               device's stream.
#pragma once

#include <complex>
#include <vector>

#include "distributed/nccl.hpp"
#include "distributed/transport.hpp"

namespace bfly::distributed::detail {

class LocalTransport {
 public:
  virtual ~LocalTransport() = default;
  // sends[m][p]: member m's run for peer p; receives[m][p]: where member
  // m takes peer p's (members and peers by place in the group); streams[m]:
  // member m's (never null on CUDA).
  virtual void exchange(const std::vector<std::vector<Run>>& sends, const std::vector<std::vector<Run>>& receives,
                        const std::vector<void*>& streams) const = 0;
};

class HostCopies : public LocalTransport {
 public:
  HostCopies(std::vector<Device> devices, int point_bytes) : devices_(std::move(devices)), point_bytes_(point_bytes) {}
  void exchange(const std::vector<std::vector<Run>>& sends, const std::vector<std::vector<Run>>& receives,
                const std::vector<void*>& streams) const override;

 private:
  std::vector<Device> devices_;  // by member
  int point_bytes_;
  mutable std::vector<std::complex<double>> staging_;
};

class NcclLocal : public LocalTransport {
 public:
  NcclLocal(const NcclClique& clique, int point_bytes) : clique_(clique), point_bytes_(point_bytes) {}
  void exchange(const std::vector<std::vector<Run>>& sends, const std::vector<std::vector<Run>>& receives,
                const std::vector<void*>& streams) const override;

 private:
  const NcclClique& clique_;
  int point_bytes_;
};

}  // namespace bfly::distributed::detail
