// bfly::distributed::rank_device (distributed.hpp): one GPU a rank on a
// host of several, the usual launch (mpirun -np <GPUs> on each host) with
// no code of the caller's to pick devices.
#include <cstdlib>

#include "bfly/distributed.hpp"
#include "distributed/agree.hpp"

namespace bfly::distributed {

Device rank_device(MPI_Comm comm, const std::string& spec) {
  std::string chosen = spec;
  if (chosen.empty()) {
    const char* env = std::getenv("BFLY_DEVICE");
    chosen = env ? env : "auto";
  }
  Device device = Device::open(chosen);
  // The local rank first: a collective every rank makes, whatever it opened.
  MPI_Comm host = MPI_COMM_NULL;
  detail::check_mpi(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &host), "MPI_Comm_split_type");
  int local = 0;
  MPI_Comm_rank(host, &local);
  MPI_Comm_free(&host);
  if (device.info().backend != "cuda" || (chosen != "auto" && chosen != "gpu")) return device;
  int gpus = 0;
  for (const DeviceInfo& info : Device::list())
    if (info.backend == "cuda") ++gpus;
  if (gpus <= 1) return device;
  return Device::open("cuda:" + std::to_string(local % gpus));
}

}  // namespace bfly::distributed
