// bfly::distributed::rank_device (distributed.hpp): one GPU a rank on a
// host of several, the usual launch (mpirun -np <GPUs> on each host) with
// no code of the caller's to pick devices.
#include <cstdlib>
#include <optional>

#include "bfly/distributed.hpp"
#include "distributed/agree.hpp"

namespace bfly::distributed {

Device rank_device(MPI_Comm comm, const std::string& spec) {
  std::string chosen = spec;
  if (chosen.empty()) {
    const char* env = std::getenv("BFLY_DEVICE");
    chosen = env ? env : "auto";
  }
  // The local rank first: a collective every rank makes before anything
  // that may fail on some ranks only (the open, agreed below).
  MPI_Comm host = MPI_COMM_NULL;
  detail::check_mpi(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host), "MPI_Comm_split_type");
  int local = 0;
  MPI_Comm_rank(host, &local);
  MPI_Comm_free(&host);
  std::optional<Device> opened;
  detail::together(comm, [&] { opened.emplace(Device::open(chosen)); });
  // Then each rank's own GPU where the host has several: an agreement every
  // rank makes, whether or not it opens another device.
  detail::together(comm, [&] {
    if (opened->info().backend != "cuda" || (chosen != "auto" && chosen != "gpu")) return;
    int gpus = 0;
    for (const DeviceInfo& info : Device::list())
      if (info.backend == "cuda") ++gpus;
    if (gpus > 1) opened.emplace(Device::open("cuda:" + std::to_string(local % gpus)));
  });
  return *opened;
}

}  // namespace bfly::distributed
